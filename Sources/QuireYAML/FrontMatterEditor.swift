/// A lossless editor for a Markdown file's YAML front matter.
///
/// Every edit replaces only the bytes of the value it changes, or inserts or removes whole lines;
/// comments, key order, quoting, blank lines, indentation, line endings, the BOM, anchors and the
/// body come back byte-identical. After each edit the result is re-parsed and checked: the edited
/// key must hold the new value and every other top-level key its old one. If anything is off, the
/// edit throws and `file` is left unchanged.
public struct FrontMatterEditor: Sendable {
    /// The file's current bytes.
    public internal(set) var file: [UInt8]
    /// The current front matter, re-parsed after each edit.
    public internal(set) var frontMatter: FrontMatter

    /// Starts editing a file.
    /// - Parameter file: The whole file's bytes.
    /// - Throws: Any ``YAMLError`` from parsing its front matter.
    public init(file: [UInt8]) throws(YAMLError) {
        self.file = file
        frontMatter = try FrontMatter(file: file)
    }

    /// Starts editing a file whose front matter was already parsed.
    /// - Parameters:
    ///   - file: The whole file's bytes.
    ///   - frontMatter: `FrontMatter(file: file)`, parsed by the caller.
    public init(file: [UInt8], frontMatter: FrontMatter) {
        self.file = file
        self.frontMatter = frontMatter
    }

    /// Starts editing a file given as text.
    /// - Parameter text: The whole file.
    /// - Throws: Any ``YAMLError`` from parsing its front matter.
    public init(text: String) throws(YAMLError) {
        try self.init(file: Array(text.utf8))
    }

    /// The file's current bytes decoded as UTF-8.
    public var text: String { String(decoding: file, as: UTF8.self) }

    // MARK: - Reading a block mapping as written

    /// The whole lines of the top-level key `key` (its key line to its value's last line break),
    /// or nil when the front matter does not have it.
    public func lines(ofTopLevelKey key: String) throws(YAMLError) -> Range<Int>? {
        guard let root = try editableRoot(), let entry = root.entries.first(where: { $0.key.value == key }) else { return nil }
        return try entryLines(entry)
    }

    /// The entries of the block mapping under the top-level key `key`, each key with its value's
    /// text exactly as written and its node; nil when the key is missing or not a mapping.
    public func entriesAsWritten(under key: String) throws(YAMLError) -> [(key: String, text: String, value: YAMLNode)]? {
        guard let root = try editableRoot(), let entry = root.entries.first(where: { $0.key.value == key }),
              case .mapping(let map) = entry.value else { return nil }
        return map.entries.map { entry in
            let start = entry.value.start.offset, end = max(start, contentEnd(entry.value))
            return (entry.key.value, String(decoding: file[start..<end], as: UTF8.self), entry.value)
        }
    }

    // MARK: - Top-level keys

    /// Sets a top-level key, replacing only its value's bytes, or appending `key: value` when absent.
    ///
    /// A file without front matter gets a new `---` block at its start (after a BOM).
    /// - Parameters:
    ///   - key: The key's decoded text.
    ///   - value: The new value.
    /// - Throws: ``YAMLError`` when the edit cannot be made losslessly or does not verify.
    public mutating func set(_ key: String, to value: YAMLValue) throws(YAMLError) {
        let root = try editableRoot()
        let text = value.yamlText()
        var edits: [Edit]
        if let entry = root?.entry(for: key) {
            edits = try replaceValue(of: entry, with: text)
            try checkAnchors(removing: edits.map(\.range), in: root)
        } else {
            edits = [try appendTopLevel(lines: [YAMLEmitter.key(key, inFlow: false) + ": " + text], root: root)]
        }
        try commit(edits, at: root?.entry(for: key)?.key.start) { new in
            Self.verifyTopLevel(old: root, new: new, changedKey: key) { node in
                guard let node else { return "key '\(key)' is missing after the edit" }
                return value.isMatched(by: node) ? nil : "key '\(key)' does not read back as the new value"
            }
        }
    }

