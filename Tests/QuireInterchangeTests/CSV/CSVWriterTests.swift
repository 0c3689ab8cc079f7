@testable import QuireInterchange
import Testing

/// What the writer writes, the reader reads back field for field.
@Suite struct CSVWriterTests {
    /// OWASP's CSV-injection advice: a cell a spreadsheet would run as a formula gets a leading
    /// `'`; reading it back gives every text as it was, `'` and formula characters included.
    @Test func formulasAreNeutralisedAndComeBack() {
        let cases: [(String, String)] = [
            ("=HYPERLINK(\"http://x.org\",\"x\")", "'=HYPERLINK(\"http://x.org\",\"x\")"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"), ("\rx", "'\rx"), ("- a list item", "'- a list item"),
            ("'=x", "''=x"), ("'x", "'x"), ("''", "''"), ("plain", "plain"), ("", ""), ("a=b", "a=b"),
        ]
        for (text, written) in cases {
            #expect(CSVWriter.spreadsheetSafe(text) == written, "\(text)")
            #expect(CSVWriter.readingSpreadsheetSafe(written) == text, "\(written)")
        }
    }

    @Test func trickyFieldsRoundTrip() throws {
        let rows = [["plain", "with, comma", "with \"quotes\"", "two\nlines", " padded ", "#hash", "tab\there", "semi;colon", ""],
                    ["ünïcödé", "∑ ≤ ∞", "a\r\nb", "'", "=1+1", "x", "y", "z", "last"]]
        let text = CSVWriter.record(["A", "B", "C", "D", "E", "F", "G", "H", "I"]) + rows.map(CSVWriter.record).joined()
        let (table, problems) = CSVReader.read(Array(text.utf8), path: "t.csv")
        #expect(problems.isEmpty)
        // A CRLF inside a field is read back as LF (the reader's one normalization).
        #expect(table?.rows.map(\.fields) == rows.map { $0.map { $0.replacing("\r\n", with: "\n") } })
        #expect(table?.separator == ",")
    }

    @Test func quotingOnlyWhereNeeded() {
        #expect(CSVWriter.record(["a", "b c", "d,e", "f\"g"]) == "a,b c,\"d,e\",\"f\"\"g\"\r\n")
    }
}
