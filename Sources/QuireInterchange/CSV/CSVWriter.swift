/// Writes CSV (RFC 4180): fields separated by commas, records by CRLF, a field quoted when it holds
/// a comma, a quote, a line break or spaces at either end, quotes inside doubled. What
/// ``CSVReader`` reads back field for field.
public enum CSVWriter {
    /// One record, with its CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when it must be.
    public static func field(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x3B }
            || text.first == " " || text.last == " " || text.isEmpty == false && text.first == "#"
        guard needsQuotes else { return text }
        var out = "\""
        for c in text.unicodeScalars {
            if c == "\"" { out += "\"\"" } else { out.unicodeScalars.append(c) }
        }
        return out + "\""
    }

    /// The characters a spreadsheet takes as the start of a formula when a cell begins with one.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a spreadsheet shows it as text (OWASP's advice on CSV injection): a leading `'`
    /// when it begins with a formula character, or with `'` and one (so that ``readingSpreadsheetSafe(_:)``
    /// gives every text back).
    public static func spreadsheetSafe(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first else { return text }
        if formulaStarts.contains(first) { return "'" + text }
        if first == "'", let second = scalars.dropFirst().first, formulaStarts.contains(second) { return "'" + text }
        return text
    }

    /// A cell written by ``spreadsheetSafe(_:)`` read back.
    public static func readingSpreadsheetSafe(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.first == "'", let second = scalars.dropFirst().first else { return text }
        if formulaStarts.contains(second) { return String(text.unicodeScalars.dropFirst()) }
        if second == "'", let third = scalars.dropFirst(2).first, formulaStarts.contains(third) {
            return String(text.unicodeScalars.dropFirst())
        }
        return text
    }
}
