import Testing
@testable import QuireIngest

/// pdftohtml's fragments joined into the lines a reader sees (as a LaTeX cheat sheet sets them):
/// math's sub- and superscripts on their line, a Dingbats bullet and a bold term, a table's cells
/// and a second column apart; TeX's math glyphs read back.
@Suite struct PDFLayoutLinesTests {
    static let xml = """
        <page number="1" position="absolute" top="0" left="0" height="918" width="1188">
        \t<fontspec id="6" size="12" family="UVAPRM+LMRoman8" color="#000000"/>
        \t<fontspec id="7" size="12" family="ZNYFGL+LMMathSymbols8" color="#000000"/>
        \t<fontspec id="8" size="12" family="BQQZAR+LMMathItalic8" color="#000000"/>
        \t<fontspec id="9" size="9" family="VLLCYC+LMRoman6" color="#000000"/>
        \t<fontspec id="11" size="12" family="FJECYP+Dingbats" color="#020e86"/>
        \t<fontspec id="12" size="12" family="TJVHSN+LMRoman8" color="#020e86"/>
        \t<fontspec id="22" size="9" family="ZEEXTZ+LMMathSymbols6" color="#000000"/>
        <text top="288" left="55" width="149" height="16" font="6">Given a set of data points</text>
        <text top="290" left="209" width="6" height="11" font="7">{</text>
        <text top="291" left="216" width="7" height="11" font="8"><i>x</i></text>
        <text top="289" left="223" width="14" height="8" font="9">(1)</text>
        <text top="290" left="238" width="6" height="11" font="7">}</text>
        <text top="323" left="55" width="9" height="13" font="11">r</text>
        <text top="323" left="69" width="119" height="11" font="12"><b>Type of prediction</b></text>
        <text top="320" left="193" width="392" height="16" font="6">– The different types are summed up in the table</text>
        <text top="320" left="599" width="300" height="16" font="6">A second column on the same baseline</text>
        <text top="413" left="197" width="94" height="16" font="6">Linear regression</text>
        <text top="413" left="309" width="213" height="16" font="6">Logistic regression, SVM</text>
        <text top="730" left="599" width="23" height="16" font="6">that</text>
        <text top="733" left="627" width="5" height="11" font="8"><i>`</i></text>
        <text top="730" left="632" width="3" height="8" font="22">0</text>
        <text top="730" left="636" width="5" height="16" font="6">(</text>
        <text top="733" left="641" width="6" height="11" font="8"><i>θ</i></text>
        <text top="730" left="647" width="40" height="16" font="6">) = 0.</text>
        </page>
        """