    /// Removes a top-level key and its value, as whole lines; does nothing when the key is absent.
    /// - Parameter key: The key's decoded text.
    /// - Throws: ``YAMLError`` when the edit cannot be made losslessly or does not verify.
    public mutating func remove(_ key: String) throws(YAMLError) {
        guard let root = try editableRoot(), let entry = root.entry(for: key) else { return }
        let range = try entryLines(entry)
        try checkAnchors(removing: [range], in: root)
        try commit([Edit(range: range, bytes: [])], at: entry.key.start) { new in
            Self.verifyTopLevel(old: root, new: new, changedKey: key) { node in
                node == nil ? nil : "key '\(key)' is still present after removing it"
            }
        }
    }

    // MARK: - Entries under a top-level mapping

    /// Sets `entry` inside the block mapping under top-level key `parent`, as one `entry: value` line.
    ///
    /// An existing entry has only its value's bytes replaced; a new entry is appended after the
    /// mapping's last line with its siblings' indentation. An absent, empty or null parent becomes
    /// a block mapping holding the entry.
    /// - Parameters:
    ///   - entry: The nested key's decoded text (e.g. a card ID).
    ///   - parent: The top-level key's decoded text.
    ///   - value: The new value, typically a ``YAMLValue/flowMapping(_:)``.
    ///   - blankLineAfter: Whether a new entry is followed by a blank line (placed after the blank
    ///     line that follows the last entry, if there is one), so that no two entries are
    ///     neighbours: git merges changes to lines that do not touch.
    /// - Throws: ``YAMLError/notAMapping(key:at:)`` when the parent holds a scalar or a list, or
    ///   another ``YAMLError`` when the edit cannot be made losslessly or does not verify.
    public mutating func setEntry(_ entry: String, in parent: String, to value: YAMLValue,
                                  blankLineAfter: Bool = false) throws(YAMLError) {
        let root = try editableRoot()
        let text = value.yamlText()
        let entryKey = YAMLEmitter.key(entry, inFlow: false)
        let lineEnding = frontMatter.lineEnding.bytes
        var edits: [Edit]
        var oldEntries: [(key: YAMLScalar, value: YAMLNode)] = []
        let parentEntry = root?.entry(for: parent)
        if let parentEntry {
            switch parentEntry.value {
            case .mapping(let mapping) where !mapping.isFlow && !mapping.isAlias:
                try checkAnchorNotShared(parentEntry.value, in: root)
                oldEntries = mapping.entries
                if let entryIndex = mapping.entries.lastIndex(where: { $0.key.value == entry }) {
                    if let root, let parentIndex = root.entries.lastIndex(where: { $0.key.value == parent }),
                       replaceFlowLine(parentIndex: parentIndex, entryIndex: entryIndex, in: root, with: text, value: value) {
                        return
                    }
                    edits = try replaceValue(of: mapping.entries[entryIndex], with: text)
                    try checkAnchors(removing: edits.map(\.range), in: root)
                } else {
                    guard let firstKey = mapping.entries.first?.key else {
                        throw .unsupportedEdit(reason: "'\(parent)' is an empty block mapping", at: mapping.start)
                    }
                    let indent = try keyIndent(firstKey)
                    var position = try endOfLines(.mapping(mapping))
                    var bytes = Array((indent + entryKey + ": " + text).utf8) + lineEnding
                    if blankLineAfter {
                        if let blank = blankLine(at: position) {
                            position = blank.upperBound
                        } else {
                            bytes = lineEnding + bytes
                        }
                        bytes += lineEnding
                    }
                    edits = [Edit(position: position, bytes: bytes)]
                }
            case .mapping(let mapping) where mapping.isFlow && mapping.entries.isEmpty && !mapping.isAlias:
                edits = try blockMappingStart(replacing: parentEntry, firstLine: entryKey + ": " + text)
                try checkAnchors(removing: edits.map(\.range), in: root)
            case .scalar(let scalar) where scalar.isNull && !scalar.isAlias:
                edits = try blockMappingStart(replacing: parentEntry, firstLine: entryKey + ": " + text)
                try checkAnchors(removing: edits.map(\.range), in: root)
            case .mapping(let mapping) where mapping.isFlow && !mapping.isAlias:
                throw .unsupportedEdit(
                    reason: "cannot add '\(entry)' to the flow mapping '\(parent)'; write it as a block mapping",
                    at: mapping.start)
            case let node where node.alias != nil:
                throw .unsupportedEdit(
                    reason: "the value of '\(parent)' is the alias '*\(node.alias ?? "")'; edit the anchored value",
                    at: node.start)
            case let node:
                throw .notAMapping(key: parent, at: node.start)
            }
        } else {
            let parentKey = YAMLEmitter.key(parent, inFlow: false)
            let lines = [parentKey + ":", "  " + entryKey + ": " + text] + (blankLineAfter ? [""] : [])
            edits = [try appendTopLevel(lines: lines, root: root)]
        }
        try commit(edits, at: parentEntry?.key.start) { new in
            Self.verifyTopLevel(old: root, new: new, changedKey: parent) { node in
                guard case .mapping(let mapping)? = node else { return "'\(parent)' is not a mapping after the edit" }
                let others = mapping.entries.filter { $0.key.value != entry }
                let oldOthers = oldEntries.filter { $0.key.value != entry }
                guard Self.sameEntries(others, oldOthers) else { return "other entries of '\(parent)' changed" }
                guard let written = mapping[entry], value.isMatched(by: written) else {
                    return "entry '\(entry)' of '\(parent)' does not read back as the new value"
                }
                return nil
            }
        }
    }

