import Testing
@testable import QuireMarkdown

/// A paragraph directly followed by a table comes out of cmark-gfm's block parse at 0:0 (the
/// table extension splits it off). The indexing parse must still give its code spans, on the
/// shim's fast path as on the public-API path: it cannot tell from 0:0 that the paragraph has
/// no backtick, so cmark parses its inlines.
@Suite struct ParagraphBeforeTableTests {
    @Test func codeSpanBeforeATableSurvivesTheIndexingParse() {
        let source = "text `code`\n| h | i |\n|---|---|\n"
        for options: MarkdownParseOptions in [.indexing, .default, []] {
            let document = MarkdownDocument(parsing: source, options: options)
            #expect(document.first(.code).map { slice(source, $0.range) } == "`code`", "\(options)")
        }
    }

    @Test func htmlAndCodeOnSeveralLinesBeforeATable() {
        let source = "> [a]: /u\n> one <b>x</b>\n> two `y`\n> | h |\n> |---|\n"
        let document = MarkdownDocument(parsing: source, options: .indexing)
        #expect(document.indices(of: .code).map { slice(source, document.nodes[$0].range) } == ["`y`"])
        #expect(document.indices(of: .htmlInline).map { slice(source, document.nodes[$0].range) } == ["<b>", "</b>"])
    }

    /// cmark-gfm's table spaces include the vertical tab and form feed: a delimiter row ending in
    /// one still places the paragraph before the table. (The indexing parse makes no table of
    /// rows without a `|`.)
    @Test func delimiterRowWithAFormFeedOrVerticalTab() {
        for space in ["\u{0C}", "\u{0B}"] {
            let source = "=\na\n-" + space + "\n"
            let document = MarkdownDocument(parsing: source, options: .default)
            #expect(document.first(.table)?.range.start.line == 2)
            #expect(document.first(.paragraph).map { slice(source, $0.range) } == "=")
        }
    }
}
