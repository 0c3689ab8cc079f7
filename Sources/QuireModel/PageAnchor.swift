/// The anchor an imported document's note marks each page with: `<!-- page N -->` alone on a line
/// (FORMAT.md §8). An HTML comment, so it shows nowhere when the note is rendered.
public enum PageAnchor {
    /// The anchor line for page `n`.
    public static func line(_ n: Int) -> String { "<!-- page \(n) -->" }

    /// The page an anchor line names, or nil when the line is not one.
    public static func page(of line: Substring) -> Int? {
        var t = line
        while t.last == " " || t.last == "\t" { t = t.dropLast() }
        guard t.hasPrefix("<!-- page "), t.hasSuffix(" -->") else { return nil }
        let digits = t.dropFirst(10).dropLast(4)
        guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}

