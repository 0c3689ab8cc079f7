/// The edit a review makes most: one scheduling line's flow mapping replaced by another.
///
/// When the old entry line and the new one are both exactly the shape ``FlowLineBlock`` reads —
/// `<indent>key: {k: v, k: v}` with plain scalars and nothing after the `}` — the line is
/// self-contained YAML: nothing on it can open a construct that reaches another line. The rest of
/// the file is byte-identical, so re-parsing it could only give back the same nodes, moved by the
/// change in length. The edit is then checked by reading the new line alone (the key must be the
/// same and the value must read back as the one written) and the tree is updated in place,
/// instead of re-parsing the whole front matter. Any other shape takes the general path.
extension FrontMatterEditor {
    /// Replaces the value of the `entryIndex`th entry of the block mapping under the root's
    /// `parentIndex`th key, if both lines have the one-line shape; false (nothing changed) otherwise.
    mutating func replaceFlowLine(parentIndex: Int, entryIndex: Int, in root: YAMLMapping,
                                  with text: String, value: YAMLValue) -> Bool {
        guard case .flowMapping = value,
              case .mapping(let parent) = root.entries[parentIndex].value, !parent.isFlow,
              case .mapping(let old) = parent.entries[entryIndex].value, old.isFlow,
              old.start.line == old.end.line, let yamlRange = frontMatter.yamlRange else { return false }
        let key = parent.entries[entryIndex].key
        let lineStart = lineStart(key.start.offset)
        let lineEnd = lineContentEnd(key.start.offset)
        guard lineStart >= yamlRange.lowerBound, lineEnd < yamlRange.upperBound,
              old.start.offset > key.end.offset, old.end.offset <= lineEnd else { return false }
        let line = LineCursor.Line(range: lineStart..<lineEnd, number: key.start.line)
        guard let (oldKey, oldValue, indent) = FlowLineBlock.entry(file[...], line, indent: nil),
              oldKey.start == key.start, oldKey.value == key.value,
              oldValue.start == old.start, oldValue.end.offset == old.end.offset else { return false }

        let newBytes = Array(text.utf8)
        var updated = file
        updated.replaceSubrange(old.start.offset..<old.end.offset, with: newBytes)
        let delta = newBytes.count - (old.end.offset - old.start.offset)
        let newLine = LineCursor.Line(range: lineStart..<(lineEnd + delta), number: key.start.line)
        guard let (newKey, newValue, newIndent) = FlowLineBlock.entry(updated[...], newLine, indent: indent),
              newIndent == indent, newKey.value == key.value, newKey.start == key.start,
              value.isMatched(by: newValue) else { return false }

        // Everything after the old value moves by `delta` bytes; only its own line changes columns.
        let shift = MarkShift(from: old.end.offset, by: delta, line: key.start.line)
        var newParent = parent
        newParent.entries[entryIndex].value = newValue
        shift.apply(to: &newParent, after: entryIndex)
        var newRoot = root
        newRoot.entries[parentIndex].value = .mapping(newParent)
        shift.apply(to: &newRoot, after: parentIndex)

        var newFrontMatter = frontMatter
        newFrontMatter.root = newRoot
        newFrontMatter.yamlRange = yamlRange.lowerBound..<(yamlRange.upperBound + delta)
        newFrontMatter.closingFenceRange = frontMatter.closingFenceRange.map { ($0.lowerBound + delta)..<($0.upperBound + delta) }
        newFrontMatter.bodyRange = (frontMatter.bodyRange.lowerBound + delta)..<(frontMatter.bodyRange.upperBound + delta)
        file = updated
        frontMatter = newFrontMatter
        return true
    }
}

/// Moves marks at or after an offset by a number of bytes (a one-line edit: lines stay).
struct MarkShift {
    var from: Int
    var by: Int
    var line: Int

    func apply(_ mark: YAMLMark) -> YAMLMark {
        guard mark.offset >= from else { return mark }
        return YAMLMark(offset: mark.offset + by, line: mark.line, column: mark.line == line ? mark.column + by : mark.column)
    }

    /// Moves the entries after `index` and the mapping's end (the entries up to `index` lie before
    /// the edit).
    func apply(to mapping: inout YAMLMapping, after index: Int) {
        for i in (index + 1)..<mapping.entries.count {
            mapping.entries[i].key = apply(mapping.entries[i].key)
            mapping.entries[i].value = apply(mapping.entries[i].value)
        }
        mapping.end = apply(mapping.end)
    }

    func apply(_ scalar: YAMLScalar) -> YAMLScalar {
        var s = scalar
        s.start = apply(s.start)
        s.end = apply(s.end)
        return s
    }

    func apply(_ node: YAMLNode) -> YAMLNode {
        switch node {
        case .scalar(let s):
            return .scalar(apply(s))
        case .sequence(var s):
            s.start = apply(s.start)
            s.end = apply(s.end)
            s.items = s.items.map(apply)
            return .sequence(s)
        case .mapping(var m):
            m.start = apply(m.start)
            m.end = apply(m.end)
            m.entries = m.entries.map { (key: apply($0.key), value: apply($0.value)) }
            return .mapping(m)
        }
    }
}
