// MARK: - The fast path checked against libyaml

extension FrontMatter {
    /// Parses a file through the fast readers and through libyaml alone, and says how the two
    /// results differ.
    ///
    /// The results must be identical: the same error (kind, message, line, column and offset), or
    /// the same ranges and the same tree — keys in the same order, values, styles, tags, anchors,
    /// aliases and every mark — and the same duplicate key (the check notes and edits make next).
    /// Tests and the `frontmatter-diff` fuzz target call this.
    /// - Parameter file: The file's bytes.
    /// - Returns: nil when the results are identical, else a description of the first difference.
    @_spi(Testing) public static func fastPathDifference(file: [UInt8]) -> String? {
        let fast = Result { () throws(YAMLError) in try FrontMatter(file: file, fastPath: true) }
        let full = Result { () throws(YAMLError) in try FrontMatter(file: file, fastPath: false) }
        switch (fast, full) {
        case (.failure(let a), .failure(let b)):
            return a == b ? nil : "fast path: error \(a) (\(a.kindName)); libyaml: error \(b) (\(b.kindName))"
        case (.success(let a), .failure(let b)):
            return "fast path: \(a.root.map { "a mapping of \($0.entries.count) keys" } ?? "no front matter"); libyaml: error \(b)"
        case (.failure(let a), .success):
            return "fast path: error \(a); libyaml: no error"
        case (.success(let a), .success(let b)):
            if let difference = a.differenceInLayout(from: b) { return difference }
            switch (a.root, b.root) {
            case (nil, nil):
                return nil
            case (let x?, let y?):
                if let (p, q) = YAMLNode.mapping(x).firstDifference(from: .mapping(y)) {
                    return "fast path: \(p.map(\.summary) ?? "nothing"); libyaml: \(q.map(\.summary) ?? "nothing")"
                }
                let dx = YAMLNode.mapping(x).firstDuplicateKey(), dy = YAMLNode.mapping(y).firstDuplicateKey()
                guard dx?.duplicate == dy?.duplicate, dx?.first == dy?.first else {
                    return "fast path: duplicate key at \(dx.map { "\($0.duplicate.start)" } ?? "none"); libyaml: at \(dy.map { "\($0.duplicate.start)" } ?? "none")"
                }
                return nil
            default:
                return "fast path: \(a.root == nil ? "no root" : "a root"); libyaml: \(b.root == nil ? "no root" : "a root")"
            }
        }
    }

    /// The first field other than the tree in which two readings of one file differ.
    private func differenceInLayout(from other: FrontMatter) -> String? {
        let mine = "\(hasBOM) \(lineEnding) \(String(describing: yamlRange)) \(String(describing: openingFenceRange)) "
            + "\(String(describing: closingFenceRange)) \(bodyRange) \(bodyStartLine)"
        let theirs = "\(other.hasBOM) \(other.lineEnding) \(String(describing: other.yamlRange)) "
            + "\(String(describing: other.openingFenceRange)) \(String(describing: other.closingFenceRange)) "
            + "\(other.bodyRange) \(other.bodyStartLine)"
        return mine == theirs ? nil : "fast path: \(mine); libyaml: \(theirs)"
    }
}

extension YAMLError {
    /// The case's name, so that two errors with the same text but of different kinds tell apart.
    var kindName: String {
        switch self {
        case .syntax: "syntax"
        case .undefinedAlias: "undefinedAlias"
        case .nonScalarKey: "nonScalarKey"
        case .nestingTooDeep: "nestingTooDeep"
        case .multipleDocuments: "multipleDocuments"
        case .unclosedFrontMatter: "unclosedFrontMatter"
        case .rootNotMapping: "rootNotMapping"
        case .duplicateKey: "duplicateKey"
        case .anchorInUse: "anchorInUse"
        case .notAMapping: "notAMapping"
        case .notAList: "notAList"
        case .unsupportedEdit: "unsupportedEdit"
        case .verificationFailed: "verificationFailed"
        }
    }
}

extension YAMLNode {
    /// The first pair of nodes, in document order, that differ in anything but a copied alias's
    /// content (compared where its anchor is): kind, value, style, tag, anchor, alias, flow-ness,
    /// marks, key or item count (the missing side is nil). Nil when the trees are identical.
    func firstDifference(from other: YAMLNode) -> (YAMLNode?, YAMLNode?)? {
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)):
            return a == b ? nil : (self, other)
        case (.sequence(let a), .sequence(let b)):
            guard a.isFlow == b.isFlow, a.tag == b.tag, a.anchor == b.anchor, a.alias == b.alias,
                  a.start == b.start, a.end == b.end else { return (self, other) }
            if a.alias != nil { return nil }
            for (x, y) in zip(a.items, b.items) {
                if let found = x.firstDifference(from: y) { return found }
            }
            guard a.items.count == b.items.count else {
                let n = min(a.items.count, b.items.count)
                return (a.items.dropFirst(n).first, b.items.dropFirst(n).first)
            }
            return nil
        case (.mapping(let a), .mapping(let b)):
            guard a.isFlow == b.isFlow, a.tag == b.tag, a.anchor == b.anchor, a.alias == b.alias,
                  a.start == b.start, a.end == b.end else { return (self, other) }
            if a.alias != nil { return nil }
            for (x, y) in zip(a.entries, b.entries) {
                if x.key != y.key { return (.scalar(x.key), .scalar(y.key)) }
                if let found = x.value.firstDifference(from: y.value) { return found }
            }
            guard a.entries.count == b.entries.count else {
                let n = min(a.entries.count, b.entries.count)
                return (a.entries.dropFirst(n).first.map { .scalar($0.key) }, b.entries.dropFirst(n).first.map { .scalar($0.key) })
            }
            return nil
        default:
            return (self, other)
        }
    }

    /// One line saying what the node is and where: `scalar "x" plain 2:8-2:9`.
    var summary: String {
        let properties = [tag.map { "tag \($0)" }, anchor.map { "&\($0)" }, alias.map { "*\($0)" }].compactMap { $0 }
        let what: String
        switch self {
        case .scalar(let s): what = "scalar \(s.value.debugDescription) \(s.style)"
        case .sequence(let s): what = "\(s.isFlow ? "flow" : "block") sequence of \(s.items.count)"
        case .mapping(let m): what = "\(m.isFlow ? "flow" : "block") mapping of \(m.entries.count)"
        }
        return ([what] + properties).joined(separator: " ") + " \(start)-\(end) (bytes \(start.offset)-\(end.offset))"
    }
}
