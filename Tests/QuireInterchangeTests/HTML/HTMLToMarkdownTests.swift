@testable import QuireInterchange
import Testing

// MARK: - Helpers

/// Converts with the usual `assets/` media mapping.
private func convert(_ html: String) -> HTMLToMarkdown.Conversion {
    HTMLToMarkdown.convert(html) { "assets/" + $0 }
}

/// The Markdown for `html`.
private func md(_ html: String) -> String {
    convert(html).markdown
}

/// Whether `text` contains a character the converter must never output.
private func containsUnwantedControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}

// MARK: - Inline formatting

@Suite struct InlineFormatting {
    @Test func boldAndStrong() {
        #expect(md("<b>a</b> <strong>b</strong>") == "**a** **b**")
    }

    @Test func italicAndEm() {
        #expect(md("<i>a</i> <em>b</em>") == "*a* *b*")
    }

    @Test(arguments: ["s", "strike", "del", "S", "DEL"])
    func strikethrough(tag: String) {
        #expect(md("a <\(tag)>x</\(tag)> b") == "a ~~x~~ b")
    }

    @Test(arguments: ["u", "span", "font", "sup", "sub", "mark", "small", "big", "blink", "x-custom"])
    func tagsWithoutMarkdownKeepTheirText(tag: String) {
        #expect(md("a<\(tag) class=\"c\" style='color:red'>b</\(tag)>c") == "abc")
    }

