import Testing
@testable import QuireMarkdown

/// Paragraphs that open with link reference definitions: cmark-gfm takes the definitions out of
/// the paragraph's content but keeps the paragraph's start, so the converter finds how many lines
/// they took. The converter used to guess it by comparing text literals with the source, which
/// escapes and entities defeat: those cases came out a line too early.
@Suite struct ReferenceDefinitionTests {
    private func codeSlices(_ source: String) -> [String] {
        let document = MarkdownDocument(parsing: source)
        return document.indices(of: .code).map { slice(source, document.nodes[$0].range) }
    }

    @Test func escapedBacktickAfterADefinition() {
        let source = "[a]: /u\nesc \\` tick `z`"
        let document = MarkdownDocument(parsing: source)
        #expect(document.first(.code)?.range == SourceRange(2, 13, 2, 15))
        #expect(document.first(.text)?.range == SourceRange(2, 1, 2, 12))
    }

    @Test func entityAfterADefinitionWithItsTitleOnTheNextLine() {
        #expect(codeSlices("[a]: /u\n\"title\"\nafter &amp; `e`\n`f`") == ["`e`", "`f`"])
        #expect(MarkdownDocument(parsing: "[a]: /u\n\"title\"\nafter &amp; `e`\n`f`").first(.code)?.range == SourceRange(3, 13, 3, 15))
    }

    @Test func definitionsInABlockQuote() {
        let source = "> [a]: /u\n> [b]: /v\n> `x` \\*y\\*"
        let document = MarkdownDocument(parsing: source)
        #expect(document.first(.code)?.range == SourceRange(3, 3, 3, 5))
        #expect(document.indices(of: .text).map { slice(source, document.nodes[$0].range) } == [" \\*y\\*"])
    }

    @Test func aParagraphOfDefinitionsOnlyIsNoParagraph() {
        let document = MarkdownDocument(parsing: "[a]: /u\n[b]:\n  /v\n\ntext `c`")
        #expect(document.indices(of: .paragraph).count == 1)
        #expect(document.first(.code)?.range == SourceRange(5, 6, 5, 8))
    }

    @Test func everyIndexingOptionGivesTheSameCodeRanges() {
        let source = "- [a]: /u\n  [b]: /v \"t\"\n  \\[x\\] `y` &lt;\n  `z`"
        let expected = ["`y`", "`z`"]
        for options: MarkdownParseOptions in [.default, .indexing, []] {
            let document = MarkdownDocument(parsing: source, options: options)
            #expect(document.indices(of: .code).map { slice(source, document.nodes[$0].range) } == expected)
        }
    }
}
