import Testing
import QuireModel
import QuireParsing
@testable import QuireIngest

/// pdftohtml's XML read, and a document's layout made into a note: headings by size and weight,
/// re-flowed paragraphs without hyphenation, lists, running lines out, page anchors, text that
/// never reads as a card.
@Suite struct PDFMarkdownTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <pdf2xml producer="poppler" version="22.12.0">
        <page number="1" position="absolute" top="0" left="0" height="1000" width="700">
        \t<fontspec id="0" size="9" family="Times" color="#000000"/>
        \t<fontspec id="1" size="24" family="Times" color="#000000"/>
        \t<fontspec id="2" size="12" family="Times" color="#000000"/>
        <text top="20" left="50" width="200" height="10" font="0">Cell Biology &#8212; Chapter 3</text>
        <text top="100" left="50" width="400" height="26" font="1"><b>Enzymes &amp; Energy</b></text>
        <text top="150" left="50" width="600" height="14" font="2">Enzymes lower the activation energy of a reac-</text>
        <text top="166" left="50" width="600" height="14" font="2">tion; they are <i>not</i> consumed by it. Ratio 3::4.</text>
        <text top="200" left="50" width="100" height="14" font="2"><b>Key terms</b></text>
        <text top="220" left="50" width="300" height="14" font="2">&#8226; Substrate: what an enzyme acts on</text>
        <text top="236" left="50" width="300" height="14" font="2">&#8226; Catalyst</text>
        <text top="260" left="50" width="600" height="14" font="2">Q: this line is not a card</text>
        <text top="960" left="340" width="10" height="10" font="0">1</text>
        </page>
        <page number="2" position="absolute" top="0" left="0" height="1000" width="700">
        <text top="20" left="50" width="200" height="10" font="0">Cell Biology &#8212; Chapter 3</text>
        <text top="150" left="50" width="600" height="14" font="2">A second page of body text about enzymes and <b>their</b> rates.</text>
        <text top="960" left="340" width="10" height="10" font="0">2</text>
        </page>
        <page number="3" position="absolute" top="0" left="0" height="1000" width="700">
        </page>
        </pdf2xml>
        """

    @Test func layoutIsRead() {
        let layout = PDFLayout(xml: Array(Self.xml.utf8))
        #expect(layout.pages.map(\.number) == [1, 2, 3])
        let first = layout.pages[0].lines
        #expect(first[1] == PDFLayout.Line(top: 100, left: 50, width: 400, height: 26, size: 24, bold: true, text: "Enzymes & Energy"))
        #expect(first[0].text == "Cell Biology — Chapter 3")
        #expect(first[3].text == "tion; they are not consumed by it. Ratio 3::4." && !first[3].bold)
        // Fonts declared on page 1 apply on page 2; a partly bold line is not bold.
        #expect(layout.pages[1].lines[1].size == 12 && !layout.pages[1].lines[1].bold)
        #expect(layout.pages[2].lines.isEmpty)
    }

    @Test func noteBodyFromTheLayout() throws {
        let result = PDFMarkdown.convert(PDFLayout(xml: Array(Self.xml.utf8)))
        #expect(result.body == """
            <!-- page 1 -->

            ## Enzymes & Energy

            Enzymes lower the activation energy of a reaction; they are not consumed by it. Ratio 3:\\:4.

            ### Key terms

            - Substrate: what an enzyme acts on
            - Catalyst

            Q\\: this line is not a card

            <!-- page 2 -->

            A second page of body text about enzymes and their rates.

            <!-- page 3 -->

            """)
        #expect(result.emptyPages == [3] && result.headings == 2 && result.removedLines == 4 && result.firstHeading == "Enzymes & Energy")
        // The note reads as text only: no card, no warning; chunks know their pages.
        let bytes = Array(("---\ntitle: T\n---\n" + result.body).utf8)
        let (note, diagnostics) = NoteParser.parse(bytes, path: "T.md")
        #expect(note?.cards.isEmpty == true && diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test func pageAnchors() {
        #expect(PageAnchor.line(12) == "<!-- page 12 -->")
        #expect(PageAnchor.page(of: "<!-- page 12 -->") == 12)
        #expect(PageAnchor.page(of: "<!-- page 12 -->  ") == 12)
        for bad in ["<!-- page -->", "<!-- page x -->", "<!-- page 99999999 -->", "text <!-- page 2 -->", "<!-- Page 2 -->"] {
            #expect(PageAnchor.page(of: Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test func hostileXMLIsSkippedNotTrusted() {
        // Unclosed tags, a '<' in text, huge numbers, unknown entities: read without a crash.
        let layout = PDFLayout(xml: Array("""
            <page number="99999999999999999999" height="-5"><fontspec id="0" size="1e308"/>
            <text top="x" left="1" width="1" height="1" font="0">a &bogus; b &#99999999; c <b>d</text>
            <text top="1" font="7">unclosed
            """.utf8))
        #expect(layout.pages.count == 1)
        #expect(layout.pages[0].lines.first?.text == "a &bogus; b \u{FFFD} c d")
        _ = PDFMarkdown.convert(layout)
        #expect(PDFLayout(xml: Array("<<<<>>>>".utf8)).pages.isEmpty)
    }
}

/// What a trial on real PDFs (a book chapter, beamer slides, a two-column paper) found, each kept fixed.
@Suite struct PDFMarkdownRealTrialTests {
    static func line(_ top: Double, _ text: String, left: Double = 50, width: Double = 500, size: Double = 12, bold: Bool = false) -> PDFLayout.Line {
        PDFLayout.Line(top: top, left: left, width: width, height: size + 2, size: size, bold: bold, text: text)
    }

    @Test func offPageOverlayTextIsLeftOut() {
        let layout = PDFLayout(xml: Array("""
            <page number="1" height="600" width="800"><fontspec id="0" size="12"/>
            <text top="100" left="50" width="100" height="14" font="0">shown now</text>
            <text top="-2911" left="3059" width="100" height="14" font="0">shown on a later slide</text>
            </page>
            """.utf8))
        #expect(layout.pages[0].lines.map(\.text) == ["shown now"])
    }

    @Test func alternatingRunningHeadsAndFoliosAreLeftOut() {
        var pages: [PDFLayout.Page] = []
        for n in 1...10 {
            let head = n % 2 == 0 ? "\(250 + n) When Models meet Data" : "8.\(n) Empirical Risk Minimization \(250 + n)"
            pages.append(PDFLayout.Page(number: n, height: 1000, width: 700, lines: [
                Self.line(20, head, size: 9),
                Self.line(200, "Body text of page \(n), a sentence long enough to be the body of the page."),
                Self.line(960, "Draft (2019-04-08) of Mathematics for Machine Learning. Feedback to the authors", size: 9),
            ]))
        }
        let result = PDFMarkdown.convert(PDFLayout(pages: pages))
        #expect(!result.body.contains("Models meet") && !result.body.contains("Risk Minimization") && !result.body.contains("Draft"), "\(result.body)")
        #expect(result.body.contains("Body text of page 7"))
    }

    @Test func symbolsAreNotHeadingsAndParagraphsBreakAtIndentsAndShortLines() {
        let page = PDFLayout.Page(number: 1, height: 1000, width: 700, lines: [
            Self.line(100, "?", size: 24, bold: true),
            Self.line(130, "𝜃", size: 24),
            Self.line(200, "The first paragraph runs across the whole column of the page and"),
            Self.line(216, "ends here, well short.", width: 150),
            Self.line(232, "A second paragraph starts on the next line with no gap at all and"),
            Self.line(248, "ends with a full line that reaches the right edge of the text col."),
            Self.line(264, "An indented third paragraph starts here, set in from the margin.", left: 70, width: 480),
            Self.line(280, "It is the last one, and mentions log-likelihood and the log-"),
            Self.line(296, "likelihood again."),
        ])
        let result = PDFMarkdown.convert(PDFLayout(pages: [page]))
        #expect(result.headings == 0, "\(result.body)")
        #expect(result.body.contains("\n\nThe first paragraph runs across the whole column of the page and ends here, well short.\n\n"), "\(result.body)")
        #expect(result.body.contains("\n\nA second paragraph starts on the next line with no gap at all and ends with a full line that reaches the right edge of the text col.\n\n"), "\(result.body)")
        #expect(result.body.contains("\n\nAn indented third paragraph"), "\(result.body)")
        // The document writes log-likelihood with its hyphen: broken at a line's end, it keeps it.
        #expect(result.body.contains("the log-likelihood again."), "\(result.body)")
    }

    @Test func simpleTablesAreKeptAndRunningColumnsAreNot() {
        func line(_ top: Double, _ left: Double, _ width: Double, _ text: String) -> PDFLayout.Line {
            PDFLayout.Line(top: top, left: left, width: width, height: 15, size: 11, bold: false, text: text)
        }
        let lines = [
            line(48, 47, 600, "Common enzymes and what they act on."),
            line(95, 47, 62, "Enzyme"), line(95, 316, 76, "Substrate"), line(95, 585, 62, "Product | yield"),
            line(128, 47, 63, "Amylase"), line(128, 316, 48, "Starch"), line(128, 585, 58, "Maltose"),
            line(161, 47, 49, "Lipase"), line(161, 316, 32, "Fats"), line(161, 585, 173, "Fatty acids :: glycerol"),
            line(240, 47, 414, "Each enzyme works best at its own temperature."),
            // A matrix of numbers (maths), and two columns of running text: no tables.
            line(280, 100, 10, "9"), line(280, 130, 10, "6"), line(296, 100, 10, "6"), line(296, 130, 10, "5"),
            line(330, 47, 280, "The enzyme binds its substrate at the active"), line(330, 360, 280, "site, where the reaction takes place and the"),
            line(346, 47, 280, "site and lowers the energy the reaction needs"), line(346, 360, 280, "product is released when the reaction ends."),
        ]
        let result = PDFMarkdown.convert(PDFLayout(pages: [PDFLayout.Page(number: 1, height: 800, width: 700, lines: lines)]))
        #expect(result.body.contains("""
            Common enzymes and what they act on.

            | Enzyme | Substrate | Product \\| yield |
            | --- | --- | --- |
            | Amylase | Starch | Maltose |
            | Lipase | Fats | Fatty acids :\\: glycerol |

            Each enzyme works best at its own temperature.
            """), "\(result.body)")
        #expect(!result.body.contains("| 9 |") && !result.body.contains("| The enzyme"), "\(result.body)")
        // The note reads back as text with a table: no card.
        let (note, found) = NoteParser.parse(Array(("# T\n" + result.body).utf8), path: "T.md")
        #expect(note?.cards.isEmpty == true && found.isEmpty, "\(found)")
        // A cell that would read as a card's marker: the rows stay paragraphs, escaped there.
        let marked = [line(95, 47, 62, "Term"), line(95, 316, 76, "Meaning"), line(128, 47, 63, "Q: why"), line(128, 316, 48, "because")]
        let text = PDFMarkdown.convert(PDFLayout(pages: [PDFLayout.Page(number: 1, height: 800, width: 700, lines: marked)])).body
        #expect(!text.contains("| --- |") && text.contains("Q\\: why"), "\(text)")
    }

    @Test func aParagraphCutByAPageBreakIsJoined() {
        func line(_ top: Double, _ text: String) -> PDFLayout.Line {
            PDFLayout.Line(top: top, left: 50, width: 600, height: 14, size: 12, bold: false, text: text)
        }
        let pages = [
            PDFLayout.Page(number: 1, height: 800, width: 700, lines: [line(100, "Enzymes lower the activation energy of a reac-")]),
            PDFLayout.Page(number: 2, height: 800, width: 700, lines: [line(100, "tion. The enzyme binds its"), line(116, "substrate at the")]),
            PDFLayout.Page(number: 3, height: 800, width: 700, lines: [line(100, "active site."), line(140, "A new paragraph starts here.")]),
            PDFLayout.Page(number: 4, height: 800, width: 700, lines: [line(100, "lower case after a full paragraph stays on its page.")]),
        ]
        let body = PDFMarkdown.convert(PDFLayout(pages: pages)).body
        #expect(body == """
            <!-- page 1 -->

            Enzymes lower the activation energy of a reaction. The enzyme binds its substrate at the active site.

            <!-- page 2 -->

            <!-- page 3 -->

            A new paragraph starts here.

            <!-- page 4 -->

            lower case after a full paragraph stays on its page.

            """, "\(body)")
    }
}