    @Test(arguments: [
        ("a<b></b>b", "ab"),
        ("a<b> </b>b", "a b"),
        ("a<strong>  \n </strong>b", "a b"),
        ("<i></i>", ""),
        ("a<s> </s>b", "a b"),
        ("<b><i></i></b>x", "x"),
    ])
    func emptyEmphasisWritesNothing(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test(arguments: [
        ("a<b> x </b>b", "a **x** b"),
        ("<b> x </b>", "**x**"),
        ("<i> x</i>y", "*x*y"),
        ("a<i> x</i>y", "a *x*y"),
        ("x<em>y </em>z", "x*y* z"),
        ("a<s> b c </s>d", "a ~~b c~~ d"),
        ("<b>a <i> b </i> c</b>", "**a *b* c**"),
    ])
    func edgeWhitespaceMovesOutsideMarkers(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func nestedEmphasis() {
        #expect(md("<b><i>x</i></b>") == "***x***")
        #expect(md("<i>a <b>b</b> <s>c</s></i>") == "*a **b** ~~c~~*")
    }

    @Test func sameEmphasisNestedIsNotDoubled() {
        #expect(md("<b>a<strong>b</strong>c</b>") == "**abc**")
        #expect(md("<s><del>x</del></s>") == "~~x~~")
        #expect(md("<i>a<em>b</em></i>") == "*ab*")
    }

    @Test func adjacentIdenticalEmphasisIsMerged() {
        #expect(md("<b>a</b><b>b</b>") == "**ab**")
        #expect(md("<b>a</b> <b>b</b>") == "**a** **b**")
    }

    @Test func emphasisIsReopenedAfterALineBreak() {
        #expect(md("<b>a<br>b</b>") == "**a**\n**b**")
        #expect(md("<i><div>a</div><div>b</div></i>") == "*a*\n*b*")
    }

    @Test(arguments: [
        ("<code>x</code>", "`x`"),
        ("<code>a`b</code>", "``a`b``"),
        ("<code>`x</code>", "`` `x ``"),
        ("<code>x`</code>", "`` x` ``"),
        ("<code>a``b`</code>", "``` a``b` ```"),
        ("<code>*a* _b_ [c] $d$</code>", "`*a* _b_ [c] $d$`"),
        ("a<code> x \n y </code>b", "a `x y` b"),
        ("<code>&lt;b&gt; <b>c</b><br>d</code>", "`<b> c d`"),
        ("<code></code>x<code> </code>y", "x y"),
        ("<code>\\(x\\)</code>", "`\\(x\\)`"),
    ])
    func codeSpans(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func codeSpanEndsAtABlockBoundary() {
        #expect(md("<div><code>a</div><div>b</div>") == "`a`\nb")
    }
}

// MARK: - Line breaks and blocks

@Suite struct Blocks {
    @Test func lineBreakForms() {
        #expect(md("a<br>b<br/>c<BR />d<br  >e</br>f") == "a\nb\nc\nd\ne\nf")
    }

    @Test(arguments: [
        ("a<br><br>b", "a\n\nb"),
        ("a<br><br><br><br>b", "a\n\nb"),
        ("<br>a<br>", "a"),
        ("<br><br>", ""),
    ])
    func consecutiveLineBreaksMakeOneEmptyLine(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func ankiEditorField() {
        #expect(md("<div>Line one</div><div>Line <b>two</b></div>") == "Line one\nLine **two**")
    }

    @Test func ankiEditorEmptyLinesAndTrailingBreaks() {
        #expect(md("<div>a</div><div><br></div><div>b</div>") == "a\n\nb")
        #expect(md("<div>a<br></div><div>b</div>") == "a\nb")
        #expect(md("first<div>second</div>third") == "first\nsecond\nthird")
    }

    @Test func paragraphsAreSeparatedByAnEmptyLine() {
        #expect(md("<p>a</p><p>b</p>c") == "a\n\nb\n\nc")
        #expect(md("x<p>y</p>") == "x\n\ny")
    }

    @Test func headings() {
        let html = "<h1>A</h1><h2>B</h2><h3>C</h3><h4>D</h4><h5>E</h5><h6>F</h6>text"
        #expect(md(html) == "# A\n\n## B\n\n### C\n\n#### D\n\n##### E\n\n###### F\n\ntext")
    }

    @Test func headingEdgeCases() {
        #expect(md("<h1></h1><h2> <i>x</i> y </h2>") == "## *x* y")
        #expect(md("<h3>1. # not a list</h3>") == "### 1. # not a list")
    }

    @Test func blockquotes() {
        #expect(md("<blockquote>a<br>b</blockquote>c") == "> a\n> b\n\nc")
        #expect(md("<blockquote><p>a</p><p>b</p></blockquote>") == "> a\n>\n> b")
        #expect(md("<blockquote>a<blockquote>b</blockquote>c</blockquote>") == "> a\n>\n> > b\n>\n> c")
        #expect(md("<blockquote>a</blockquote><blockquote>b</blockquote>") == "> a\n\n> b")
    }

    @Test func tables() {
        let html = "<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2 <b>x</b></td></tr></table>after"
        #expect(md(html) == "A | B\n1 | 2 **x**\nafter")
    }

    @Test func tableCellsStayOnOneLine() {
        #expect(md("<table><tr><td>a<br>b</td><td><div>c</div><ul><li>d</li></ul></td></tr></table>") == "a b | c d")
    }

    @Test func tableRowsAndCellsCloseImplicitly() {
        #expect(md("<table><tbody><tr><td>a<td>b<tr><td>c</table>") == "a | b\nc")
    }

    @Test func horizontalRule() {
        #expect(md("a<hr>b") == "a\n\n---\n\nb")
    }

    @Test func divLikeElements() {
        #expect(md("<section>a</section><article>b</article><dl><dt>c</dt><dd>d</dd></dl>") == "a\nb\nc\nd")
    }
}

// MARK: - Lists

@Suite struct Lists {
    @Test func unordered() {
        #expect(md("<ul><li>a</li><li>b <i>c</i></li></ul>") == "- a\n- b *c*")
    }

    @Test func ordered() {
        #expect(md("<ol><li>a</li><li>b</li><li>c</li></ol>") == "1. a\n2. b\n3. c")
    }

    @Test func nestedLists() {
        #expect(md("<ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>") == "- a\n  - b\n  - c\n- d")
        #expect(md("<ol><li>a<ol><li>b</li></ol></li><li>c</li></ol>") == "1. a\n   1. b\n2. c")
        #expect(md("<ol><li>a<ul><li>b<ol><li>c</li></ol></li></ul></li></ol>") == "1. a\n   - b\n     1. c")
    }

    @Test func listNestedDirectlyInAList() {
        #expect(md("<ul><li>a</li><ul><li>b</li></ul><li>c</li></ul>") == "- a\n  - b\n- c")
    }

    @Test func orderedStartAndWideMarkers() {
        #expect(md("<ol start=\"9\"><li>a<ul><li>b</li></ul></li><li>c<ol><li>d</li></ol></li></ol>")
            == "9. a\n   - b\n10. c\n    1. d")
    }

    @Test func listIsSeparatedFromSurroundingText() {
        // Text right after a list is a paragraph of its own, not the last item's continuation.
        #expect(md("x<ul><li>a</li></ul>y") == "x\n- a\n\ny")
        #expect(md("<p>x</p><ul><li>a</li></ul>") == "x\n\n- a")
        #expect(md("<div>x</div><ol><li>a</li></ol><div>y</div>") == "x\n1. a\n\ny")
    }

    @Test func itemsCloseImplicitly() {
        #expect(md("<ul><li>a<li>b</ul>") == "- a\n- b")
        #expect(md("<ul><li>a") == "- a")
    }

    @Test func blockContentInItems() {
        #expect(md("<ul><li><p>a</p><p>b</p></li><li>c</li></ul>") == "- a\n\n  b\n\n- c")
        #expect(md("<ul><li><div>a</div><div>b</div></li></ul>") == "- a\n  b")
        #expect(md("<blockquote><ul><li>a</li><li>b</li></ul></blockquote>") == "> - a\n> - b")
        #expect(md("<ul><li>a<br>b</li></ul>") == "- a\n  b")
    }

    @Test func emptyAndOrphanItems() {
        #expect(md("<ul><li><br></li><li>x</li></ul>") == "- x")
        #expect(md("<li>orphan</li>") == "- orphan")
    }
}

// MARK: - Preformatted text

@Suite struct Preformatted {
    @Test func contentIsVerbatim() {
        #expect(md("<pre>  code\n&lt;x&gt;\n\n  y *z*</pre>after") == "```\n  code\n<x>\n\n  y *z*\n```\n\nafter")
    }

    @Test func fenceGrowsAndTagsAreStripped() {
        #expect(md("<pre>a ``` b\n<b>bold</b> &amp;</pre>") == "````\na ``` b\nbold &\n````")
        #expect(md("<pre><code>x = 1</code></pre>") == "```\nx = 1\n```")
    }

    @Test func leadingNewlineAndBreaks() {
        #expect(md("<pre>\nx<br>y\n</pre>") == "```\nx\ny\n```")
        #expect(md("<pre><div>a</div><div>b</div></pre>") == "```\na\nb\n```")
    }

    @Test func insideAQuote() {
        #expect(md("<blockquote><pre>a\n\nb</pre></blockquote>") == "> ```\n> a\n>\n> b\n> ```")
    }

    @Test func keepsTabsDropsControls() {
        #expect(md("<pre>a\u{1}b\tc\u{7F}</pre>") == "```\nab\tc\n```")
    }

    @Test func emptyPreWritesNothing() {
        #expect(md("a<pre></pre>b") == "a\n\nb")
    }
}

// MARK: - Media and links

@Suite struct MediaAndLinks {
    @Test func imagesAreRecordedOnce() {
        let result = convert("<img src=\"a.jpg\"><img src=\"a.jpg\" alt=\"again\">")
        #expect(result == HTMLToMarkdown.Conversion(markdown: "![](assets/a.jpg)![again](assets/a.jpg)", media: ["a.jpg"]))
    }

    @Test func imageAltIsEscapedAndNameIsEntityDecoded() {
        let result = convert("<img class=x src=\"my&amp;file 1.png\" alt=\" *x*  [y] \">")
        #expect(result.markdown == "![\\*x\\* \\[y\\]](<assets/my&file 1.png>)")
        #expect(result.media == ["my&file 1.png"])
    }

    @Test func imageNameIsNotPercentDecoded() {
        let result = convert("<img src=\"a%20b.png\">")
        #expect(result.markdown == "![](assets/a%20b.png)")
        #expect(result.media == ["a%20b.png"])
    }

    @Test(arguments: [
        ("<img src=\"http://x.org/a.png\">", "![](http://x.org/a.png)"),
        ("<img src=\"HTTPS://x.org/a b.png\">", "![](<HTTPS://x.org/a b.png>)"),
        ("<img src=\"data:image/png;base64,AAA=\">", "![](data:image/png;base64,AAA=)"),
        ("<img src=javascript:alert(1)>", "![](<javascript:alert(1)>)"),
        ("<img src=\"a+b.c-d:x\">", "![](a+b.c-d:x)"),
    ])
    func urlSourcesAreNotMedia(html: String, expected: String) {
        var calls: [String] = []
        let result = HTMLToMarkdown.convert(html) { name in
            calls.append(name)
            return "assets/" + name
        }
        #expect(result.markdown == expected)
        #expect(result.media.isEmpty)
        #expect(calls.isEmpty)
    }

    @Test func imagesWithoutSourceWriteNothing() {
        #expect(convert("a<img alt=\"x\">b<img src=\"\">c<img src=\"  \">d") == HTMLToMarkdown.Conversion(markdown: "abcd"))
    }

    @Test func sounds() {
        #expect(convert("[sound:a b.mp3]") == HTMLToMarkdown.Conversion(markdown: "[a b.mp3](<assets/a b.mp3>)", media: ["a b.mp3"]))
        #expect(md("Listen: [sound:s_1.mp3]!") == "Listen: [s\\_1.mp3](assets/s_1.mp3)!")
    }

    @Test func incompleteSoundTagsAreText() {
        #expect(convert("[sound:] [sound:x").markdown == "\\[sound:\\] \\[sound:x")
        #expect(convert("[sound:a\nb]").media.isEmpty)
    }

    @Test func mediaOrderAndOneCallPerName() {
        var calls: [String] = []
        let result = HTMLToMarkdown.convert(
            "<img src=\"b.png\">[sound:a.mp3]<div><img src=\"b.png\"></div>[sound:c.mp3][sound:a.mp3]"
        ) { name in
            calls.append(name)
            return "m/" + name
        }
        #expect(result.media == ["b.png", "a.mp3", "c.mp3"])
        #expect(calls == ["b.png", "a.mp3", "c.mp3"])
        #expect(result.markdown == "![](m/b.png)[a.mp3](m/a.mp3)\n![](m/b.png)\n[c.mp3](m/c.mp3)[a.mp3](m/a.mp3)")
    }

    @Test func mediaTargetIsFormattedSafely() {
        let result = HTMLToMarkdown.convert("<img src=\"x.png\">") { _ in "dir (1)/<x>\u{7}.png" }
        #expect(result.markdown == "![](<dir (1)/%3Cx%3E.png>)")
    }

    @Test func links() {
        #expect(md("<a href=\"https://x.org/?a=1&amp;b=2\">t <b>b</b></a>") == "[t **b**](https://x.org/?a=1&b=2)")
        #expect(md("a <a href=u> t </a> b") == "a [t](u) b")
    }

    @Test func linksWithoutTargetKeepTheirText() {
        #expect(md("<a>t</a> <a href=\"\">u</a> <a href=\"  \">v</a> <a href=u></a>w") == "t u v w")
    }

    @Test(arguments: [
        ("<a href=\"a b\">x</a>", "[x](<a b>)"),
        ("<a href=\"f(1)\">x</a>", "[x](<f(1)>)"),
        ("<a href=\"a<b>c\">x</a>", "[x](<a%3Cb%3Ec>)"),
        ("<a href='C:\\dir\\'>x</a>", "[x](C:\\dir\\\\)"),
        ("<a href=\"x\ny\">z</a>", "[z](xy)"),
    ])
    func linkTargetsAreWrappedWhenNeeded(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func imageInsideLink() {
        #expect(convert("<a href=\"u\"><img src=\"i.png\"></a>") == HTMLToMarkdown.Conversion(markdown: "[![](assets/i.png)](u)", media: ["i.png"]))
    }
}

// MARK: - Math

@Suite struct Math {
    @Test(arguments: [
        ("\\(x^2\\)", "$x^2$"),
        ("\\[x^2\\]", "$$x^2$$"),
        ("[$]x^2[/$]", "$x^2$"),
        ("[$$]x^2[/$$]", "$$x^2$$"),
        ("[latex]x^2[/latex]", "$$x^2$$"),
    ])
    func allSyntaxes(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func mathInRunningText() {
        #expect(md("a \\(x\\) b \\[y\\] c [$]z[/$] d [$$]w[/$$] e [latex]v[/latex]")
            == "a $x$ b $$y$$ c $z$ d $$w$$ e $$v$$")
    }

    @Test func contentIsVerbatim() {
        #expect(md("\\(a &lt; b_{1} * c\\)") == "$a < b_{1} * c$")
        #expect(md("\\(x<sup>2</sup>\\)") == "$x2$")
        #expect(md("\\( x \\)") == "$x$")
        #expect(md("<i>\\(\\$5 \\)</i>") == "*$\\$5$*")
    }

    @Test func displayMathOverSeveralLines() {
        #expect(md("\\[a<br>b\\]") == "$$a\nb$$")
        #expect(md("<blockquote>\\[a<br><br>b\\]</blockquote>") == "> $$a\n> b$$")
    }

    @Test func unterminatedMathIsText() {
        #expect(md("\\(x") == "\\\\(x")
        #expect(md("[$]x") == "\\[\\$\\]x")
        #expect(md("\\)x\\(") == "\\\\)x\\\\(")
    }
}

// MARK: - Cloze deletions

@Suite struct Cloze {
    @Test func clozeWithFormatting() {
        #expect(md("{{c1::<b>x</b>}}") == "{{c1::**x**}}")
    }

    @Test func clozeWithHint() {
        #expect(md("{{c2::answer::hint}}") == "{{c2::answer::hint}}")
        #expect(md("{{c1::<i>a</i>::<b>h</b>}} and {{c12::b}}") == "{{c1::*a*::**h**}} and {{c12::b}}")
    }

    @Test func clozeContentIsConvertedNormally() {
        #expect(md("{{c1::*x*}} {{c1::\\(x^{2}\\)}} {{c3::[sound:a.mp3]}}")
            == "{{c1::\\*x\\*}} {{c1::$x^{2}$}} {{c3::[a.mp3](assets/a.mp3)}}")
    }

    @Test func ankiClozeField() {
        let html = "<div>{{c1::Paris::<i>city</i>}} is the capital of <b>France</b>.</div><div><img src=\"paris.jpg\"></div>"
        let result = convert(html)
        #expect(result.markdown == "{{c1::Paris::*city*}} is the capital of **France**.\n![](assets/paris.jpg)")
        #expect(result.media == ["paris.jpg"])
    }
}

// MARK: - Entities

@Suite struct Entities {
    @Test func markupEntities() {
        #expect(md("&amp; &lt; &gt; &quot; &apos; &#39;") == "& \\< \\> \" ' '")
    }

    @Test func namedEntities() {
        #expect(md("x&nbsp;y") == "x y")
        #expect(md("&ndash;&mdash;&hellip;&lsquo;&rsquo;&ldquo;&rdquo;&eacute;&copy;&Uuml;&yuml;&euro;&trade;&alpha;&Omega;&rarr;")
            == "–—…‘’“”é©Üÿ€™αΩ→")
        // HTML's whole list, not only HTML 4's: mathematical letters, arrows, relations, and
        // references that stand for two characters.
        #expect(md("&Afr;&hookrightarrow;&NotEqualTilde;&checkmark;&half;&Cconint;&boxdr;") == "𝔄↪\u{2242}\u{0338}✓½∰┌")
        #expect(HTMLEntities.named.count == 2125 && HTMLEntities.named["NotEqualTilde"]?.unicodeScalars.count == 2)
        // A name HTML does not have, or one without its semicolon, stays as written.
        #expect(md("&notaname; &amp") == "\\&notaname; &amp")
    }

    @Test func numericEntities() {
        #expect(md("&#65;&#x42;&#X43;&#x1F600;&#0065;") == "ABC😀A")
    }

    @Test func invalidNumericEntitiesBecomeReplacementCharacters() {
        #expect(md("&#0;|&#xD800;|&#xDFFF;|&#x110000;|&#99999999999999999999;")
            == "\u{FFFD}|\u{FFFD}|\u{FFFD}|\u{FFFD}|\u{FFFD}")
    }

    @Test func windows1252RangeAndControls() {
        #expect(md("&#150;&#128;&#129;&#1;&#x7F;x&#13;y") == "–€x y")
    }

    @Test func unknownAndMalformedEntitiesStayLiteral() {
        #expect(md("&bogus; &amp &#; &#x; &#12a; & x &") == "\\&bogus; &amp &#; &#x; &#12a; & x &")
    }

    @Test func decodedEntityTextStaysLiteral() {
        #expect(md("&amp;copy; &amp;#38; &amp;#x26; &amp;amp") == "\\&copy; \\&#38; \\&#x26; &amp")
    }

    @Test func noBreakSpacesCollapse() {
        #expect(md("a&nbsp;&nbsp;b\u{A0}c &nbsp; d") == "a b c d")
    }
}

// MARK: - Escaping

@Suite struct Escaping {
    @Test(arguments: [
        ("1. not a list", "1\\. not a list"),
        ("# not a heading", "\\# not a heading"),
        ("*stars*", "\\*stars\\*"),
        ("a_b", "a\\_b"),
        ("- x", "\\- x"),
        ("+ x", "\\+ x"),
        ("===", "\\==="),
        ("&gt; quote", "\\> quote"),
        ("2) x", "2\\) x"),
        ("123.5", "123\\.5"),
        ("$5 ~x~ [a] \\ `b` &lt;c&gt;", "\\$5 \\~x\\~ \\[a\\] \\\\ \\`b\\` \\<c\\>"),
        ("a # b - c 1. d :: e", "a # b - c 1. d :: e"),
        ("a|b ^c {d} (e) !f", "a|b ^c {d} (e) !f"),
    ])
    func literalText(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func lineStartsAfterBreaks() {
        #expect(md("a<br>- b<div># c</div><p>1) d</p>") == "a\n\\- b\n\\# c\n\n1\\) d")
        #expect(md("<ul><li>- x</li></ul><blockquote># y</blockquote>") == "- \\- x\n\n> \\# y")
    }

    @Test func textSplitByTagsAtLineStart() {
        #expect(md("1<span>. x</span>") == "1\\. x")
        #expect(md("<span></span>#<span>x</span>") == "\\#x")
    }

    @Test func markupAtLineStartIsNotEscaped() {
        #expect(md("<b>#</b> x<br><b>1.</b> y<br><i>-</i>") == "**#** x\n**1.** y\n*-*")
    }

    @Test func plainTextEscaping() {
        #expect(HTMLToMarkdown.escaped("1. x\r\n  # h  \r*a* _b_ `c` [d] <e> $f ~g \\h")
            == "1\\. x\n\\# h\n\\*a\\* \\_b\\_ \\`c\\` \\[d\\] \\<e\\> \\$f \\~g \\\\h")
        #expect(HTMLToMarkdown.escaped("- a\n+ b\n= c\n> d\n12) e") == "\\- a\n\\+ b\n\\= c\n\\> d\n12\\) e")
    }