    @Test func fragmentsBecomeLines() {
        let lines = PDFLayout(xml: Array(Self.xml.utf8)).pages[0].lines
        #expect(lines.map(\.text) == ["Given a set of data points {x(1)}", "Type of prediction – The different types are summed up in the table",
                                      "A second column on the same baseline", "Linear regression", "Logistic regression, SVM",
                                      "that ℓ′(θ) = 0."])
        #expect(lines[0].size == 12 && lines[0].left == 55 && lines[0].right == 244 && !lines[0].bullet && lines[0].lead == nil)
        #expect(lines[1].bullet && lines[1].lead == "Type of prediction" && !lines[1].bold)
        #expect(lines[2].left == 599 && !lines[2].bullet)
    }

    @Test func aBulletedDefinitionIsOneItemWithItsHangingLines() {
        let line = { (top: Double, left: Double, text: String) in
            PDFLayout.Line(top: top, left: left, width: 500, height: 14, size: 12, bold: false, text: text)
        }
        var first = line(100, 55, "Loss function – A loss function takes the predicted value and")
        first.bullet = true
        first.lead = "Loss function"
        var second = line(150, 55, "Cost function: The cost function J assesses a model.")
        second.lead = "Cost function:"
        let page = PDFLayout.Page(number: 1, height: 1000, width: 700, lines: [
            first, line(114, 55, "outputs how different they are."), line(128, 55, "The common loss functions are in the table below:"),
            second, line(164, 55, "It is defined with the loss."),
        ])
        let body = PDFMarkdown.convert(PDFLayout(pages: [page])).body
        #expect(body == """
            <!-- page 1 -->

            - **Loss function** – A loss function takes the predicted value and outputs how different they are. The common loss functions are in the table below:

            **Cost function**: The cost function J assesses a model. It is defined with the loss.

            """, "\(body)")
    }

    @Test func aHeaderWithABlankCornerAndCentredColumnsIsATable() {
        func cell(_ top: Double, _ left: Double, _ width: Double, _ text: String, bold: Bool = false) -> PDFLayout.Line {
            PDFLayout.Line(top: top, left: left, width: width, height: 11, size: 12, bold: bold, text: text)
        }
        let page = PDFLayout.Page(number: 1, height: 1000, width: 700, lines: [
            cell(372, 209, 69, "Regression", bold: true), cell(372, 387, 58, "Classifier", bold: true),
            cell(394, 119, 58, "Outcome", bold: true), cell(391, 212, 63, "Continuous"), cell(391, 402, 29, "Class"),
            cell(416, 117, 61, "Examples", bold: true), cell(413, 197, 94, "Linear regression"), cell(413, 309, 213, "Logistic regression, SVM"),
        ])
        let body = PDFMarkdown.convert(PDFLayout(pages: [page])).body
        #expect(body.contains("|  | Regression | Classifier |\n| --- | --- | --- |\n| Outcome | Continuous | Class |\n| Examples | Linear regression | Logistic regression, SVM |\n"), "\(body)")
    }

    /// The authors and date under a title are lines, not headings; bold cells side by side are a
    /// row, not a heading.
    @Test func aTitleBlockAndARowOfBoldCellsAreNoHeadings() {
        func line(_ top: Double, _ left: Double, _ text: String, size: Double = 12, bold: Bool = false) -> PDFLayout.Line {
            PDFLayout.Line(top: top, left: left, width: Double(text.count) * size * 0.5, height: size + 2, size: size, bold: bold, text: text)
        }
        let page = PDFLayout.Page(number: 1, height: 1000, width: 700, lines: [
            line(80, 50, "VIP Cheatsheet: Supervised Learning", size: 26), line(150, 50, "Afshine Amidi and Shervine Amidi", size: 18),
            line(190, 50, "September 9, 2018", size: 18), line(250, 50, "Introduction to Supervised Learning", size: 13, bold: true),
            line(280, 50, "Given a set of data points, we want to build a classifier that learns to predict."),
            line(320, 50, "Least squared", bold: true), line(320, 250, "Logistic", bold: true), line(320, 450, "Hinge", bold: true),
            line(350, 50, "A paragraph after the row of cells, long enough to be text."),
        ])
        let result = PDFMarkdown.convert(PDFLayout(pages: [page]))
        #expect(result.body.contains("## VIP Cheatsheet: Supervised Learning\n\nAfshine Amidi and Shervine Amidi\n\nSeptember 9, 2018\n\n### Introduction"),
                "\(result.body)")
        #expect(result.body.contains("\n\nLeast squared · Logistic · Hinge\n\n"), "\(result.body)")
        #expect(result.headings == 2, "\(result.body)")
    }

    @Test func texMathGlyphs() {
        #expect(TeXMath(family: "BQQZAR+LMMathItalic8")?.decoded("`(θ)") == "ℓ(θ)")
        #expect(TeXMath(family: "CMSY10")?.decoded("0") == "′")
        #expect(TeXMath(family: "REPWZB+LMMathExtension10")?.decoded("X") == "∑")
        #expect(TeXMath(family: "LMRoman10") == nil)
    }
}

/// A page checked for text drawn as shapes: its edges outside the text layer's lines.
@Suite struct PDFInkTests {
    /// A white page of `width` × `height` with black strokes (every other column) in `box`.
    static func image(width: Int, height: Int, strokes box: (x: Range<Int>, y: Range<Int>)) -> PDFInk.GrayImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in box.y { for x in box.x where x % 2 == 0 { pixels[y * width + x] = 0 } }
        return PDFInk.GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test func pgmIsRead() {
        let pgm = Array("P5\n# made by hand\n3 2\n255\n".utf8) + [0, 128, 255, 1, 2, 3]
        #expect(PDFInk.GrayImage(pgm: pgm) == PDFInk.GrayImage(width: 3, height: 2, pixels: [0, 128, 255, 1, 2, 3]))
        for bad in ["P6\n3 2\n255\n", "P5\n3\n", "P5\n99999999 2\n255\n", "P5\n3 2\n65535\n", "P5\n3 2\n255\n\u{0}"] {
            #expect(PDFInk.GrayImage(pgm: Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func strokesOutsideTheTextLayerAreFound() {
        // A 100 × 100 image of a 100 × 100 page: strokes in the lower half.
        let drawn = Self.image(width: 100, height: 100, strokes: (10..<90, 60..<80))
        let title = PDFLayout.Line(top: 10, left: 10, width: 80, height: 10, size: 10, bold: true, text: "Title")
        var page = PDFLayout.Page(number: 1, height: 100, width: 100, lines: [title])
        #expect(PDFInk.uncoveredEdges(drawn, page: page) > 0.1)
        #expect(PDFInk.needsOCR(page, image: drawn))
        // The same strokes under a text line: the text layer has them.
        page.lines.append(PDFLayout.Line(top: 60, left: 10, width: 80, height: 20, size: 10, bold: false, text: "Body"))
        #expect(PDFInk.uncoveredEdges(drawn, page: page) == 0 && !PDFInk.needsOCR(page, image: drawn))
        // A flat dark bar is no text: its edges are its border alone.
        var bar = PDFInk.GrayImage(width: 100, height: 100, pixels: [UInt8](repeating: 255, count: 10_000))
        for k in 0..<2_000 { bar.pixels[k] = 40 }
        #expect(!PDFInk.needsOCR(PDFLayout.Page(number: 1, height: 100, width: 100, lines: [title]), image: bar))
        // A page that holds a book's worth of text is not checked.
        let full = PDFLayout.Page(number: 1, height: 100, width: 100, lines: [PDFLayout.Line(top: 0, left: 0, width: 1, height: 1, size: 1,
                                                                                              bold: false, text: String(repeating: "a", count: 2_000))])
        #expect(!PDFInk.needsOCR(full, image: drawn))
    }

    /// Figures in poppler's XML past any real page (a hostile PDF's) are held within bounds: a
    /// page's size, a line's place, a font's size; nothing computed from them overflows.
    @Test func numbersPastAnyPageAreBounded() {
        let xml = #"<pdf2xml><fontspec id="0" size="1e308" family="x"/><page number="1" height="1e-300" width="inf">"#
            + #"<text top="1e300" left="-1e300" width="nan" height="1e400" font="0">far away</text></page></pdf2xml>"#
        let layout = PDFLayout(xml: Array(xml.utf8))
        let page = layout.pages.first
        #expect(page?.width == 0 && page.map { $0.height < 1 } == true)
        let line = PDFLayout.Line(top: 1e6, left: -1e6, width: 1e6, height: 1e6, size: 1, bold: false, text: "x")
        let tiny = PDFLayout.Page(number: 1, height: 1e-300, width: 1e-300, lines: [line])
        #expect(PDFInk.uncoveredEdges(Self.image(width: 10, height: 10, strokes: (0..<5, 0..<5)), page: tiny) == 0)
        _ = PDFMarkdown.convert(layout)
    }

    /// A page without text is read by OCR when it shows ink; a blank one (a PDF of thousands of
    /// empty pages) costs its small rendering only; one that could not be rendered is read.
    @Test func aPageWithoutTextIsReadOnlyWhenItShowsInk() {
        let empty = PDFLayout.Page(number: 1, height: 100, width: 100, lines: [])
        let blank = PDFInk.GrayImage(width: 100, height: 100, pixels: [UInt8](repeating: 255, count: 10_000))
        #expect(!PDFInk.needsOCR(empty, image: blank))
        #expect(PDFInk.needsOCR(empty, image: Self.image(width: 100, height: 100, strokes: (40..<60, 45..<55))))
        #expect(PDFInk.needsOCR(empty, image: nil))
        // A page with text that could not be rendered is taken as its text layer says.
        let title = PDFLayout.Line(top: 10, left: 10, width: 80, height: 10, size: 10, bold: true, text: "Title")
        #expect(!PDFInk.needsOCR(PDFLayout.Page(number: 1, height: 100, width: 100, lines: [title]), image: nil))
    }

    /// An OCR reading merged into a page with text: the lines the text layer lacks go in, in
    /// their place; those it has are not doubled; a bullet read as `e` is a bullet.
    @Test func ocrLinesGoWhereTheTextLayerHasNone() {
        let tsv = """
            level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
            1\t1\t0\t0\t0\t0\t0\t0\t1000\t1000\t-1\t
            5\t1\t1\t1\t1\t1\t100\t100\t300\t40\t95\tSlide
            5\t1\t1\t1\t1\t2\t420\t100\t300\t40\t95\ttitle
            5\t1\t2\t1\t1\t1\t100\t500\t20\t20\t40\te
            5\t1\t2\t1\t1\t2\t140\t500\t200\t30\t93\tDrawn
            5\t1\t2\t1\t1\t3\t360\t500\t200\t30\t91\tpoint
            5\t1\t3\t1\t1\t1\t100\t600\t200\t30\t92\tSecond
            5\t1\t3\t1\t1\t2\t320\t600\t200\t30\t45\tpoimt
            """
        let page = PDFLayout.Page(number: 1, height: 100, width: 100, lines: [
            PDFLayout.Line(top: 10, left: 10, width: 62, height: 4, size: 4, bold: true, text: "Slide title"),
            PDFLayout.Line(top: 80, left: 10, width: 50, height: 3, size: 3, bold: false, text: "Footnote in the text layer"),
        ])
        let (merged, words) = PDFMarkdown.withOCR(page, OCRText(tsv: Array(tsv.utf8)))
        #expect(merged.lines.map(\.text) == ["Slide title", "Drawn point", "Second poimt (?)", "Footnote in the text layer"])
        #expect(merged.lines[1].bullet && merged.lines[1].opensBlock && merged.lines[2].opensBlock && words.count == 4)
        let result = PDFMarkdown.convert(PDFLayout(pages: [page]), ocr: [1: OCRText(tsv: Array(tsv.utf8))])
        #expect(result.ocrPages == [1] && result.body.contains("*Part of page 1 was read from its image (OCR, mean confidence 80 %); words followed by (?) are uncertain.*"),
                "\(result.body)")
        #expect(result.body.contains("- Drawn point\n\nSecond poimt (?)\n"), "\(result.body)")
    }
}
