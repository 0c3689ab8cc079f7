import QuireSupport

// MARK: - Bare paragraphs
//
// A paragraph whose source lines hold no backtick and no `<` can hold no code span and no inline
// HTML; with ``MarkdownParseOptions/bareProseParagraphs`` it gets no inline nodes, and on the
// shim's fast path cmark does not even parse its inlines.

extension MarkdownConverter {
    /// Whether cmark may leave unparsed the inlines of the paragraph of the block tree on lines
    /// `firstLine...lastLine`: its lines hold no backtick, no `<` and no `[^`. The traversal does
    /// not descend into such paragraphs anyway (``mayHoldCodeOrHTML(_:)`` is false for them: this
    /// test implies it). A
    /// footnote reference `[^…]` keeps its paragraph parsed: cmark drops the definitions nothing
    /// refers to. A paragraph still `open` (the last one) is checked to the end of the input,
    /// where it may end; it is left alone when the input's last line has no line ending
    /// (`lastLineUnended`), for cmark reads that line only when finishing, and it may turn the
    /// paragraph into a setext heading. A paragraph at line 0 (the one cmark-gfm's table
    /// extension splits off before a table; see ``repairParagraphBeforeTable(_:following:)``)
    /// has no known lines yet, so its inlines are parsed.
    func leavesInlinesUnparsed(firstLine: Int, lastLine: Int, open: Bool, lastLineUnended: Bool) -> Bool {
        if firstLine <= 0 || open && lastLineUnended { return false }
        let end = open ? source.count : lines.next(after: max(firstLine, lastLine))
        return !mayNeedInlines(from: lines.start(of: firstLine), to: end)
    }

    /// Whether bytes `start..<end` of the source hold a backtick, a `<` or `[^`.
    private func mayNeedInlines(from start: Int, to end: Int) -> Bool {
        guard let base = source.baseAddress, end > start else { return false }
        if mayHoldCodeOrHTML(from: start, to: end) { return true }
        var i = start
        while i < end, let hit = RawBytes.first(0x5B, in: base + i, count: end - i) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if at + 1 < end, base[at + 1] == 0x5E { return true }
            i = at + 1
        }
        return false
    }

    /// Whether the source lines of a block hold a backtick or a `<`, without which there is no
    /// code span and no inline HTML.
    func mayHoldCodeOrHTML(_ range: SourceRange) -> Bool {
        mayHoldCodeOrHTML(from: lines.start(of: range.start.line), to: lines.next(after: max(range.start.line, range.end.line)))
    }

    /// Whether bytes `start..<end` of the source hold a backtick or a `<`.
    private func mayHoldCodeOrHTML(from start: Int, to end: Int) -> Bool {
        guard let base = source.baseAddress, end > start else { return false }
        return RawBytes.first(0x60, in: base + start, count: end - start) != nil || RawBytes.first(0x3C, in: base + start, count: end - start) != nil
    }

    /// Whether a node from `first` on (the inlines of the block just finished) is a code span or
    /// inline HTML.
    @inline(__always)  // called for every block finished; a call would be handed a copy of the converter
    func holdsCodeOrHTML(from first: Int) -> Bool {
        nodes.withUnsafeBufferPointer { nodes in
            for i in first..<nodes.count where nodes[i].kind == .code || nodes[i].kind == .htmlInline { return true }
            return false
        }
    }
}