    @Test func plainTextKeepsNewlinesClozeAndOrdinaryCharacters() {
        #expect(HTMLToMarkdown.escaped("{{c1::x::y}}\n\n\n&copy; & co <b>") == "{{c1::x::y}}\n\n\n\\&copy; & co \\<b\\>")
        #expect(HTMLToMarkdown.escaped("a\u{0}b\u{85}c\t\td\u{7F}") == "abc\t\td")
        #expect(HTMLToMarkdown.escaped("") == "")
    }
}

// MARK: - Dropped content

@Suite struct DroppedContent {
    @Test func script() {
        let result = convert("a<script>alert(\"<b>\")</script>b")
        #expect(result.markdown == "ab")
        #expect(result.dropped == ["script"])
    }

    @Test func everyDroppedElement() {
        let html = "<style>p{}</style><iframe src=x>i</iframe><object>o</object><embed src=e>x"
            + "<head><title>t</title></head><template>t</template><svg><svg></svg>s</svg><math>m</math>y"
            + "<script>s</script><style>q</style>"
        let result = convert(html)
        #expect(result.markdown == "xy")
        #expect(result.dropped == ["style", "iframe", "object", "embed", "head", "template", "svg", "math", "script"])
    }

    @Test func droppedContentIsNotParsed() {
        let result = convert("<SCRIPT type=\"x\">if (a<b) { x = '</b>' }</script >b<style><!-- </style>c")
        #expect(result.markdown == "bc")
        #expect(result.dropped == ["script", "style"])
    }