    /// Removes `entry` (whole lines) from the mapping under `parent`, and `parent` too when it empties.
    ///
    /// Does nothing when the parent or the entry is absent, or the parent is null.
    /// - Parameters:
    ///   - entry: The nested key's decoded text.
    ///   - parent: The top-level key's decoded text.
    ///   - blankLineAfter: Whether the blank line that follows the entry (or the emptied parent)
    ///     goes with it, undoing ``setEntry(_:in:to:blankLineAfter:)``.
    /// - Throws: ``YAMLError/notAMapping(key:at:)`` when the parent holds a scalar or a list, or
    ///   another ``YAMLError`` when the edit cannot be made losslessly or does not verify.
    public mutating func removeEntry(_ entry: String, in parent: String, blankLineAfter: Bool = false) throws(YAMLError) {
        guard let root = try editableRoot(), let parentEntry = root.entry(for: parent) else { return }
        let mapping: YAMLMapping
        switch parentEntry.value {
        case .mapping(let m) where !m.isAlias:
            mapping = m
        case .scalar(let s) where s.isNull:
            return
        case let node where node.alias != nil:
            throw .unsupportedEdit(
                reason: "the value of '\(parent)' is the alias '*\(node.alias ?? "")'; edit the anchored value",
                at: node.start)
        case let node:
            throw .notAMapping(key: parent, at: node.start)
        }
        guard let target = mapping.entry(for: entry) else { return }
        try checkAnchorNotShared(parentEntry.value, in: root)
        if mapping.isFlow {
            throw .unsupportedEdit(
                reason: "cannot remove '\(entry)' from the flow mapping '\(parent)'; write it as a block mapping",
                at: mapping.start)
        }
        let removesParent = mapping.entries.count == 1
        var range = try removesParent ? entryLines(parentEntry) : entryLines(target)
        if blankLineAfter, let blank = blankLine(at: range.upperBound) { range = range.lowerBound..<blank.upperBound }
        try checkAnchors(removing: [range], in: root)
        try commit([Edit(range: range, bytes: [])], at: target.key.start) { new in
            Self.verifyTopLevel(old: root, new: new, changedKey: parent) { node in
                if removesParent { return node == nil ? nil : "'\(parent)' is still present after emptying it" }
                guard case .mapping(let newMapping)? = node else { return "'\(parent)' is not a mapping after the edit" }
                let expected = mapping.entries.filter { $0.key.value != entry }
                return Self.sameEntries(newMapping.entries, expected) ? nil : "entries of '\(parent)' changed unexpectedly"
            }
        }
    }

    // MARK: - Edits and verification

    struct Edit {
        var range: Range<Int>
        var bytes: [UInt8]

        init(range: Range<Int>, bytes: [UInt8]) {
            self.range = range
            self.bytes = bytes
        }

        init(position: Int, bytes: [UInt8]) {
            self.init(range: position..<position, bytes: bytes)
        }
    }

