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
}