    @Test func droppedContentDoesNotRecordMedia() {
        let result = convert("<svg><img src=\"a.png\">[sound:b.mp3]</svg>")
        #expect(result == HTMLToMarkdown.Conversion(markdown: "", dropped: ["svg"]))
    }

    @Test func unterminatedDroppedElements() {
        #expect(convert("a<script>b<b>c") == HTMLToMarkdown.Conversion(markdown: "a", dropped: ["script"]))
        #expect(convert("a<svg>b") == HTMLToMarkdown.Conversion(markdown: "a", dropped: ["svg"]))
    }

    @Test func commentsDoctypesAndProcessingInstructions() {
        #expect(md("<!DOCTYPE html><?xml version='1.0'?>a<!-- c -->b<!---->c<!-->d<!--->e") == "abcde")
        #expect(convert("a<!-- x --> b").dropped.isEmpty)
    }

    @Test func unterminatedComment() {
        #expect(md("a<!-- b <b>c</b>") == "a")
    }
}

// MARK: - Whitespace

@Suite struct Whitespace {
    @Test func runsCollapse() {
        #expect(md("  a \n\t b  ") == "a b")
        #expect(md("a <span> b </span> c") == "a b c")
    }

    @Test func linesAreTrimmed() {
        #expect(md("<div>  a  </div>  <div> b </div>\n") == "a\nb")
        #expect(md("\n\n<p> </p><p>x</p>\n\n") == "x")
    }

