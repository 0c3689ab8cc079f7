import Testing
@testable import QuireMarkdown

private let esc = "\u{1B}["

/// Removes SGR escape sequences.
private func stripANSI(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
        if inEscape {
            if scalar == "m" { inEscape = false }
        } else if scalar == "\u{1B}" {
            inEscape = true
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

@Suite struct MarkdownRendererTests {
    @Test func headings() {
        let source = "# Title *x*\n\n## Sub\n\n### Third"
        #expect(MarkdownRenderer.plain(source, width: 40) == "# Title x\n\n## Sub\n\n### Third\n")
        #expect(MarkdownRenderer.ansi(source, color: true, width: 40) ==
            "\(esc)1;35m#\(esc)0m \(esc)1;35mTitle\(esc)0m \(esc)1;3;35mx\(esc)0m\n\n"
            + "\(esc)1;34m##\(esc)0m \(esc)1;34mSub\(esc)0m\n\n\(esc)1;33m###\(esc)0m \(esc)1;33mThird\(esc)0m\n")
    }

    @Test func inlineStyles() {
        let source = "Some **bold**, *italic*, `code`, ~~gone~~ and [link](http://e.org)."
        #expect(MarkdownRenderer.plain(source) == "Some bold, italic, code, gone and link (http://e.org).\n")
        #expect(MarkdownRenderer.ansi(source, color: true) ==
            "Some \(esc)1mbold\(esc)0m, \(esc)3mitalic\(esc)0m, \(esc)36mcode\(esc)0m, \(esc)9mgone\(esc)0m and "
            + "\(esc)4mlink\(esc)0m \(esc)2m(http://e.org)\(esc)0m.\n")
    }

    @Test func wrapsParagraphsToWidth() {
        let source = "One two three four five six seven eight nine ten eleven twelve."
        #expect(MarkdownRenderer.plain(source, width: 20) == "One two three four\nfive six seven eight\nnine ten eleven\ntwelve.\n")
    }

    /// A card's side shows its line breaks (as Anki's `<br>` and Obsidian show them); prose
    /// and the manual reflow theirs.
    @Test func aSidesLineBreaksAreKept() {
        let side = "日本現存最古の書籍である。\n年代：712年\n\n- a\n  b"
        #expect(MarkdownRenderer.plain(side, width: 40, lineBreaks: true) == "日本現存最古の書籍である。\n年代：712年\n\n• a\n  b\n")
        #expect(MarkdownRenderer.plain(side, width: 40) == "日本現存最古の書籍である。 年代：712年\n\n• a b\n")
        #expect(MarkdownRenderer.plain("one two three\nfour", width: 8, lineBreaks: true) == "one two\nthree\nfour\n")
        #expect(MarkdownRenderer.ansi(revealing: "The X\nis Y.", hiddenIn: "The [...]\nis Y.", color: false, lineBreaks: true) == "The [X]\nis Y.\n")
    }

    @Test func wideCharactersCountTwoColumns() {
        let source = "日本語の文章はとても長いのでここで折り返す必要があります"
        #expect(MarkdownRenderer.plain(source, width: 20) == "日本語の文章はとても\n長いのでここで折り返\nす必要があります\n")
        let accented = String(repeating: "e\u{301}", count: 4) + " " + String(repeating: "e\u{301}", count: 5)
        #expect(MarkdownRenderer.plain(accented, width: 10) == accented + "\n")
        #expect(MarkdownRenderer.plain(accented + " x", width: 10) == accented + "\nx\n")
    }

    @Test func longWordsAreSplit() {
        #expect(MarkdownRenderer.plain("averyveryverylongwordthatcannotfit here", width: 10) ==
            "averyveryv\nerylongwor\ndthatcanno\ntfit here\n")
    }

    @Test func lists() {
        let source = "- a\n- b\n  - c\n    - d\n- [ ] open\n- [x] done\n\n9. nine\n10. ten"
        #expect(MarkdownRenderer.plain(source, width: 40) ==
            "• a\n• b\n  ◦ c\n    ▪ d\n☐ open\n☑ done\n\n 9. nine\n10. ten\n")
        #expect(MarkdownRenderer.plain("- loose\n\n- list") == "• loose\n\n• list\n")
        #expect(MarkdownRenderer.plain("- item text that wraps around", width: 12) == "• item text\n  that wraps\n  around\n")
    }

    @Test func blockQuotes() {
        let source = "> quoted text that wraps at width\n>\n> > nested"
        #expect(MarkdownRenderer.plain(source, width: 20) == "│ quoted text that\n│ wraps at width\n│\n│ │ nested\n")
        #expect(MarkdownRenderer.ansi("> q", color: true) == "\(esc)2m│\(esc)0m q\n")
    }

    @Test func fencedCodeBlocks() {
        let source = "```swift\nlet x = 1\n\nprint(x)\n```"
        #expect(MarkdownRenderer.plain(source) == "    let x = 1\n\n    print(x)\n")
        #expect(MarkdownRenderer.ansi(source, color: true) == "    \(esc)32mlet x = 1\(esc)0m\n\n    \(esc)32mprint(x)\(esc)0m\n")
    }

    @Test func tablesAlignColumns() {
        let source = "| L | C | R |\n|:--|:-:|--:|\n| a | b | c |\n| long left | 日本 | 12345 |"
        #expect(MarkdownRenderer.plain(source) == """
            ┌───────────┬──────┬───────┐
            │ L         │  C   │     R │
            ├───────────┼──────┼───────┤
            │ a         │  b   │     c │
            │ long left │ 日本 │ 12345 │
            └───────────┴──────┴───────┘

            """)
        let colored = MarkdownRenderer.ansi("| H |\n|---|\n| v |", color: true)
        #expect(colored == "\(esc)2m┌───┐\(esc)0m\n\(esc)2m│\(esc)0m \(esc)1mH\(esc)0m \(esc)2m│\(esc)0m\n"
            + "\(esc)2m├───┤\(esc)0m\n\(esc)2m│\(esc)0m v \(esc)2m│\(esc)0m\n\(esc)2m└───┘\(esc)0m\n")
    }

    @Test func tablesAreCutToWidth() {
        let source = "| Name | Description |\n|---|---|\n| x | a very long description that will not fit |"
        #expect(MarkdownRenderer.plain(source, width: 30) == """
            ┌──────┬─────────────────────┐
            │ Name │ Description         │
            ├──────┼─────────────────────┤
            │ x    │ a very long descri… │
            └──────┴─────────────────────┘

            """)
    }

    @Test func thematicBreakFillsWidth() {
        #expect(MarkdownRenderer.plain("a\n\n---\n\nb", width: 12) == "a\n\n────────────\n\nb\n")
    }

    @Test func htmlCommentsAreHiddenAndLinksShowTheirURL() {
        let source = "Text <!-- hidden --> shown\n\n<!-- block comment -->\n\n![alt](p.png) and <https://x.org>"
        #expect(MarkdownRenderer.plain(source) == "Text shown\n\n[image: alt] (p.png) and https://x.org\n")
    }

    @Test func footnotes() {
        #expect(MarkdownRenderer.plain("Fact[^a].\n\n[^a]: Source.") == "Fact[1].\n\n[1] Source.\n")
    }

    @Test func emptyInputRendersNothing() {
        #expect(MarkdownRenderer.plain("") == "")
        #expect(MarkdownRenderer.ansi("  \n", color: true) == "")
    }

    @Test func plainIsColourWithoutEscapes() {
        for width in [20, 50, 80] {
            let colored = MarkdownRenderer.ansi(realisticNote, color: true, width: width)
            #expect(colored.contains(esc))
            #expect(stripANSI(colored) == MarkdownRenderer.plain(realisticNote, width: width))
            #expect(MarkdownRenderer.ansi(realisticNote, color: false, width: width) == MarkdownRenderer.plain(realisticNote, width: width))
        }
    }

    @Test func noLineIsWiderThanWidth() {
        for width in [20, 40, 80] {
            for line in MarkdownRenderer.plain(realisticNote, width: width).split(separator: "\n") {
                #expect(DisplayWidth.of(line) <= width, "\(line)")
            }
        }
    }
}

/// Text from a vault never reaches the terminal as a control sequence.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownNotSent() {
        #expect(TerminalText.visible("plain text\tand a tab\n") == "plain text\tand a tab\n")
        #expect(TerminalText.visible("\u{1B}]0;title\u{07}") == "^[]0;title^G")
        #expect(TerminalText.visible("\u{1B}]52;c;aGVsbG8=\u{07}") == "^[]52;c;aGVsbG8=^G")
        #expect(TerminalText.visible("clear\u{1B}[2J") == "clear^[[2J")
        #expect(TerminalText.visible("nul\u{0}del\u{7F}csi\u{9B}") == "nul^@del^?csi<U+009B>")
        #expect(TerminalText.visible("a\r\nb", keepLineBreaks: false) == "a^M^Jb")
        #expect(TerminalText.visible("é 你好 👋") == "é 你好 👋")
    }

    @Test func renderedNotesShowTheirEscapes() {
        let out = MarkdownRenderer.ansi("Q \u{1B}]0;pwned\u{07} and \u{1B}[2J", color: true)
        #expect(!out.contains("\u{07}"))
        #expect(!out.contains("\u{1B}]"))
        #expect(!out.contains("\u{1B}[2J"))
        #expect(out.contains("^[]0;pwned^G"))
    }
}