    /// Applies edits to a copy, re-parses it, checks it, and only then replaces `file`.
    mutating func commit(
        _ edits: [Edit], at mark: YAMLMark?, verify: (YAMLMapping?) -> String?
    ) throws(YAMLError) {
        let location = mark ?? YAMLMark(offset: frontMatter.bodyRange.lowerBound, line: 1, column: 1)
        var updated = file
        let ordered = edits.sorted {
            $0.range.lowerBound != $1.range.lowerBound
                ? $0.range.lowerBound > $1.range.lowerBound : $0.range.upperBound > $1.range.upperBound
        }
        for (index, edit) in ordered.enumerated() {
            if index > 0, edit.range.upperBound > ordered[index - 1].range.lowerBound {
                throw .verificationFailed(reason: "overlapping edits", at: location)
            }
            updated.replaceSubrange(edit.range, with: edit.bytes)
        }
        let reparsed: FrontMatter
        do {
            reparsed = try FrontMatter(file: updated)
        } catch {
            throw .verificationFailed(reason: "the result does not parse (\(error))", at: location)
        }
        guard reparsed.hasBOM == frontMatter.hasBOM,
              updated[reparsed.bodyRange].elementsEqual(file[frontMatter.bodyRange]) else {
            throw .verificationFailed(reason: "the Markdown body would change", at: location)
        }
        if let problem = verify(reparsed.root) {
            throw .verificationFailed(reason: problem, at: location)
        }
        file = updated
        frontMatter = reparsed
    }

    /// Checks that every top-level key but `changedKey` kept its value and order, then runs `check`.
    static func verifyTopLevel(
        old: YAMLMapping?, new: YAMLMapping?, changedKey: String, check: (YAMLNode?) -> String?
    ) -> String? {
        let oldOthers = (old?.entries ?? []).filter { $0.key.value != changedKey }
        let newOthers = (new?.entries ?? []).filter { $0.key.value != changedKey }
        guard sameEntries(oldOthers, newOthers) else { return "another top-level key changed" }
        return check(new?[changedKey])
    }