    @Test func lineEndingsInInput() {
        #expect(md("a\r\nb\rc") == "a b c")
        #expect(md("<pre>a\r\nb\rc</pre>") == "```\na\nb\nc\n```")
    }
}

// MARK: - Attributes and malformed markup

@Suite struct Markup {
    @Test func attributeQuotingAndCase() {
        let result = convert("<img src='a.png'><IMG SRC=b.png ALT=Hi><img src=\"c.png\" SRC=\"d.png\"><img src=e.png/>")
        #expect(result.markdown == "![](assets/a.png)![Hi](assets/b.png)![](assets/c.png)![](assets/e.png)")
        #expect(result.media == ["a.png", "b.png", "c.png", "e.png"])
    }

    @Test(arguments: [
        ("<b<i>x</b>", "x"),
        ("< b>", "\\< b\\>"),
        ("3 < 4 <5", "3 \\< 4 \\<5"),
        ("a <b", "a \\<b"),
        ("</>", "\\</\\>"),
        ("</ b>", "\\</ b\\>"),
        ("a</b></div>b", "ab"),
        ("<b><i>x</b>y</i>", "***x***y"),
        ("<b>x", "**x**"),
        ("<a href='x>y", "[y]('x)"),
        ("<img src=\"a.png\" alt=\"x", "\\<img src=\"a.png\" alt=\"x"),
        ("<span title=\"a>b\">c</span>", "c"),
        ("a<b/>b<div/>c", "ab\nc"),
        ("<\u{301}b>", "\\<\u{301}b\\>"),
    ])
    func malformedMarkup(html: String, expected: String) {
        #expect(md(html) == expected)
    }

