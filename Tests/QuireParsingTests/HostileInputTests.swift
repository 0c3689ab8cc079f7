@testable import QuireParsing
import Testing
import QuireModel
import QuireMarkdown
@testable import QuireReview
@testable import QuireTestSupport

/// Notes crafted to cost more than their size: each is refused with a location, or handled at a
/// cost linear in its length, and the rest of the note or vault goes on.
@Suite struct HostileInputTests {
    /// A "billion laughs" front matter (nine levels of ten aliases) is edited without expanding it.
    @Test func anAliasBombIsEditedWithoutExpandingIt() throws {
        var lines = ["---", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for i in 1...9 { lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]") }
        lines += ["---", "q :: a", ""]
        let text = lines.joined(separator: "\n")
        let edited = try #require(try FrontMatterChange.addTag(Tag("exam")!).apply(to: Array(text.utf8)))
        #expect(String(decoding: edited, as: UTF8.self).contains("tags: [exam]"))
        #expect(parse(text).note?.cards.count == 1)
    }

    /// Thousands of cloze numbers in one long paragraph would repeat it in every card: no cards,
    /// one located error, and the note's other cards stay.
    @Test func clozeNumbersPastTheBudgetMakeNoCards() {
        let many = (1...3000).map { "{{c\($0)::word \($0) with some more text around it}}" }.joined(separator: " ")
        let (note, diagnostics) = parse("ok :: card\n\n" + many + "\n")
        #expect(note?.cards.map(\.kind) == [.definition])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.line == 3 && diagnostics.first?.column == 1)
        #expect(diagnostics.first?.message.hasPrefix("3000 cloze numbers in a paragraph of") == true)
        // An ordinary long cloze paragraph is well inside it.
        let fifty = (1...50).map { "{{c\($0)::w\($0)}}" }.joined(separator: " ")
        #expect(parse(fifty + "\n").note?.cards.count == 50)
        #expect(CardExtractor.clozeBudget(paragraphBytes: 1 << 20) == 64 << 20)
    }

    /// A form feed ends a table's delimiter row as a space would (cmark-gfm's table spaces are
    /// space, tab, vertical tab and form feed): the paragraph split off before the table kept
    /// cmark's position 0:0, so its text was read from line 1 and, in the plugin's syntax, a line
    /// range ran backwards — a crash (long fuzz, `obsidian`).
    @Test func aTableWhoseDelimiterRowEndsInAFormFeed() throws {
        let text = "n\n?\n\n=\na\n-\u{0C}\n"
        // The indexing parse makes no table of rows without a `|`: the paragraph is the answer.
        let quire = parse(text)
        #expect(quire.note?.cards.map(\.front) == ["n"])
        #expect(quire.note?.cards.first?.back.hasPrefix("=") == true)
        #expect(quire.note?.cards.first?.lines == 1...6)
        let obsidian = NoteParser.parse(Array(("#flashcards\n" + text).utf8), path: "n.md", syntax: .obsidianSR(ObsidianSRSettings()))
        #expect(obsidian.note?.cards.count == 1)
        #expect(obsidian.note?.cards.allSatisfy { $0.lines.lowerBound >= 1 && !$0.front.isEmpty } == true)
    }

    @Test func deepNestingIsRefusedBeforeCmark() {
        let deep = parse("a :: b\n\n" + String(repeating: ">", count: 200_000) + " x\n")
        #expect(deep.note == nil)
        #expect(printed(deep.diagnostics) == ["notes.md:3:1: error: a line nests more than 100 block quotes and list items; file skipped"])
        let lists = parse(String(repeating: "- ", count: 101) + "x\n")
        #expect(lists.note == nil)
        // At the limit, and markers that are not containers, are fine.
        #expect(parse(String(repeating: "> ", count: 100) + "q :: a\n").note != nil)
        #expect(parse("-word :: x\n1.5 :: y\n").note?.cards.count == 2)
    }

    @Test func tablesWiderThanTheLimitAreRefusedBeforeCmark() {
        let row = Array(repeating: "c", count: 1002).joined(separator: "|")
        let wide = parse("a :: b\n\n" + row + "\n" + row.replacingOccurrences(of: "c", with: "-") + "\n")
        #expect(wide.note == nil)
        #expect(printed(wide.diagnostics) == ["notes.md:3:1: error: a line holds more than 1000 '|' (table cells); file skipped"])
        // Many pipes spread over many lines are fine.
        let tall = (0..<600).map { _ in "| a | b |" }.joined(separator: "\n")
        #expect(parse("| h | i |\n|---|---|\n" + tall + "\n").note != nil)
    }

    /// A lone carriage return ends a line for cmark-gfm: the line table counts it too (a note
    /// found by the fuzzer crashed the indexer reading past the table's last line).
    @Test func aLoneCarriageReturnEndsALine() {
        let (note, diagnostics) = parse("# Title\r\rFirst :: one\r- Second :: two\n")
        #expect(diagnostics.isEmpty)
        #expect(note?.cards.map(\.front) == ["First", "Second"])
        #expect(note?.cards.map(\.lines.lowerBound) == [3, 4])
        let source = SourceText(Array("a\rb\r\nc\nd\r".utf8))
        #expect(source.lineCount == 5)
        #expect((1...5).map(source.line) == ["a", "b", "c", "d", ""])
    }
}
