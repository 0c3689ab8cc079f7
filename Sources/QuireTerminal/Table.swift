import QuireMarkdown

/// Plain-text tables: tab-separated for pipes, aligned columns for people.
package enum Table {
    /// Prints rows. With `tabs`, columns are separated by one tab; otherwise padded to align, and the
    /// last column is cut to `width` when given.
    /// - Parameter paint: styles a cell once it is laid out (colour only: its width must not
    ///   change), by row (of `rows`) and column.
    package static func print(_ rows: [[String]], header: [String]? = nil, tabs: Bool, width: Int? = nil,
                      rightAligned: Set<Int> = [], indent: Int = 0, paint: ((Int, Int, String) -> String)? = nil) {
        // Cells come from the vault: a tab or line break in one would break the columns, an escape
        // would act on the terminal.
        let rows = rows.map { $0.map { TerminalText.visible($0, keepLineBreaks: false) } }
        let margin = String(repeating: " ", count: indent)
        if tabs {
            for row in rows { Output.line(margin + row.joined(separator: "\t")) }
            return
        }
        let all = (header.map { [$0] } ?? []) + rows
        guard let columns = all.map(\.count).max() else { return }
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], displayWidth(cell)) }
        }
        for (r, row) in all.enumerated() {
            let dataRow = r - (header == nil ? 0 : 1)
            func painted(_ text: String, _ column: Int) -> String {
                guard let paint, dataRow >= 0 else { return text }
                return paint(dataRow, column, text)
            }
            var line = margin
            for (i, cell) in row.enumerated() {
                if i == row.count - 1 {
                    var last = cell
                    if let width {
                        let room = max(10, width - displayWidth(line))
                        last = clipped(last, to: room)
                    }
                    line += painted(rightAligned.contains(i) ? pad(last, widths[i], right: true) : last, i)
                } else {
                    line += painted(pad(cell, widths[i], right: rightAligned.contains(i)), i) + "  "
                }
            }
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed.removeLast() }
            Output.line(String(trimmed))
        }
    }

    private static func pad(_ s: String, _ width: Int, right: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - displayWidth(s)))
        return right ? fill + s : s + fill
    }

    /// A cell cut to `columns` terminal columns, by columns, not characters: a Chinese character
    /// takes two.
    package static func clipped(_ cell: String, to columns: Int) -> String { TerminalText.clip(cell, to: columns) }

    /// Columns a string takes on a terminal (East Asian wide characters and emoji count two).
    package static func displayWidth(_ s: String) -> Int { TerminalText.width(s) }

    /// The text on one line: line breaks and tabs become spaces, runs of spaces collapse.
    package static func oneLine(_ s: String) -> String {
        var out = ""
        var space = false
        for ch in s {
            if ch.isWhitespace { space = !out.isEmpty; continue }
            if space { out.append(" "); space = false }
            out.append(ch)
        }
        return out
    }
}