    @Test func oddUnicodeIsKept() {
        let text = "e\u{301} 👩‍👩‍👧 \u{FEFF}\u{200F}\u{FFFF}\u{10FFFF} 😀"
        #expect(md("<b>\(text)</b>") == "**\(text)**")
    }

    @Test func controlCharactersAreDropped() {
        let result = convert("a\u{0}b\u{7}c\u{7F}d\u{85}e&#1;f&#0;g\u{9F}h\u{1B}[0m<img src=\"x\u{1}.png\" alt=\"\u{8}y\">")
        #expect(result.markdown == "abcdef\u{FFFD}gh\\[0m![y](assets/x.png)")
        #expect(!containsUnwantedControl(result.markdown))
    }

    @Test func nestingDeeperThanTheLimitIsIgnored() {
        let spans = String(repeating: "<span>", count: HTMLToMarkdown.maximumNestingDepth)
        #expect(md(spans + "<b>x</b>y") == "xy")
        #expect(md(String(repeating: "<span>", count: HTMLToMarkdown.maximumNestingDepth - 1) + "<b>x</b>y") == "**x**y")
    }
}

// MARK: - Hostile input

@Suite struct HostileInput {
    @Test func tenThousandNestedBold() {
        let html = String(repeating: "<b>", count: 10_000) + "x" + String(repeating: "</b>", count: 10_000)
        #expect(md(html) == "**x**")
        #expect(md(String(repeating: "<b>", count: 10_000) + "y") == "**y**")
    }

