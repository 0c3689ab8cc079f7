// MARK: - Block positions
//
// Block ranges are cmark-gfm's, except where it gets them wrong: a paragraph directly followed by
// a table (and that table and its header row), blocks ended at column 0 of the next line, and
// HTML blocks that close on a later line.

extension MarkdownConverter {
    /// The block after a mislocated paragraph, as cmark reports it.
    struct FollowingBlock {
        var start: SourceLocation
        var end: SourceLocation
        /// How many children it has (a table: its rows).
        var children: Int
    }

    /// A paragraph directly followed by a GFM table (no blank line between) comes out of
    /// cmark-gfm 0.29 at position 0:0, its table starts on the paragraph's first line and the
    /// header row's cells are placed by their offset in the paragraph's text. The table's rows are
    /// one line each, so its header is on the line `end - rows`; the paragraph is the lines from
    /// the table's reported start up to the header. Checked against the source (the line after the
    /// header must be a delimiter row); when the check fails the position stays unknown.
    mutating func repairParagraphBeforeTable(_ value: inout MarkdownNode, following table: FollowingBlock?) {
        guard let table, table.start.line > 0 else { return }
        let rows = table.children
        var end = table.end.line
        if table.end.column <= 0 { end -= 1 }
        let header = end - rows
        let start = table.start.line
        guard rows > 0, header > start, header + 1 <= lines.lineCount, isDelimiterRow(header + 1) else { return }
        let last = header - 1
        value.range = SourceRange(start, table.start.column,
                                  last, max(1, lines.contentEnd(of: last, in: source) - lines.start(of: last)))
        tableHeaderLine = header
        repairedParagraph = nodes.count
    }

    /// The rest of that repair, for the node about to be appended (`value`, which cmark placed at
    /// `range`): the table after a repaired paragraph starts on its header line, its header row is
    /// that line, and the header row's descendants move onto it.
    @inline(__always)  // runs for every node; almost always finds nothing to do
    mutating func repairTableRanges(_ value: inout MarkdownNode, cmarkRange range: SourceRange, parent: Int) {
        if let repair = headerRowRepair {
            value.range = SourceRange(repair.line, range.start.column - repair.shift,
                                      repair.line, range.end.column - repair.shift)
        }
        if value.kind == .table, let header = tableHeaderLine {
            value.range.start = SourceLocation(line: header, column: range.start.column)
            tableHeaderLine = nil
            repairedTable = nodes.count
        } else if value.kind == .tableRow, let table = repairedTable, table == parent {
            // The header row of a repaired table: cmark placed its cells by their offset in the
            // paragraph's text, not in their own line.
            repairedTable = nil
            let header = nodes[table].range.start.line
            let trueEnd = lines.contentEnd(of: header, in: source) - lines.start(of: header)
            value.range = SourceRange(header, range.start.column, header, trueEnd)
            headerRowRepair = (nodes.count, header, range.end.column - trueEnd)
        }
    }

    /// Whether a line is a GFM table delimiter row (`|---|:--:|`), after any block quote markers;
    /// its spaces are cmark-gfm's table spaces (space, tab, vertical tab, form feed).
    private func isDelimiterRow(_ line: Int) -> Bool {
        var dashes = 0
        for offset in lines.start(of: line)..<lines.contentEnd(of: line, in: source) {
            switch source[offset] {
            case UInt8(ascii: "-"): dashes += 1
            case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C, UInt8(ascii: ">"): continue
            default: return false
            }
        }
        return dashes > 0
    }

    /// cmark ends some blocks at column 0 of the line after them; move such ends back to the last
    /// byte of the previous line.
    mutating func normalizeBlockEnd(_ index: Int) {
        var range = nodes[index].range
        while range.end.column <= 0, range.end.line > range.start.line {
            let line = range.end.line - 1
            range.end = SourceLocation(
                line: line,
                column: lines.contentEnd(of: line, in: source) - lines.start(of: line)
            )
        }
        nodes[index].range = range
    }

    /// cmark-gfm ends an HTML block that closes on a later line (a multi-line `<!-- -->`) on its
    /// first line; its literal tells how many lines it really has.
    mutating func extendHTMLBlockEnd(_ index: Int) {
        let counted: Int? = nodes[index].withLiteralBytes { bytes in
            guard let bytes else { return nil }
            var newlines = 0
            for byte in bytes where byte == 10 { newlines += 1 }
            if bytes.last != 10 { newlines += 1 }
            return newlines
        }
        guard let newlines = counted else { return }
        let range = nodes[index].range
        let lastLine = min(range.start.line + max(newlines - 1, 0), lines.lineCount)
        guard lastLine > range.end.line else { return }
        nodes[index].range.end = SourceLocation(
            line: lastLine,
            column: lines.contentEnd(of: lastLine, in: source) - lines.start(of: lastLine)
        )
    }
}
