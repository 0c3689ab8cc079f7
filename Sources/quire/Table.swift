import QuireMarkdown

/// Plain-text tables: tab-separated for pipes, aligned columns for people.
enum Table {
    /// Prints rows. With `tabs`, columns are separated by one tab; otherwise padded to align, and the
    /// last column is cut to `width` when given.
    static func print(_ rows: [[String]], header: [String]? = nil, tabs: Bool, width: Int? = nil,
                      rightAligned: Set<Int> = [], indent: Int = 0) {
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
        for row in all {
            var line = margin
            for (i, cell) in row.enumerated() {
                if i == row.count - 1 {
                    var last = cell
                    if let width {
                        let room = max(10, width - displayWidth(line))
                        last = clipped(last, to: room)
                    }
                    line += rightAligned.contains(i) ? pad(last, widths[i], right: true) : last
                } else {
                    line += pad(cell, widths[i], right: rightAligned.contains(i)) + "  "
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
    static func clipped(_ cell: String, to columns: Int) -> String { TerminalText.clip(cell, to: columns) }

    /// Columns a string takes on a terminal (East Asian wide characters and emoji count two).
    static func displayWidth(_ s: String) -> Int { TerminalText.width(s) }

    /// The text on one line: line breaks and tabs become spaces, runs of spaces collapse.
    static func oneLine(_ s: String) -> String {
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