    @Test func megabyteOfLessThanSigns() {
        #expect(md(String(repeating: "<", count: 1_000_000)) == String(repeating: "\\<", count: 1_000_000))
    }

    @Test func unterminatedTagsAndQuotes() {
        let tags = md(String(repeating: "<a ", count: 100_000))
        #expect(tags.hasPrefix("\\<a \\<a "))
        let quotes = md(String(repeating: "<a x=\"", count: 100_000))
        #expect(quotes.hasPrefix("\\<a x=\"\\<a x=\""))
        let bangs = md(String(repeating: "<!x", count: 100_000))
        #expect(bangs.hasPrefix("\\<!x\\<!x"))
    }

    @Test func unterminatedComment() {
        #expect(md("a<!--" + String(repeating: "-", count: 500_000)) == "a")
    }

    @Test func scriptInURL() {
        let result = convert("<img src=javascript:alert(1)><a href=\"javascript:alert('x')\">y</a>")
        #expect(result.markdown == "![](<javascript:alert(1)>)[y](<javascript:alert('x')>)")
        #expect(result.media.isEmpty)
    }

    @Test func repeatedOpenersWithoutClosers() {
        #expect(md(String(repeating: "[sound:", count: 50_000)) == String(repeating: "\\[sound:", count: 50_000))
        #expect(md(String(repeating: "\\(", count: 50_000)) == String(repeating: "\\\\(", count: 50_000))
        #expect(md(String(repeating: "&#", count: 50_000) + String(repeating: "9", count: 50_000))
            == String(repeating: "&#", count: 50_000) + String(repeating: "9", count: 50_000))
    }

