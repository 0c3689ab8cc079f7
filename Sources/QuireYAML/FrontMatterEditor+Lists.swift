// MARK: - Lists (tags and the like)

extension FrontMatterEditor {
    /// Adds `item` to the list under a top-level key, in the style the list already has.
    ///
    /// A block list gets a `- item` line with the same indentation, a flow list `[a, b]` becomes
    /// `[a, b, item]`, a comma string `"a, b"` becomes `"a, b, item"`, and an absent or null key
    /// becomes `key: [item]`. Nothing changes when the item is already present.
    /// - Parameters:
    ///   - key: The top-level key's decoded text (e.g. `tags`).
    ///   - item: The item's text.
    /// - Throws: ``YAMLError/notAList(key:at:)`` when the value is a mapping or block scalar, or
    ///   another ``YAMLError`` when the edit cannot be made losslessly or does not verify.
    public mutating func addToList(_ key: String, _ item: String) throws(YAMLError) {
        let root = try editableRoot()
        guard let root, let entry = root.entry(for: key) else {
            return try set(key, to: .flowSequence([.scalar(item)]))
        }
        guard let oldItems = Self.listItems(entry.value) else {
            throw .notAList(key: key, at: entry.value.start)
        }
        if oldItems.contains(item) { return }
        try checkAnchorNotShared(entry.value, in: root)
        let edits: [Edit]
        switch entry.value {
        case .sequence(let sequence) where sequence.alias == nil:
            if sequence.isFlow {
                let text = YAMLValue.scalar(item).yamlText(inFlow: true)
                if let last = sequence.items.last {
                    edits = [Edit(position: contentEnd(last), bytes: Array((flowSeparator(sequence) + text).utf8))]
                } else {
                    edits = [Edit(position: try openingBracket(sequence) + 1, bytes: Array(text.utf8))]
                }
            } else {
                guard let first = sequence.items.first else {
                    throw .unsupportedEdit(reason: "'\(key)' is an empty block list", at: sequence.start)
                }
                let prefix = try itemPrefix(first)
                let position = try endOfLines(entry.value)
                let line = prefix + YAMLValue.scalar(item).yamlText()
                edits = [Edit(position: position, bytes: Array(line.utf8) + frontMatter.lineEnding.bytes)]
            }
        case .scalar(let scalar) where scalar.alias == nil:
            if scalar.isNull {
                edits = try replaceValue(of: entry, with: YAMLValue.flowSequence([.scalar(item)]).yamlText())
            } else {
                let trimmed = Self.trimmingTrailingBlanks(scalar.value)
                let separator = Self.commaSeparator(scalar.value)
                let newValue = trimmed.isEmpty ? item : trimmed + separator + item
                edits = try replaceValue(of: entry, with: Self.scalarText(newValue, style: scalar.style))
            }
            try checkAnchors(removing: edits.map(\.range), in: root)
        case let node:
            throw .unsupportedEdit(
                reason: "the value of '\(key)' is the alias '*\(node.alias ?? "")'; edit the anchored value",
                at: node.start)
        }
        try commitListEdit(edits, key: key, root: root, expected: oldItems + [item], at: entry.key.start)
    }

    /// Removes every occurrence of `item` from the list under a top-level key, keeping its style.
    ///
    /// Block list items lose their whole lines; a list emptied this way becomes `[]`. Nothing
    /// changes when the key or the item is absent.
    /// - Parameters:
    ///   - key: The top-level key's decoded text.
    ///   - item: The item's text.
    /// - Throws: ``YAMLError/notAList(key:at:)`` when the value is a mapping or block scalar, or
    ///   another ``YAMLError`` when the edit cannot be made losslessly or does not verify.
    public mutating func removeFromList(_ key: String, _ item: String) throws(YAMLError) {
        // One occurrence per pass: every pass is a separately verified, re-parsed edit.
        while let root = try editableRoot(), let entry = root.entry(for: key) {
            guard let oldItems = Self.listItems(entry.value) else { throw .notAList(key: key, at: entry.value.start) }
            guard let index = oldItems.firstIndex(of: item) else { return }
            try checkAnchorNotShared(entry.value, in: root)
            var expected = oldItems
            expected.remove(at: index)
            let edits: [Edit]
            switch entry.value {
            case .sequence(let sequence) where sequence.alias == nil:
                let items = sequence.items
                if items.count == 1 {
                    if sequence.isFlow {
                        let open = try openingBracket(sequence) + 1
                        let close = try closingBracket(sequence)
                        edits = [Edit(range: open..<close, bytes: [])]
                    } else {
                        edits = try replaceValue(of: entry, with: "[]")
                    }
                } else if sequence.isFlow {
                    let range = index < items.count - 1
                        ? items[index].start.offset..<items[index + 1].start.offset
                        : contentEnd(items[index - 1])..<contentEnd(items[index])
                    edits = [Edit(range: range, bytes: [])]
                } else {
                    _ = try itemPrefix(items[index])
                    let start = lineStart(items[index].start.offset)
                    let end = nextLineStart(lineContentEnd(contentEnd(items[index])))
                    edits = [Edit(range: start..<end, bytes: [])]
                }
            case .scalar(let scalar) where scalar.alias == nil:
                let kept = oldItems.filter { $0 != item }
                let text: String
                if kept.isEmpty {
                    text = scalar.style == .singleQuoted ? "''" : "\"\""
                } else {
                    text = Self.scalarText(kept.joined(separator: Self.commaSeparator(scalar.value)), style: scalar.style)
                }
                expected = kept
                edits = try replaceValue(of: entry, with: text)
            case let node:
                throw .unsupportedEdit(
                    reason: "the value of '\(key)' is the alias '*\(node.alias ?? "")'; edit the anchored value",
                    at: node.start)
            }
            try checkAnchors(removing: edits.map(\.range), in: root)
            try commitListEdit(edits, key: key, root: root, expected: expected, at: entry.key.start)
        }
    }

