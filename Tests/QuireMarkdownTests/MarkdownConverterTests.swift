import Testing
@testable import QuireMarkdown

/// The facts about inline source positions the card indexer relies on (see `MarkdownNode`).
/// cmark-gfm 0.29.0.gfm.6 gets many of these wrong by itself; each test names the case.
@Suite struct MarkdownConverterTests {
    /// Every code span's range is exactly its backtick-fenced source; every one-line HTML inline's
    /// range is exactly its literal.
    private func expectExactCode(_ source: String, _ expected: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let document = MarkdownDocument(parsing: source)
        let codes = document.indices(of: .code).map { slice(source, document.nodes[$0].range) }
        #expect(codes == expected, sourceLocation: sourceLocation)
    }

    @Test func codeSpanRangeIncludesBackticks() {
        expectExactCode("a `b` and `` `c` `` and ``d``", ["`b`", "`` `c` ``", "``d``"])
    }

    @Test func continuationLinesOfAParagraph() {
        expectExactCode("one `a`\ntwo `b`\n  three `c`", ["`a`", "`b`", "`c`"])
    }

    @Test func insideListItemsWithAnyIndent() {
        expectExactCode("- x `a`\n  y `b`\n      z `c`\n\n1.  p `d`\n    q `e`\n\n* t\n\tu `f`", ["`a`", "`b`", "`c`", "`d`", "`e`", "`f`"])
    }

    @Test func insideBlockQuotesWithOrWithoutSpaceAndLazyLines() {
        expectExactCode(">q `a`\n>    r `b`\nlazy `c`\n\n> > d `d`\n> lazy `e`\n\n> - i `f`\n>   j `g`", ["`a`", "`b`", "`c`", "`d`", "`e`", "`f`", "`g`"])
    }

    @Test func codeSpanAcrossTwoLinesAndTextAfterIt() {
        let source = "x `co\nde` tail `z`\n> q `a\n> b` `c`"
        let document = MarkdownDocument(parsing: source)
        let codes = document.indices(of: .code).map { document.nodes[$0].range }
        #expect(codes == [SourceRange(1, 3, 2, 3), SourceRange(2, 10, 2, 12), SourceRange(3, 5, 4, 4), SourceRange(4, 6, 4, 8)])
        #expect(document.nodes[document.indices(of: .text)[1]].range == SourceRange(2, 4, 2, 9))
        #expect(document.first(.code)?.literal == "co de")
    }

    @Test func htmlInlineAcrossLinesAndComments() {
        let source = "a <span\nclass=\"x\"> `k` <!-- c\nd --> `m`"
        let document = MarkdownDocument(parsing: source)
        let html = document.indices(of: .htmlInline).map { slice(source, document.nodes[$0].range) }
        #expect(html == ["<span\nclass=\"x\">", "<!-- c\nd -->"])
        #expect(document.indices(of: .code).map { slice(source, document.nodes[$0].range) } == ["`k`", "`m`"])
    }

    @Test func textEmphasisAndLinksOnContinuationLines() {
        let source = "> first *em\n> ph* [multi\n> line](u) **b** `c`"
        let document = MarkdownDocument(parsing: source)
        #expect(document.first(.emphasis).map { slice(source, $0.range) } == "*em\n> ph*")
        #expect(document.first(.link).map { slice(source, $0.range) } == "[multi\n> line](u)")
        #expect(document.first(.strong).map { slice(source, $0.range) } == "**b**")
        let texts = document.indices(of: .text).map { slice(source, document.nodes[$0].range) }
        #expect(texts == ["first ", "em", "ph", " ", "multi", "line", " ", "b", " "])
    }

    @Test func referenceDefinitionsBeforeAParagraph() {
        let source = "[ref]: http://x\n  \"title\"\nafter `e` [ref]\nnext `f`"
        let document = MarkdownDocument(parsing: source)
        #expect(document.indices(of: .code).map { slice(source, document.nodes[$0].range) } == ["`e`", "`f`"])
        #expect(document.first(.link).map { slice(source, $0.range) } == "[ref]")
    }

