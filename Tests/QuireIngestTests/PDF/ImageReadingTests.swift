import Testing
@testable import QuireIngest

/// How much of what looks like text a reading covers, and which reading is kept.
@Suite struct ImageReadingTests {
    /// A 64 × 64 white image with dark strokes (every third column) in rows `rows`, columns `columns`.
    static func image(strokes rows: Range<Int>, _ columns: Range<Int>, ink: UInt8 = 20, ground: UInt8 = 240) -> PDFInk.GrayImage {
        var pixels = [UInt8](repeating: ground, count: 64 * 64)
        for y in rows { for x in columns where x % 3 == 0 { pixels[y * 64 + x] = ink } }
        return PDFInk.GrayImage(width: 64, height: 64, pixels: pixels)
    }

    @Test func textLikeCellsAreStrokesNotFlatsOrBlocks() {
        // Strokes in the top half: the top two rows of 16-pixel cells, nothing below.
        let cells = ImageReading.textLikeCells(Self.image(strokes: 0..<32, 0..<64))
        #expect(cells.count == 8 && cells.allSatisfy { $0.bottom <= 0.5 })
        // A dark block is no text; neither is a flat grey, nor strokes too faint to be seen.
        var block = PDFInk.GrayImage(width: 64, height: 64, pixels: [UInt8](repeating: 240, count: 4096))
        for k in 0..<2048 { block.pixels[k] = 10 }
        #expect(ImageReading.textLikeCells(block).filter { $0.bottom <= 0.25 }.isEmpty)
        #expect(ImageReading.textLikeCells(PDFInk.GrayImage(width: 64, height: 64, pixels: [UInt8](repeating: 128, count: 4096))).isEmpty)
        #expect(ImageReading.textLikeCells(Self.image(strokes: 0..<64, 0..<64, ink: 210, ground: 230)).isEmpty)
        // Strokes in shadow are text still.
        #expect(ImageReading.textLikeCells(Self.image(strokes: 0..<64, 0..<64, ink: 5, ground: 85)).count == 16)
    }

    @Test func coverageIsTheShareOfTextCellsUnderConfidentWords() {
        let cells = ImageReading.textLikeCells(Self.image(strokes: 0..<32, 0..<64))
        #expect(ImageReading.coverage(textLike: cells, boxes: [(0, 0, 1, 0.25)]) == 0.5)
        #expect(ImageReading.coverage(textLike: cells, boxes: [(0, 0, 1, 0.5)]) == 1)
        #expect(ImageReading.coverage(textLike: cells, boxes: []) == 0)
        #expect(ImageReading.coverage(textLike: [], boxes: []) == 1)
        // Two hundred thousand words read (a hostile image): counted at once.
        let many = Array(repeating: (left: 0.0, top: 0.0, right: 1.0, bottom: 0.25), count: 200_000)
        #expect(ImageReading.coverage(textLike: cells, boxes: many) == 0.5)
    }

    @Test func aReadingScoresByItsConfidentWords() {
        func text(_ words: [(String, Double)]) -> OCRText { OCRText(paragraphs: [[words.map { OCRText.Word(text: $0.0, confidence: $0.1) }]]) }
        #expect(ImageReading.score(text([("Mitosis", 95), ("has", 92), ("four", 91)])) == 3)
        #expect(ImageReading.score(text([("Mitosis", 70), ("a", 99), ("~~", 99), ("ph4se", 40)])) == 0.5)
    }
}

/// Rectangles covering a grid: the cells under them, however many or large, in linear time.
@Suite struct RectangleCoverTests {
    @Test func cellsUnderRectangles() {
        var cover = RectangleCover(width: 4, height: 3)
        cover.add(x0: 1, x1: 3, y0: 0, y1: 2)
        cover.add(x0: 2, x1: 99, y0: 1, y1: 99)
        cover.add(x0: -5, x1: 0, y0: 0, y1: 3)
        #expect(cover.covered() == [false, true, true, false,
                                    false, true, true, true,
                                    false, false, true, true])
        // A hundred thousand page-sized rectangles: marked at once.
        var many = RectangleCover(width: 500, height: 500)
        for _ in 0..<100_000 { many.add(x0: 0, x1: 500, y0: 0, y1: 500) }
        #expect(many.covered().allSatisfy { $0 })
    }
}
