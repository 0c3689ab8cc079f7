extension FrontMatterEditor {
    /// Sets (a value) or removes (nil) many entries of the block mapping under top-level key
    /// `parent` at once: each as ``setEntry(_:in:to:blankLineAfter:)`` or
    /// ``removeEntry(_:in:blankLineAfter:)`` would, with one parse, one set of edits and one
    /// check for them all — linear in the front matter, where one edit after another re-parses it
    /// each time (10,000 cards of one note replayed: quadratic, minutes).
    ///
    /// Existing entries keep their place (only their values' bytes change, or their lines go);
    /// new ones follow the mapping's last line in the order given. When an entry is named twice,
    /// the last change counts. A parent that is absent, null or empty gets its first entry as
    /// ``setEntry(_:in:to:blankLineAfter:)`` makes it; a front matter with anchors or aliases, or
    /// changes that would empty the mapping, are made one after another.
    /// - Throws: as ``setEntry(_:in:to:blankLineAfter:)``; on any error `file` is left unchanged.
    public mutating func setEntries(_ changes: [(entry: String, value: YAMLValue?)], in parent: String,
                                    blankLineAfter: Bool = false) throws(YAMLError) {
        // The last change of each entry, in the order entries are first named.
        var last: [String: YAMLValue?] = [:]
        var order: [String] = []
        for change in changes {
            if last.updateValue(change.value, forKey: change.entry) == nil { order.append(change.entry) }
        }
        let unchanged = self
        do {
            try apply(order.map { ($0, last[$0] ?? nil) }, in: parent, blankLineAfter: blankLineAfter)
        } catch {
            self = unchanged
            throw error
        }
    }

    private mutating func apply(_ changes: [(entry: String, value: YAMLValue?)], in parent: String,
                                blankLineAfter: Bool) throws(YAMLError) {
        func oneByOne(_ changes: ArraySlice<(entry: String, value: YAMLValue?)>) throws(YAMLError) {
            for change in changes {
                if let value = change.value {
                    try setEntry(change.entry, in: parent, to: value, blankLineAfter: blankLineAfter)
                } else {
                    try removeEntry(change.entry, in: parent, blankLineAfter: blankLineAfter)
                }
            }
        }
        guard changes.count > 1 else { return try oneByOne(changes[...]) }
        let root = try editableRoot()
        guard let root, let parentEntry = root.entry(for: parent), case .mapping(let mapping) = parentEntry.value,
              !mapping.isFlow, !mapping.isAlias, !mapping.entries.isEmpty else {
            // No block mapping yet: its first entry makes one, the rest go in together.
            guard let first = changes.firstIndex(where: { $0.value != nil }) else { return try oneByOne(changes[...]) }
            try oneByOne(changes[...first])
            return try apply(Array(changes[(first + 1)...]), in: parent, blankLineAfter: blankLineAfter)
        }
        guard !Self.hasAnchorsOrAliases(.mapping(root)) else { return try oneByOne(changes[...]) }
        var position: [String: Int] = [:]
        for (k, entry) in mapping.entries.enumerated() { position[entry.key.value] = k }
        var edits: [Edit] = []
        var added: [(entry: String, text: String)] = []
        var removed = 0
        for change in changes {
            if let k = position[change.entry] {
                let entry = mapping.entries[k]
                if let value = change.value {
                    edits += try replaceValue(of: entry, with: value.yamlText())
                } else {
                    var range = try entryLines(entry)
                    if blankLineAfter, let blank = blankLine(at: range.upperBound) { range = range.lowerBound..<blank.upperBound }
                    edits.append(Edit(range: range, bytes: []))
                    removed += 1
                }
            } else if let value = change.value {
                added.append((change.entry, value.yamlText()))
            }
        }
        guard removed < mapping.entries.count || !added.isEmpty else { return try oneByOne(changes[...]) }
        if !added.isEmpty, let firstKey = mapping.entries.first?.key {
            edits.append(try additionEdit(added, after: mapping, firstKey: firstKey, blankLineAfter: blankLineAfter))
        }
        let expected = changes
        try commit(edits, at: parentEntry.key.start) { new in
            Self.verifyTopLevel(old: root, new: new, changedKey: parent) { node in
                Self.batchProblem(old: mapping, new: node, parent: parent, changes: expected)
            }
        }
    }

    /// The edit adding new entries after the last line of `mapping`, indented as its first key:
    /// as one new entry after another (with `blankLineAfter`, a blank line before the first unless
    /// one is there, and one after each).
    private func additionEdit(_ added: [(entry: String, text: String)], after mapping: YAMLMapping, firstKey: YAMLScalar,
                              blankLineAfter: Bool) throws(YAMLError) -> Edit {
        let indent = try keyIndent(firstKey)
        let lineEnding = frontMatter.lineEnding.bytes
        var at = try endOfLines(.mapping(mapping))
        var bytes: [UInt8] = []
        if blankLineAfter {
            if let blank = blankLine(at: at) { at = blank.upperBound } else { bytes = lineEnding }
        }
        for (entry, text) in added {
            bytes += Array((indent + YAMLEmitter.key(entry, inFlow: false) + ": " + text).utf8) + lineEnding
            if blankLineAfter { bytes += lineEnding }
        }
        return Edit(position: at, bytes: bytes)
    }

    /// What is wrong with the mapping `parent` after a batch of changes, or nil: not a mapping,
    /// other entries changed, a set entry not reading back as its value, a removed one still there.
    private static func batchProblem(old mapping: YAMLMapping, new node: YAMLNode?, parent: String,
                                     changes: [(entry: String, value: YAMLValue?)]) -> String? {
        guard case .mapping(let newMapping)? = node else { return "'\(parent)' is not a mapping after the edit" }
        let changed = Set(changes.map(\.entry))
        let others = newMapping.entries.filter { !changed.contains($0.key.value) }
        let oldOthers = mapping.entries.filter { !changed.contains($0.key.value) }
        guard Self.sameEntries(others, oldOthers) else { return "other entries of '\(parent)' changed" }
        var written: [String: YAMLNode] = [:]
        for entry in newMapping.entries { written[entry.key.value] = entry.value }
        for change in changes {
            if let value = change.value {
                guard let node = written[change.entry], value.isMatched(by: node) else {
                    return "entry '\(change.entry)' of '\(parent)' does not read back as the new value"
                }
            } else if written[change.entry] != nil {
                return "entry '\(change.entry)' of '\(parent)' is still present after removing it"
            }
        }
        return nil
    }

    /// Whether any node holds an anchor or is an alias (edits then check each anchor's uses).
    static func hasAnchorsOrAliases(_ node: YAMLNode) -> Bool {
        if node.anchor != nil || node.alias != nil { return true }
        switch node {
        case .scalar: return false
        case .sequence(let sequence): return sequence.items.contains(where: hasAnchorsOrAliases)
        case .mapping(let mapping):
            return mapping.entries.contains { hasAnchorsOrAliases(.scalar($0.key)) || hasAnchorsOrAliases($0.value) }
        }
    }
}
