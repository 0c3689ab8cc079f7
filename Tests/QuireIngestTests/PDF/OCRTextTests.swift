import Testing
@testable import QuireIngest

/// Tesseract's TSV read into paragraphs and lines; uncertain words marked; a page read by OCR in a note.
@Suite struct OCRTextTests {
    static let tsv = """
        level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
        1\t1\t0\t0\t0\t0\t0\t0\t2481\t3508\t-1\t
        5\t1\t1\t1\t1\t1\t226\t352\t398\t50\t96.1\tPhotosynthesis
        5\t1\t1\t1\t1\t2\t646\t356\t225\t36\t95.0\tmakes
        5\t1\t1\t1\t1\t3\t646\t356\t225\t36\t91.0\tglu-
        5\t1\t1\t1\t2\t1\t226\t444\t200\t50\t90.0\tcose
        5\t1\t1\t1\t2\t2\t226\t444\t200\t50\t41.5\tfr0m
        5\t1\t1\t1\t2\t3\t226\t444\t200\t50\t93.0\tlight::
        5\t1\t2\t1\t1\t1\t226\t600\t200\t50\t97.0\tSecond
        5\t1\t2\t1\t1\t2\t226\t600\t200\t50\tx\tbroken
        5\t1\t2\t1\t1\t3\t226\t600\t200\t50\t97.0\tparagraph.
        """

    @Test func tsvToParagraphsAndMarkdown() {
        let text = OCRText(tsv: Array(Self.tsv.utf8))
        #expect(text.paragraphs.count == 2 && text.paragraphs[0].count == 2)
        #expect(text.words.map(\.text) == ["Photosynthesis", "makes", "glu-", "cose", "fr0m", "light::", "Second", "paragraph."])
        #expect(text.markdown == "Photosynthesis makes glucose fr0m (?) light:\\:\n\nSecond paragraph.")
        #expect(abs(text.meanConfidence - 87.575) < 0.01)
        #expect(OCRText(tsv: Array("garbage\n\t\t\n".utf8)).words.isEmpty)
    }

    /// A bullet tesseract read as a letter (`e`, `«`) before a capital opens a list item; the
    /// line after it that no bullet opens is its wrapped line; `e` before a lower-case word is a word.
    @Test func misreadBulletsAreListItems() {
        func w(_ t: String) -> OCRText.Word { OCRText.Word(text: t, confidence: 95) }
        let text = OCRText(paragraphs: [[[w("Key"), w("points:")], [w("e"), w("The"), w("first"), w("point")],
                                         [w("wraps"), w("here.")], [w("«"), w("Second"), w("point.")]],
                                        [[w("e"), w("mail"), w("is"), w("fine.")]]])
        #expect(text.markdown == "Key points:\n- The first point wraps here.\n- Second point.\n\ne mail is fine.")
    }

    @Test func aPageWithoutTextIsReadByOCR() {
        let layout = PDFLayout(pages: [PDFLayout.Page(number: 1, height: 100, width: 100, lines: []),
                                       PDFLayout.Page(number: 2, height: 100, width: 100, lines: [])])
        let result = PDFMarkdown.convert(layout, ocr: [1: OCRText(tsv: Array(Self.tsv.utf8))])
        #expect(result.ocrPages == [1] && result.emptyPages == [2])
        #expect(result.body.hasPrefix("<!-- page 1 -->\n\n*Page 1 was read from its image (OCR, mean confidence 88 %); words followed by (?) are uncertain.*\n\nPhotosynthesis makes glucose"))
    }
}
