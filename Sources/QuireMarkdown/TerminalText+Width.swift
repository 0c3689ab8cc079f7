extension TerminalText {
    /// The columns a line takes on a terminal: East Asian wide characters and emoji count two,
    /// combining marks none, and colour sequences (`ESC [ … m`) nothing.
    public static func width(_ line: String) -> Int {
        var width = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if scalar.value >= 0x40 && scalar.value <= 0x7E && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            width += DisplayWidth.of(scalar)
        }
        return width
    }

    /// `line` cut to at most `columns` terminal columns, colour sequences kept (a cut line ends
    /// with `…`), so that no line of a full-screen view wraps onto the next.
    public static func clip(_ line: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard width(line) > columns else { return line }
        var out = String.UnicodeScalarView()
        var used = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                out.append(scalar)
                if scalar.value >= 0x40 && scalar.value <= 0x7E && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                out.append(scalar)
                continue
            }
            let w = DisplayWidth.of(scalar)
            // Room for the ellipsis at the end.
            if used + w > columns - 1 { break }
            out.append(scalar)
            used += w
        }
        out.append("…")
        return String(out)
    }
}