    @Test func deepListsAndQuotesKeepShortPrefixes() {
        // 100 levels stay under the element limit; prefixes stop growing after 32 levels.
        let lists = md(String(repeating: "<ul><li>x", count: 100))
        #expect(lists.hasPrefix("- x\n  - x\n    - x\n"))
        #expect(lists.split(separator: "\n").count == 100)
        #expect(lists.split(separator: "\n").allSatisfy { $0.utf8.count <= 2 * 32 + 1 })
        let quotes = md(String(repeating: "<blockquote>x", count: 200))
        #expect(quotes.hasPrefix("> x\n>\n> > x\n"))
        #expect(quotes.split(separator: "\n").allSatisfy { $0.utf8.count <= 2 * 32 + 1 })
        // Far deeper nesting: the tags beyond the limit are ignored, their text kept.
        let deep = md(String(repeating: "<ul><li>x", count: 10_000) + String(repeating: "</li></ul>", count: 10_000))
        #expect(deep.hasPrefix("- x\n  - x\n"))
        #expect(deep.hasSuffix(String(repeating: "x", count: 10_000 - 128)))
    }

    @Test func manyClosingTagsUnderDeepNesting() {
        let spans = String(repeating: "<span>", count: HTMLToMarkdown.maximumNestingDepth - 1)
        #expect(md(spans + String(repeating: "</p></li></td></b>", count: 50_000) + "<b>x</b>") == "**x**")
    }

    @Test func randomDocumentsKeepInvariants() {
        let fragments = [
            "<b>", "</b>", "<i>", "</i>", "<s>", "</s>", "<div>", "</div>", "<br>", "<p>", "</p>", "<ul>", "<ol>",
            "<li>", "</li>", "</ul>", "</ol>", "<blockquote>", "</blockquote>", "<pre>", "</pre>", "<code>",
            "</code>", "<table>", "<tr>", "<td>", "</td>", "</table>", "<a href=\"x y\">", "</a>", "<h2>", "</h2>",
            "<img src=\"a.png\" alt=\"*\">", "<img src=http://x>", "[sound:s.mp3]", "\\(", "\\)", "\\[", "\\]",
            "[$]", "[/$]", "[latex]", "[/latex]", "{{c1::", "::", "}}", "&amp;", "&#0;", "&#x1F600;", "&nbsp;",
            "&#150;", "<", ">", "&", "\"", "'", "=", "<!--", "-->", "<script>", "</script>", "<svg>", "</svg>",
            "<hr>", "text", " ", "\n", "\t", "\r", "*", "_", "#", "1.", "-", "`", "~", "$", "\u{0}", "\u{85}",
            "\u{1B}", "é", "\u{301}", "😀", "<b", "</", "<!", "<?", "<x y='", "/>",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<1_500 {
            var html = ""
            for _ in 0..<next(60) { html += fragments[next(fragments.count)] }
            let result = convert(html)
            let markdown = result.markdown
            #expect(!containsUnwantedControl(markdown), "\(html.debugDescription)")
            #expect(markdown.unicodeScalars.first.map { !$0.properties.isWhitespace } ?? true, "\(html.debugDescription)")
            #expect(markdown.unicodeScalars.last.map { !$0.properties.isWhitespace } ?? true, "\(html.debugDescription)")
            #expect(Set(result.media).count == result.media.count)
            #expect(Set(result.dropped).count == result.dropped.count)
            #expect(convert(html) == result)
            if !html.contains("<pre>") {
                #expect(!markdown.contains("\n\n\n"), "\(html.debugDescription)")
            }
        }
    }
}
