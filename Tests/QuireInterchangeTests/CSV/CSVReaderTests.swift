@testable import QuireInterchange
import Testing
import QuireModel

/// Reading CSV and Anki text exports.
@Suite struct CSVReaderTests {
    static func read(_ text: String, headerRow: Bool = true) -> (CSVTable?, [String]) {
        let (table, diagnostics) = CSVReader.read(Array(text.utf8), path: "in.csv", headerRow: headerRow)
        return (table, diagnostics.map(\.description))
    }

    @Test func quotedFieldsWithSeparatorsQuotesAndLineBreaks() throws {
        let (table, problems) = Self.read("Question,Answer\n\"a, b\",\"say \"\"hi\"\"\"\n\"two\r\nlines\",x\r\n")
        #expect(problems.isEmpty)
        let t = try #require(table)
        #expect(t.columns == ["Question", "Answer"])
        #expect(t.rows.map(\.fields) == [["a, b", "say \"hi\""], ["two\nlines", "x"]])
        #expect(t.rows.map(\.line) == [2, 3])
    }

    /// A field past the limit (a 50 MB one took 2 GB to import) leaves its record out with an
    /// error at the field's start; the records around it are read, in bounded memory.
    @Test func aFieldPastTheLimitLeavesItsRecordOutWithAnError() throws {
        let short = String(repeating: "short line\n", count: CSVReader.maximumFieldBytes / 11 + 10)
        let text = "Question,Answer\nq1,a1\nq2,\"" + short + "\"\nq3,a3\n" + String(repeating: "x", count: CSVReader.maximumFieldBytes + 1) + ",a4"
        let (table, problems) = Self.read(text)
        let t = try #require(table)
        #expect(problems.isEmpty)
        #expect(t.rows.map(\.fields) == [["q1", "a1"], ["q3", "a3"]])
        // The field's line breaks are lines of the file: its closing quote is on the line after them.
        #expect(t.rows.map(\.line) == [2, 4 + short.split(separator: "\n").count])
        let lastLine = 5 + short.split(separator: "\n").count
        #expect(t.problems.map(\.description) == [
            "in.csv:3:4: error: a field longer than 1 MB, the most a field may hold (split it); the record is not imported",
            "in.csv:\(lastLine):1: error: a field longer than 1 MB, the most a field may hold (split it); the record is not imported"])
        // The importer counts them: --strict imports nothing.
        let plan = CSVImport.plan(t, path: "in.csv", options: .init(name: "in", source: "in.csv", deck: nil, created: Timestamp(milliseconds: 0)),
                                  existing: { _, _ in nil }, taken: { _ in false })
        #expect(plan.diagnostics.filter { $0.severity == .error }.count == 2)
        #expect(plan.cardCount == 2)
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let (table, _) = Self.read("\u{FEFF}Front,Back,Tags\r\nq,a,t1 t2\r\n")
        #expect(table?.columns == ["Front", "Back", "Tags"])
        #expect(table?.rows.first?.fields == ["q", "a", "t1 t2"])
    }

    @Test(arguments: [("a\tb\nc\td\n", "\t"), ("a;b\nc;d\n", ";"), ("a,b\nc,d\n", ","), ("a;b,c\nd;e,f\n", ";"),
                      ("Front,Back\n\"x; y\",z\n", ",")])
    func separatorIsGuessed(text: String, separator: Character) {
        #expect(Self.read(text).0?.separator == separator)
    }

    @Test func ankiHeaders() throws {
        let text = """
            #separator:tab
            #html:true
            #tags:imported spanish
            #deck:Languages::Spanish
            #notetype column:3
            #tags column:4
            casa\thouse\tBasic\tnoun
            perro\t<b>dog</b>\tBasic (and reversed card)\t

            """
        let (table, problems) = Self.read(text, headerRow: false)
        #expect(problems.isEmpty)
        let t = try #require(table)
        #expect(t.separator == "\t" && t.html == true && t.tags == ["imported", "spanish"] && t.deck == "Languages::Spanish")
        #expect(t.notetypeColumn == 2 && t.tagsColumn == 3 && t.columns == nil)
        #expect(t.rows.map(\.line) == [7, 8])
        #expect(t.rows[1].fields == ["perro", "<b>dog</b>", "Basic (and reversed card)", ""])
    }

    @Test func columnsHeader() {
        let (table, _) = Self.read("#separator:Semicolon\n#columns:Term;Definition\nx;y\n")
        #expect(table?.columns == ["Term", "Definition"])
        #expect(table?.rows.map(\.fields) == [["x", "y"]])
        #expect(table?.columnsLine == 0)
    }

    @Test func blankLinesAreNoRecords() {
        let (table, _) = Self.read("Question,Answer\n\nq,a\n\n\n")
        #expect(table?.rows.map(\.fields) == [["q", "a"]])
    }

    @Test func anEmptyQuotedFieldIsARecord() {
        let (table, _) = Self.read("Question\n\"\"\n")
        #expect(table?.rows.map(\.fields) == [[""]])
    }

    @Test func unclosedQuoteIsLocated() {
        let (table, problems) = Self.read("Question,Answer\nq,\"never\nends\n")
        #expect(table == nil)
        #expect(problems == ["in.csv:2:3: error: a quoted field is never closed (a \" is missing)"])
    }

    @Test func invalidUTF8IsLocated() {
        let (table, problems) = CSVReader.read(Array("Question,Answer\nq,ab".utf8) + [0xFF] + Array("\n".utf8), path: "in.csv")
        #expect(table == nil)
        #expect(problems.map(\.description) == ["in.csv:2:5: error: not UTF-8 text"])
    }

    @Test func unknownSeparator() {
        let (table, problems) = Self.read("#separator:Dots\na.b\n")
        #expect(table == nil)
        #expect(problems == ["in.csv:1:12: error: unknown separator 'Dots' (Comma, Semicolon, Tab, Space, Pipe, Colon or one character)"])
    }

    /// Linear time on hostile input: a megabyte of quotes and separators.
    @Test func hostileInputReadsInLinearTime() {
        let text = String(repeating: "\"\",,;;\t", count: 150_000) + "\n"
        let (table, _) = Self.read(text)
        #expect(table?.columns?.count ?? 0 > 1)
    }
}