    @Test func hardBreaksAndSoftBreaksSitAtTheLineEnd() {
        let source = "a  \nb\\\nc\nd"
        let document = MarkdownDocument(parsing: source)
        let breaks = document.nodes.filter { $0.kind == .lineBreak || $0.kind == .softBreak }.map(\.range)
        #expect(breaks == [SourceRange(1, 4, 1, 4), SourceRange(2, 3, 2, 3), SourceRange(3, 2, 3, 2)])
        #expect(document.indices(of: .text).map { document.nodes[$0].range.start } == [
            SourceLocation(line: 1, column: 1), SourceLocation(line: 2, column: 1),
            SourceLocation(line: 3, column: 1), SourceLocation(line: 4, column: 1),
        ])
    }

    @Test func autolinksCoverTheirSource() {
        let source = "(see http://a.com/) and x@y.co. www.b.org <http://c.d> <e@f.g> `z`"
        let document = MarkdownDocument(parsing: source)
        let links = document.indices(of: .link).map { slice(source, document.nodes[$0].range) }
        #expect(links == ["http://a.com/", "x@y.co", "www.b.org", "<http://c.d>", "<e@f.g>"])
        let texts = document.indices(of: .text).map { slice(source, document.nodes[$0].range) }
        #expect(texts == ["(see ", "http://a.com/", ") and ", "x@y.co", ". ", "www.b.org", " ", "http://c.d", " ", "e@f.g", " "])
        #expect(document.first(.code).map { slice(source, $0.range) } == "`z`")
    }

    @Test func atxHeadingsAndSetextHeadings() {
        let source = "##   ATX `n` ##\n\nSetext `l`\nsecond `m`\n===\n"
        let document = MarkdownDocument(parsing: source)
        #expect(document.indices(of: .code).map { slice(source, document.nodes[$0].range) } == ["`n`", "`l`", "`m`"])
        #expect(document.indices(of: .heading).map { document.nodes[$0].range } == [SourceRange(1, 1, 1, 12), SourceRange(3, 1, 5, 3)])
    }

    @Test func tableCellInlines() {
        let source = "| `a` | b <i>x</i> |\n|---|---|\n| **c** | `d` |\n"
        let document = MarkdownDocument(parsing: source)
        #expect(document.indices(of: .code).map { slice(source, document.nodes[$0].range) } == ["`a`", "`d`"])
        #expect(document.indices(of: .htmlInline).map { slice(source, document.nodes[$0].range) } == ["<i>", "</i>"])
        #expect(document.first(.strong).map { slice(source, $0.range) } == "**c**")
    }

    @Test func realisticNoteInlineSlicesMatchLiterals() {
        let document = MarkdownDocument(parsing: realisticNote)
        for node in document.nodes {
            let text = slice(realisticNote, node.range)
            switch node.kind {
            case .code:
                #expect(text.hasPrefix("`") && text.hasSuffix("`") && text.contains(node.literal ?? "?"))
            case .htmlInline:
                #expect(text == node.literal)
            case .text:
                #expect(text == node.literal)
            default:
                break
            }
        }
    }

    @Test func blockEndsAtColumnZeroMoveToThePreviousLine() {
        let document = MarkdownDocument(parsing: "- a\n\n      code\n\ntext\n")
        #expect(document.first(.list)?.range == SourceRange(1, 1, 3, 10))
        #expect(document.first(.codeBlock)?.range == SourceRange(3, 7, 3, 10))
    }

    @Test func concurrentFirstUseIsSafe() async {
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { MarkdownDocument(parsing: realisticNote).nodes.count }
            }
            var counts: [Int] = []
            for await count in group { counts.append(count) }
            return counts
        }
        #expect(Set(counts).count == 1)
    }
}