    // MARK: - Helpers

    /// The items of a list value: sequence items, comma-string parts, or none for null.
    ///
    /// Returns nil for mappings and block scalars, which are not lists. Non-scalar sequence items
    /// are represented by a placeholder that no real item text can equal.
    static func listItems(_ node: YAMLNode) -> [String]? {
        switch node {
        case .sequence(let sequence):
            return sequence.items.map { $0.scalar?.value ?? "\u{0}\($0.kindName)" }
        case .scalar(let scalar):
            if scalar.isNull { return [] }
            if scalar.style == .literal || scalar.style == .folded { return nil }
            return Self.commaItems(scalar.value)
        case .mapping:
            return nil
        }
    }

    mutating func commitListEdit(
        _ edits: [Edit], key: String, root: YAMLMapping, expected: [String], at mark: YAMLMark
    ) throws(YAMLError) {
        try commit(edits, at: mark) { new in
            Self.verifyTopLevel(old: root, new: new, changedKey: key) { node in
                guard let node, let items = Self.listItems(node) else { return "'\(key)' is not a list after the edit" }
                return items == expected ? nil : "the items of '\(key)' do not read back as expected"
            }
        }
    }

    static func commaItems(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingBlanks() }
            .filter { !$0.isEmpty }
    }

    /// `", "` unless the string already separates items with a bare `,`.
    static func commaSeparator(_ text: String) -> String {
        text.contains(",") && !text.contains(", ") ? "," : ", "
    }

    static func trimmingTrailingBlanks(_ text: String) -> String {
        var result = Substring(text)
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return String(result)
    }

    /// Scalar text written in the given style when that is lossless, else double-quoted.
    static func scalarText(_ value: String, style: YAMLScalarStyle) -> String {
        switch style {
        case .plain:
            return YAMLValue.scalar(value).yamlText()
        case .singleQuoted where !value.hasControlCharacters:
            return YAMLEmitter.singleQuoted(value)
        default:
            return YAMLEmitter.doubleQuoted(value)
        }
    }

    /// The text between a flow list's last two items (e.g. `", "` or `",\n  "`), else `", "`.
    func flowSeparator(_ sequence: YAMLSequence) -> String {
        let items = sequence.items
        guard items.count >= 2 else { return ", " }
        let from = contentEnd(items[items.count - 2])
        let to = items[items.count - 1].start.offset
        guard from < to else { return ", " }
        let between = file[from..<to]
        guard between.contains(UInt8(ascii: ",")), !between.contains(UInt8(ascii: "#")) else { return ", " }
        return String(decoding: between, as: UTF8.self)
    }

    /// The bytes before a block list item on its line (`"  - "`), which a new item line copies.
    func itemPrefix(_ item: YAMLNode) throws(YAMLError) -> String {
        let begin = lineStart(item.start.offset)
        let prefix = Array(file[begin..<item.start.offset])
        var i = 0
        while i < prefix.count, Self.isBlank(prefix[i]) { i += 1 }
        let dash = i
        if i < prefix.count, prefix[i] == UInt8(ascii: "-") { i += 1 }
        let afterDash = i
        while i < prefix.count, Self.isBlank(prefix[i]) { i += 1 }
        guard afterDash == dash + 1, i == prefix.count, i > afterDash else {
            throw .unsupportedEdit(reason: "list item does not start its own '- ' line", at: item.start)
        }
        return String(decoding: prefix, as: UTF8.self)
    }

    func openingBracket(_ sequence: YAMLSequence) throws(YAMLError) -> Int {
        var i = sequence.start.offset
        while i < sequence.end.offset, file[i] != UInt8(ascii: "[") { i += 1 }
        guard i < sequence.end.offset else {
            throw .unsupportedEdit(reason: "cannot find the '[' of a flow list", at: sequence.start)
        }
        return i
    }

    func closingBracket(_ sequence: YAMLSequence) throws(YAMLError) -> Int {
        var i = sequence.end.offset - 1
        while i > sequence.start.offset, file[i] != UInt8(ascii: "]") { i -= 1 }
        guard i > sequence.start.offset else {
            throw .unsupportedEdit(reason: "cannot find the ']' of a flow list", at: sequence.start)
        }
        return i
    }
}

extension String {
    fileprivate func trimmingBlanks() -> String {
        var result = Substring(self)
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return String(result)
    }

    fileprivate var hasControlCharacters: Bool {
        unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || ($0.value >= 0x80 && $0.value <= 0x9F) }
    }}
