import Testing
@testable import QuireMarkdown

/// `MarkdownHTMLRenderer` with the real cmark-gfm: whole HTML outputs compared exactly.
@Suite struct MarkdownHTMLRendererTests {
    private let plain = MarkdownHTMLRenderer()
    /// Resolves every wikilink to `/notes/NOTE` (with `#HEADING`), `Missing` to nothing.
    private static let links: @Sendable (MarkdownWikilink) -> String? = { link in
        guard link.note != "Missing" else { return nil }
        return "/notes/" + link.note + (link.heading.map { "#" + $0 } ?? "")
    }

    private func html(_ source: String, _ renderer: MarkdownHTMLRenderer = MarkdownHTMLRenderer()) throws -> String {
        try renderer.render(source)
    }

    // MARK: - Markdown

    @Test func headings() throws {
        #expect(try html("# Title *x*\n\n## Sub\n\nSetext\n===\n") ==
            "<h1>Title <em>x</em></h1>\n<h2>Sub</h2>\n<h1>Setext</h1>\n")
    }

    @Test func aSidesLineBreaksAreBreaks() throws {
        #expect(try html("a\nb\n\nc") == "<p>a\nb</p>\n<p>c</p>\n")
        #expect(try html("a\nb\n\nc", MarkdownHTMLRenderer(lineBreaks: true)) == "<p>a<br />\nb</p>\n<p>c</p>\n")
    }

    @Test func listsAndTaskLists() throws {
        #expect(try html("- a\n- b\n  1. c\n") ==
            "<ul>\n<li>a</li>\n<li>b\n<ol>\n<li>c</li>\n</ol>\n</li>\n</ul>\n")
        #expect(try html("- [ ] t\n- [x] u\n") ==
            "<ul>\n<li><input type=\"checkbox\" disabled=\"\" /> t</li>\n"
            + "<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> u</li>\n</ul>\n")
    }

    @Test func tables() throws {
        let source = "| A | B |\n|:--|--:|\n| 1 | ~~2~~ |\n"
        #expect(try html(source) ==
            "<table>\n<thead>\n<tr>\n<th align=\"left\">A</th>\n<th align=\"right\">B</th>\n</tr>\n</thead>\n"
            + "<tbody>\n<tr>\n<td align=\"left\">1</td>\n<td align=\"right\"><del>2</del></td>\n</tr>\n</tbody>\n</table>\n")
    }

    @Test func marksInTableCells() throws {
        // A cell holds only the inline kinds the table extension knows; the marks still go in.
        let source = "| {{c1::a}} | b |\n|---|---|\n| [[N]] | ==c== |\n"
        let renderer = MarkdownHTMLRenderer(clozes: .hidden(number: 1), highlights: .mark, wikilinkURL: Self.links)
        #expect(try html(source, renderer) ==
            "<table>\n<thead>\n<tr>\n<th><span class=\"cloze\">[...]</span></th>\n<th>b</th>\n</tr>\n</thead>\n"
            + "<tbody>\n<tr>\n<td><a class=\"wikilink\" href=\"/notes/N\">N</a></td>\n<td><mark>c</mark></td>\n</tr>\n"
            + "</tbody>\n</table>\n")
    }

    @Test func footnotesAndAutolinks() throws {
        #expect(try html("See www.example.com and a[^1].\n\n[^1]: Note.\n") ==
            "<p>See <a href=\"http://www.example.com\">www.example.com</a> and a<sup class=\"footnote-ref\">"
            + "<a href=\"#fn-1\" id=\"fnref-1\" data-footnote-ref>1</a></sup>.</p>\n"
            + "<section class=\"footnotes\" data-footnotes>\n<ol>\n<li id=\"fn-1\">\n"
            + "<p>Note. <a href=\"#fnref-1\" class=\"footnote-backref\" data-footnote-backref "
            + "aria-label=\"Back to content\">\u{21A9}</a></p>\n</li>\n</ol>\n</section>\n")
    }

    @Test func emptyNote() throws {
        #expect(try html("") == "")
        #expect(try html("\n\n") == "")
    }

    // MARK: - Code keeps its marks

    @Test func marksInsideCodeAreCode() throws {
        let source = "```\n{{c1::x}} [[x]] ==y==\n```\n\n`{{c1::x}}` `[[x]]` `==y==`\n\n    {{c1::z}}\n"
        let everything = MarkdownHTMLRenderer(clozes: .hidden(number: 1), highlights: .mark, wikilinkURL: Self.links)
        #expect(try html(source, everything) ==
            "<pre><code>{{c1::x}} [[x]] ==y==\n</code></pre>\n"
            + "<p><code>{{c1::x}}</code> <code>[[x]]</code> <code>==y==</code></p>\n"
            + "<pre><code>{{c1::z}}\n</code></pre>\n")
    }

    @Test func aClozeMayHoldCode() throws {
        let source = "{{c1::**bold** `{{c2::x}}`}} and {{c2::y}}"
        #expect(try html(source, MarkdownHTMLRenderer(clozes: .revealed(number: 1))) ==
            "<p><span class=\"cloze\"><strong>bold</strong> <code>{{c2::x}}</code></span> and y</p>\n")
        #expect(try html(source, MarkdownHTMLRenderer(clozes: .hidden(number: 2))) ==
            "<p><strong>bold</strong> <code>{{c2::x}}</code> and <span class=\"cloze\">[...]</span></p>\n")
    }

    // MARK: - Clozes

    private let capital = "The capital of {{c1::France}} is {{c2::Paris::city}}.\n"

    @Test func clozesKeptAsText() throws {
        #expect(try html(capital) == "<p>The capital of {{c1::France}} is {{c2::Paris::city}}.</p>\n")
        #expect(try html(capital, MarkdownHTMLRenderer(highlights: .mark)) ==
            "<p>The capital of {{c1::France}} is {{c2::Paris::city}}.</p>\n")
    }

    @Test func clozeHidden() throws {
        #expect(try html(capital, MarkdownHTMLRenderer(clozes: .hidden(number: 1))) ==
            "<p>The capital of <span class=\"cloze\">[...]</span> is Paris.</p>\n")
    }

    @Test func clozeHiddenWithItsHint() throws {
        #expect(try html(capital, MarkdownHTMLRenderer(clozes: .hidden(number: 2))) ==
            "<p>The capital of France is <span class=\"cloze\">[city]</span>.</p>\n")
        #expect(try html("{{c1::a::*the* <hint> & co}}", MarkdownHTMLRenderer(clozes: .hidden(number: 1))) ==
            "<p><span class=\"cloze\">[<em>the</em> <!-- raw HTML omitted --> &amp; co]</span></p>\n")
    }

    @Test func clozeRevealed() throws {
        #expect(try html(capital, MarkdownHTMLRenderer(clozes: .revealed(number: 2))) ==
            "<p>The capital of France is <span class=\"cloze\">Paris</span>.</p>\n")
        #expect(try html(capital, MarkdownHTMLRenderer(clozes: .revealed(number: 1))) ==
            "<p>The capital of <span class=\"cloze\">France</span> is Paris.</p>\n")
    }

    @Test func aNumberWithoutClozeShowsEveryAnswer() throws {
        #expect(try html(capital, MarkdownHTMLRenderer(clozes: .hidden(number: 3))) ==
            "<p>The capital of France is Paris.</p>\n")
    }

    @Test func nestedClozesAndUnclosedMarks() throws {
        let renderer = MarkdownHTMLRenderer(clozes: .hidden(number: 2), highlights: .mark)
        #expect(try html("{{c1::a {{c2::b}} c}}", renderer) == "<p>a <span class=\"cloze\">[...]</span> c</p>\n")
        #expect(try html("{{c1::open ==x}} y== {{c0::z}} {{c2::", renderer) ==
            "<p>open ==x y== {{c0::z}} {{c2::</p>\n")
    }

    @Test func clozeAcrossLinesAndEmphasis() throws {
        // Opened inside an emphasis and closed outside it: not a cloze, as for cmark's own marks.
        #expect(try html("*{{c1::a*\nb}}", MarkdownHTMLRenderer(clozes: .hidden(number: 1))) ==
            "<p><em>{{c1::a</em>\nb}}</p>\n")
        #expect(try html("{{c1::a\nb}}", MarkdownHTMLRenderer(clozes: .revealed(number: 1))) ==
            "<p><span class=\"cloze\">a\nb</span></p>\n")
    }

    @Test func anAutolinkDoesNotSwallowTheClozeEnd() throws {
        let source = "See {{c1::http://a.example/x}} and {{c1::www.b.example::site}}.\n"
        #expect(try html(source) ==
            "<p>See {{c1::<a href=\"http://a.example/x\">http://a.example/x</a>}} and {{c1::www.b.example::site}}.</p>\n")
        #expect(try html(source, MarkdownHTMLRenderer(clozes: .revealed(number: 1))) ==
            "<p>See <span class=\"cloze\"><a href=\"http://a.example/x\">http://a.example/x</a></span>"
            + " and <span class=\"cloze\">www.b.example</span>.</p>\n")
        // Outside a cloze a URL keeps its braces.
        #expect(try html("http://a.example/x}}") == "<p><a href=\"http://a.example/x%7D%7D\">http://a.example/x}}</a></p>\n")
    }

    // MARK: - Highlights

    @Test func highlights() throws {
        let source = "==one== and *==two==* but a == b and ==x ==\n"
        #expect(try html(source) == "<p>==one== and <em>==two==</em> but a == b and ==x ==</p>\n")
        #expect(try html(source, MarkdownHTMLRenderer(highlights: .mark)) ==
            "<p><mark>one</mark> and <em><mark>two</mark></em> but a == b and ==x ==</p>\n")
        #expect(try html("==a **b** c== ===d===", MarkdownHTMLRenderer(highlights: .mark)) ==
            "<p><mark>a <strong>b</strong> c</mark> ===d===</p>\n")
    }

    // MARK: - Wikilinks

    @Test func wikilinksResolved() throws {
        let renderer = MarkdownHTMLRenderer(wikilinkURL: Self.links)
        #expect(try html("[[Note]], [[Note|the label]] and [[Note#Part two]]", renderer) ==
            "<p><a class=\"wikilink\" href=\"/notes/Note\">Note</a>, "
            + "<a class=\"wikilink\" href=\"/notes/Note\">the label</a> and "
            + "<a class=\"wikilink\" href=\"/notes/Note#Part%20two\">Note#Part two</a></p>\n")
    }

    @Test func wikilinkWithoutTarget() throws {
        #expect(try html("[[Missing|gone]] here", MarkdownHTMLRenderer(wikilinkURL: Self.links)) ==
            "<p><span class=\"wikilink missing\">gone</span> here</p>\n")
    }

    /// Embeds `![[…]]` become what the caller gives (not in code, not inside a link), or stay as
    /// written without it; a wikilink given an empty URL is its label alone.
    @Test func embedsAndLabels() throws {
        let renderer = MarkdownHTMLRenderer(wikilinkURL: { _ in "" }, embedHTML: { link in
            link.note == "none" ? nil : "<img data-note=\"\(link.note)\" data-label=\"\(link.label)\">"
        })
        #expect(try html("a ![[x.png|300]] b `![[c.png]]` [[N|shown]] ![[none]]", renderer) ==
            "<p>a <img data-note=\"x.png\" data-label=\"300\"> b <code>![[c.png]]</code> <span class=\"wikilink\">shown</span> ![[none]]</p>\n")
        #expect(try html("![[x.png]]") == "<p>![[x.png]]</p>\n")
        #expect(try html("[link ![[x.png]]](u)", renderer) == "<p><a href=\"u\">link ![[x.png]]</a></p>\n")
    }

    @Test func wikilinksKeptWithoutResolver() throws {
        #expect(try html("[[Note|label]]") == "<p>[[Note|label]]</p>\n")
    }

    @Test func whatTheResolverIsAsked() throws {
        let asked = Asked()
        let renderer = MarkdownHTMLRenderer(wikilinkURL: { asked.add($0); return nil })
        _ = try html("[[ Note # Part | shown ]] [[#Top]] [[Plain]] [[|x]] [[]]", renderer)
        // Nor about the links of a hidden answer.
        var hiding = renderer
        hiding.clozes = .hidden(number: 1)
        _ = try html("{{c1::[[Secret]]}}", hiding)
        #expect(asked.links == [
            MarkdownWikilink(note: "Note", heading: "Part", label: "shown"),
            MarkdownWikilink(note: "", heading: "Top", label: "#Top"),
            MarkdownWikilink(note: "Plain", heading: nil, label: "Plain"),
        ])
    }

    @Test func notWikilinks() throws {
        let renderer = MarkdownHTMLRenderer(wikilinkURL: Self.links)
        #expect(try html("![[image.png]] [see [[Note]]](u) [[a [b]] c]] `[[Note]]`", renderer) ==
            "<p>![[image.png]] <a href=\"u\">see [[Note]]</a> [[a [b]] c]] <code>[[Note]]</code></p>\n")
    }

    @Test func wikilinkInsideACloze() throws {
        let source = "{{c1::[[Note]]::[[Hint]]}}"
        #expect(try html(source, MarkdownHTMLRenderer(clozes: .revealed(number: 1), wikilinkURL: Self.links)) ==
            "<p><span class=\"cloze\"><a class=\"wikilink\" href=\"/notes/Note\">Note</a></span></p>\n")
        #expect(try html(source, MarkdownHTMLRenderer(clozes: .hidden(number: 1), wikilinkURL: Self.links)) ==
            "<p><span class=\"cloze\">[<a class=\"wikilink\" href=\"/notes/Hint\">Hint</a>]</span></p>\n")
    }

    // MARK: - Escaping and safety

    @Test func scriptsAndRawHTMLAreLeftOut() throws {
        #expect(try html("<script>alert(1)</script>\n\nx <b onclick=\"f()\">y</b> & <z\n") ==
            "<!-- raw HTML omitted -->\n<p>x <!-- raw HTML omitted -->y<!-- raw HTML omitted --> &amp; &lt;z</p>\n")
        #expect(try html("[a](javascript:alert(1)) ![b](data:text/html,x) ![c](data:image/png;base64,AA)") ==
            "<p><a href=\"\">a</a> <img src=\"\" alt=\"b\" /> <img src=\"data:image/png;base64,AA\" alt=\"c\" /></p>\n")
    }

    @Test func rawHTMLOnlyWhenAllowed() throws {
        let renderer = MarkdownHTMLRenderer(allowsRawHTML: true)
        #expect(try html("<div>\nhi\n</div>\n\nx <b>y</b> <script>z</script>\n", renderer) ==
            "<div>\nhi\n</div>\n<p>x <b>y</b> &lt;script>z&lt;/script></p>\n")
    }

    @Test func labelsAndAnswersAreEscaped() throws {
        let renderer = MarkdownHTMLRenderer(clozes: .revealed(number: 1), wikilinkURL: Self.links)
        #expect(try html("[[Note|a & \"b\" 'c']] {{c1::x & \"y\" > z}}", renderer) ==
            "<p><a class=\"wikilink\" href=\"/notes/Note\">a &amp; &quot;b&quot; 'c'</a> "
            + "<span class=\"cloze\">x &amp; &quot;y&quot; &gt; z</span></p>\n")
    }

    @Test func quotesInHrefs() throws {
        let renderer = MarkdownHTMLRenderer(wikilinkURL: { _ in "/n?q=\"x\"&y='z' w<>\u{E9}" })
        #expect(try html("[[Note]]", renderer) ==
            "<p><a class=\"wikilink\" href=\"/n?q=%22x%22&amp;y=&#x27;z&#x27;%20w%3C%3E%C3%A9\">Note</a></p>\n")
    }

    @Test func hrefsAreEscapedAsCmarkEscapesLinks() throws {
        // The same URL as a Markdown link destination and as a resolved wikilink: the same href.
        for url in ["/a b", "/q?x=\"1\"&y='2'", "/%20ok/~x+y", "/[]{}|^`", "/caf\u{E9}", "mailto:a@b.c"] {
            let link = try html("[x](<\(url)>)")
            let wikilink = try html("[[x]]", MarkdownHTMLRenderer(wikilinkURL: { _ in url }))
            #expect(wikilink == link.replacingFirst("<a href=", with: "<a class=\"wikilink\" href="), "\(url)")
        }
    }

    @Test func dangerousWikilinkTargets() throws {
        let renderer = MarkdownHTMLRenderer(wikilinkURL: { _ in "JavaScript:alert(1)" })
        #expect(try html("[[x]]", renderer) == "<p><a class=\"wikilink\" href=\"\">x</a></p>\n")
        var allowing = renderer
        allowing.allowsRawHTML = true
        #expect(try html("[[x]]", allowing) == "<p><a class=\"wikilink\" href=\"JavaScript:alert(1)\">x</a></p>\n")
    }

    // MARK: - Input forms

    @Test func crlfGivesTheSameHTML() throws {
        let lf = "a\nb\n\n```\ncode\n```\n\n> {{c1::q}}\n"
        let renderer = MarkdownHTMLRenderer(clozes: .hidden(number: 1))
        let expected = "<p>a\nb</p>\n<pre><code>code\n</code></pre>\n<blockquote>\n<p><span class=\"cloze\">[...]</span></p>\n</blockquote>\n"
        #expect(try html(lf, renderer) == expected)
        #expect(try html(lf.replacingAll("\n", with: "\r\n"), renderer) == expected)
        #expect(try html(lf.replacingAll("\n", with: "\r"), renderer) == expected)
    }

    @Test func byteOrderMarkAndNul() throws {
        #expect(try html("\u{FEFF}# T\n") == "<h1>T</h1>\n")
        #expect(try plain.render(bytes: [0xEF, 0xBB, 0xBF, 0x61, 0x00, 0x62]) == "<p>a\u{FFFD}b</p>\n")
    }

    // MARK: - Hostile input

    @Test func deepNestingIsRefusedLikeTheIndexerRefusesIt() throws {
        let deep = "ok\n\n" + String(repeating: "> ", count: 101) + "x\n"
        let expected = MarkdownError.limitExceeded(
            message: "a line nests more than 100 block quotes and list items", at: SourceLocation(line: 3, column: 1))
        #expect(throws: expected) { try plain.render(deep) }
        // The message is the limits' own, which the indexer prints for the same note.
        let limits = Array(deep.utf8).withUnsafeBufferPointer { MarkdownLimits.firstExcess(in: $0) }
        #expect(limits?.message == expected.message)
        #expect(throws: MarkdownError.limitExceeded(message: expected.message, at: SourceLocation(line: 8, column: 1))) {
            try plain.render(deep, lineOffset: 5)
        }
        #expect(expected.description == "3:1: a line nests more than 100 block quotes and list items")
        let fine = String(repeating: "> ", count: 100) + "x\n"
        #expect(try plain.render(fine).hasSuffix("<p>x</p>\n" + String(repeating: "</blockquote>\n", count: 100)))
    }

    @Test func wideTableRowsAreRefused() throws {
        let wide = "\u{FEFF}a\r\n" + String(repeating: "|", count: 1001) + "\r\n"
        #expect(throws: MarkdownError.limitExceeded(
            message: "a line holds more than 1000 '|' (table cells)", at: SourceLocation(line: 2, column: 1))) {
            try plain.render(wide)
        }
    }

    @Test func manyUnmatchedMarksTakeLinearTime() throws {
        // Shapes on which a quadratic matcher would not finish in a test run.
        let count = 40_000
        let renderer = MarkdownHTMLRenderer(clozes: .hidden(number: 1), highlights: .mark, wikilinkURL: Self.links)
        let opens = String(repeating: "{{c1::==a [[b ", count: count) + String(repeating: "}}", count: count)
        let output = try renderer.render(opens)
        #expect(output.hasPrefix("<p><span class=\"cloze\">[...]</span>"))
        let brackets = String(repeating: "[[", count: count) + "x" + String(repeating: "]", count: count)
        #expect(try renderer.render(brackets).count > 2 * count)
        let emphasis = String(repeating: "*a ", count: count) + "{{c1::x}}" + String(repeating: " b*", count: count)
        #expect(try renderer.render(emphasis).contains("<span class=\"cloze\">[...]</span>"))
    }

    @Test func concurrentRendersAgree() async throws {
        let source = capital + "\n| a | ~~b~~ |\n|---|---|\n| www.x.org | ==c== |\n"
        let renderer = MarkdownHTMLRenderer(clozes: .hidden(number: 2), highlights: .mark)
        let expected = try renderer.render(source)
        let outputs = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask { try? renderer.render(source) }
                group.addTask { _ = MarkdownDocument(parsing: source, options: .indexing); return expected }
            }
            var outputs: [String?] = []
            for await output in group { outputs.append(output) }
            return outputs
        }
        #expect(outputs.allSatisfy { $0 == expected })
    }
}

/// Collects the wikilinks a resolver was asked about.
private final class Asked: @unchecked Sendable {
    private(set) var links: [MarkdownWikilink] = []
    func add(_ link: MarkdownWikilink) { links.append(link) }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