    static func sameEntries(
        _ a: [(key: YAMLScalar, value: YAMLNode)], _ b: [(key: YAMLScalar, value: YAMLNode)]
    ) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { lhs, rhs in
            YAMLNode.scalar(lhs.key).hasSameContent(as: .scalar(rhs.key)) && lhs.value.hasSameContent(as: rhs.value)
        }
    }

    // MARK: - Preconditions

    /// The root mapping if edits are safe: not a flow mapping, no duplicate keys anywhere.
    func editableRoot() throws(YAMLError) -> YAMLMapping? {
        guard let root = frontMatter.root else { return nil }
        if root.isFlow {
            throw .unsupportedEdit(reason: "cannot edit a flow-style front matter mapping", at: root.start)
        }
        if let (duplicate, first) = YAMLNode.mapping(root).firstDuplicateKey() {
            throw .duplicateKey(key: duplicate.value, at: duplicate.start, firstAt: first.start)
        }
        return root
    }

    /// Refuses to remove or replace an anchor that an alias outside the removed bytes still uses.
    func checkAnchors(removing ranges: [Range<Int>], in root: YAMLMapping?) throws(YAMLError) {
        guard let root, ranges.contains(where: { !$0.isEmpty }) else { return }
        var definitions: [(name: String, mark: YAMLMark)] = []
        var uses: [(name: String, mark: YAMLMark)] = []
        func inRanges(_ mark: YAMLMark) -> Bool { ranges.contains { $0.contains(mark.offset) } }
        func walk(_ node: YAMLNode) {
            if let alias = node.alias {
                if !inRanges(node.start) { uses.append((alias, node.start)) }
                return
            }
            if let anchor = node.anchor, inRanges(node.start) { definitions.append((anchor, node.start)) }
            switch node {
            case .scalar:
                break
            case .sequence(let sequence):
                sequence.items.forEach(walk)
            case .mapping(let mapping):
                for entry in mapping.entries {
                    walk(.scalar(entry.key))
                    walk(entry.value)
                }
            }
        }
        walk(.mapping(root))
        for definition in definitions {
            if let use = uses.first(where: { $0.name == definition.name }) {
                throw .anchorInUse(anchor: definition.name, at: definition.mark, aliasAt: use.mark)
            }
        }
    }

    /// Refuses to change the contents of an anchored collection that an alias elsewhere copies.
    func checkAnchorNotShared(_ container: YAMLNode, in root: YAMLMapping?) throws(YAMLError) {
        guard let root, let anchor = container.anchor else { return }
        func firstUse(_ node: YAMLNode) -> YAMLMark? {
            if let alias = node.alias { return alias == anchor ? node.start : nil }
            switch node {
            case .scalar:
                return nil
            case .sequence(let sequence):
                for item in sequence.items { if let mark = firstUse(item) { return mark } }
                return nil
            case .mapping(let mapping):
                for entry in mapping.entries {
                    if let mark = firstUse(.scalar(entry.key)) ?? firstUse(entry.value) { return mark }
                }
                return nil
            }
        }
        if let use = firstUse(.mapping(root)) {
            throw .anchorInUse(anchor: anchor, at: container.start, aliasAt: use)
        }
    }

    // MARK: - Byte geometry

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    func lineStart(_ offset: Int) -> Int {
        var i = offset
        while i > 0, file[i - 1] != 0x0A { i -= 1 }
        return i
    }

    /// End of the line holding `offset`, before its `\r\n` or `\n`.
    func lineContentEnd(_ offset: Int) -> Int {
        FrontMatter.line(in: file, from: offset).contentEnd
    }

    /// Start of the line after the one holding `offset` (or the end of the file).
    func nextLineStart(_ offset: Int) -> Int {
        FrontMatter.line(in: file, from: offset).next
    }

    /// Where a node's own text ends: block scalars lose trailing breaks and blank lines, block
    /// collections end with their last item (libyaml ends them at the next token, past comments).
    func contentEnd(_ node: YAMLNode) -> Int {
        switch node {
        case .scalar(let scalar):
            guard scalar.alias == nil, scalar.style == .literal || scalar.style == .folded else {
                return scalar.end.offset
            }
            let start = scalar.start.offset
            var end = min(scalar.end.offset, file.count)
            while end > start {
                if file[end - 1] == 0x0A || file[end - 1] == 0x0D {
                    end -= 1
                    continue
                }
                // A whitespace-only line after the content is a trailing blank line, not content text.
                let begin = lineStart(end)
                if begin > start, file[begin..<end].allSatisfy(Self.isBlank) {
                    end = begin
                    continue
                }
                break
            }
            return end
        case .sequence(let sequence):
            guard !sequence.isFlow, sequence.alias == nil, let last = sequence.items.last else { return sequence.end.offset }
            return contentEnd(last)
        case .mapping(let mapping):
            guard !mapping.isFlow, mapping.alias == nil, let last = mapping.entries.last else { return mapping.end.offset }
            return contentEnd(last.value)
        }
    }

    /// Start of the line after a block node's last line, where a sibling line can be inserted.
    func endOfLines(_ node: YAMLNode) throws(YAMLError) -> Int {
        let next = nextLineStart(lineContentEnd(contentEnd(node)))
        guard next > 0, file[next - 1] == 0x0A else {
            throw .unsupportedEdit(reason: "the front matter does not end with a line break", at: node.start)
        }
        return next
    }

    /// The line starting at `offset` when it is inside the YAML and holds nothing but spaces (and
    /// its line break): its range with the break.
    func blankLine(at offset: Int) -> Range<Int>? {
        guard let yamlRange = frontMatter.yamlRange, offset >= yamlRange.lowerBound, offset < yamlRange.upperBound else { return nil }
        let line = FrontMatter.line(in: file, from: offset)
        guard line.next <= yamlRange.upperBound, line.next > line.contentEnd,
              file[offset..<line.contentEnd].allSatisfy({ $0 == 0x20 }) else { return nil }
        return offset..<line.next
    }

    /// The byte just after the `:` that follows a block mapping key.
    func colonEnd(after key: YAMLScalar) throws(YAMLError) -> Int {
        var i = key.end.offset
        while i < file.count, Self.isBlank(file[i]) { i += 1 }
        guard i < file.count, file[i] == UInt8(ascii: ":") else {
            throw .unsupportedEdit(reason: "cannot find the ':' after key '\(key.value)'", at: key.start)
        }
        return i + 1
    }

    /// The whitespace before a key that starts its line.
    func keyIndent(_ key: YAMLScalar) throws(YAMLError) -> String {
        let begin = lineStart(key.start.offset)
        let prefix = file[begin..<key.start.offset]
        guard prefix.allSatisfy(Self.isBlank) else {
            throw .unsupportedEdit(reason: "key '\(key.value)' does not start its line", at: key.start)
        }
        return String(decoding: prefix, as: UTF8.self)
    }

    /// The whole lines of a block mapping entry, from its key's line to its value's last line break.
    func entryLines(_ entry: (key: YAMLScalar, value: YAMLNode)) throws(YAMLError) -> Range<Int> {
        _ = try keyIndent(entry.key)
        return lineStart(entry.key.start.offset)..<nextLineStart(lineContentEnd(contentEnd(entry.value)))
    }

    /// Edits replacing an entry's value with `text` (single line), keeping a comment on the key line.
    func replaceValue(of entry: (key: YAMLScalar, value: YAMLNode), with text: String) throws(YAMLError) -> [Edit] {
        let colon = try colonEnd(after: entry.key)
        let keyLineEnd = lineContentEnd(colon)
        let value = entry.value
        if case .scalar(let s) = value, s.value.isEmpty, s.style == .plain, s.tag == nil, s.anchor == nil,
           s.alias == nil, s.start.offset == s.end.offset {
            return [Edit(position: colon, bytes: Array((" " + text).utf8))]
        }
        let valueStart = value.start.offset
        var valueEnd = contentEnd(value)
        switch value {
        case .sequence(let s) where !s.isFlow && s.alias == nil:
            valueEnd = lineContentEnd(valueEnd)
        case .mapping(let m) where !m.isFlow && m.alias == nil:
            valueEnd = lineContentEnd(valueEnd)
        default:
            break
        }
        if valueStart <= keyLineEnd {
            return [Edit(range: valueStart..<valueEnd, bytes: Array(text.utf8))]
        }
        if file[colon..<keyLineEnd].allSatisfy(Self.isBlank) {
            return [Edit(range: colon..<valueEnd, bytes: Array((" " + text).utf8))]
        }
        // `key: # comment` over a value on the next lines: the value moves up before the comment.
        return [
            Edit(position: colon, bytes: Array((" " + text).utf8)),
            Edit(range: keyLineEnd..<valueEnd, bytes: []),
        ]
    }

    /// Edits turning an empty/null value into a block mapping whose first line is `firstLine`.
    func blockMappingStart(
        replacing entry: (key: YAMLScalar, value: YAMLNode), firstLine: String
    ) throws(YAMLError) -> [Edit] {
        let indent = try keyIndent(entry.key)
        let colon = try colonEnd(after: entry.key)
        let keyLineEnd = lineContentEnd(colon)
        var edits: [Edit] = []
        let value = entry.value
        let isEmptyScalar = value.scalar.map { $0.value.isEmpty && $0.style == .plain && $0.start == $0.end } ?? false
        if !isEmptyScalar {
            let valueEnd = contentEnd(value)
            guard valueEnd <= keyLineEnd else {
                throw .unsupportedEdit(reason: "the value of '\(entry.key.value)' is not on its key's line", at: value.start)
            }
            edits.append(Edit(range: colon..<valueEnd, bytes: []))
        }
        let line = frontMatter.lineEnding.bytes + Array((indent + "  " + firstLine).utf8)
        edits.append(Edit(position: keyLineEnd, bytes: line))
        return edits
    }

    /// An insertion of top-level lines at the end of the front matter, creating it when absent.
    func appendTopLevel(lines: [String], root: YAMLMapping?) throws(YAMLError) -> Edit {
        let lineEnding = frontMatter.lineEnding.bytes
        guard let yamlRange = frontMatter.yamlRange else {
            var bytes = Array("---".utf8) + lineEnding
            for line in lines { bytes += Array(line.utf8) + lineEnding }
            bytes += Array("---".utf8) + lineEnding
            return Edit(position: frontMatter.bodyRange.lowerBound, bytes: bytes)
        }
        let indent = try root?.entries.first.map { entry throws(YAMLError) in try keyIndent(entry.key) } ?? ""
        var bytes: [UInt8] = []
        if !yamlRange.isEmpty, file[yamlRange.upperBound - 1] != 0x0A { bytes += lineEnding }
        for line in lines { bytes += Array((indent + line).utf8) + lineEnding }
        return Edit(position: yamlRange.upperBound, bytes: bytes)
    }
}
