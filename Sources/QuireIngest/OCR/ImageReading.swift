import Foundation
import QuireSupport
import QuireSystem

/// A photo or scan read by OCR as well as it can be: the image as it is and prepared in a few ways
/// (straightened and cleaned; thresholded against uneven light; enlarged when its text is small),
/// each read by tesseract, the reading with the most confident words kept — so preparing never
/// makes a photo read worse than the photo itself. How much of what looks like text was read is
/// measured, so that a reading of three words off a page of text says so.
public struct ImageReading: Sendable {
    /// The reading kept.
    public var text: OCRText
    /// Which image gave it: `as it is`, `straightened`, `thresholded` or `enlarged`.
    public var variant: String
    /// The share of the image's text-like area that the reading's confident words cover (0–1), nil
    /// when it could not be measured (no ImageMagick).
    public var coverage: Double?
    /// A problem preparing the image (ImageMagick missing or failing): it was read as it is.
    public var problem: String?

    /// The message for a missing ImageMagick.
    public static let noImageMagick = "ImageMagick is not installed (Debian: apt-get install imagemagick): the image is read as it is"

    /// Below this coverage, an import warns that most of the image was not read.
    public static let coverageFloor = 0.5

    /// One way of preparing an image: its name and ImageMagick's operations (nil: the image itself).
    static let variants: [(name: String, operations: [String]?)] = [
        ("as it is", nil),
        ("straightened", ["-colorspace", "Gray", "-deskew", "40%", "-despeckle", "-resize", "2000x2000<"]),
        ("thresholded", ["-colorspace", "Gray", "-deskew", "40%", "-resize", "2000x2000<", "-lat", "31x31-8%"]),
        ("enlarged", ["-colorspace", "Gray", "-resize", "200%"]),
    ]

    /// The score of a reading: its words of two characters or more, each counted by how far its
    /// confidence passes 50 (a confident word counts 1, a guess nothing).
    static func score(_ text: OCRText) -> Double {
        text.words.reduce(0) { sum, word in
            word.text.filter({ $0.isLetter || $0.isNumber }).count >= 2 ? sum + max(0, min(1, (word.confidence - 50) / 40)) : sum
        }
    }

    /// Reads `image` (prepared copies written into `folder`); throws when tesseract cannot read it
    /// at all.
    public static func read(_ image: String, in folder: String) throws(OCRText.Failure) -> ImageReading {
        var best: (text: OCRText, variant: String, score: Double)?
        var problem: String?
        // A tilted photo read as it is loses its lines' order (tesseract splits them into
        // columns) more than its words: its own reading counts for less.
        // Its size checked before any program decodes it.
        let pixels = try ImageSize.checked(image)
        let tilted = (skew(of: image, pixels: pixels, scratch: folder).map { abs($0) >= 1 } ?? false)
        var firstFailure: OCRText.Failure?
        for (k, variant) in variants.enumerated() {
            var path = image
            if let operations = variant.operations {
                guard problem == nil else { continue }
                let out = folder + "/variant-\(k).png"
                let run = ChildProcess.run(["convert", ChildProcess.fileArgument(image)] + operations + [out],
                                           limits: HelperBudget.image(pixels: pixels, seconds: 120, outputBytes: 1 << 20),
                                           environment: HelperBudget.temporaryFiles(in: folder))
                if run.status == -1 { problem = noImageMagick; continue }
                guard run.status == 0 else {
                    problem = "ImageMagick could not prepare it (\(PDFExtractor.lastLine(run.errorOutput) ?? "status \(run.status)")); read as it is"
                    continue
                }
                path = out
            }
            do {
                let text = try OCRText.recognize(path, scratch: folder)
                let score = score(text) * (variant.operations == nil && tilted ? 0.8 : 1)
                if best.map({ score > $0.score }) ?? true { best = (text, variant.name, score) }
            } catch {
                if error.description == OCRText.missing { throw error }
                if firstFailure == nil { firstFailure = error }
            }
        }
        guard let best else { throw firstFailure ?? OCRText.Failure(description: "\(image): tesseract could not read it") }
        let coverage = problem == nil ? measuredCoverage(of: best.text, image: image, pixels: pixels, scratch: folder) : nil
        return ImageReading(text: best.text, variant: best.variant, coverage: coverage, problem: problem)
    }

    /// How far the image's text is turned, in degrees, as ImageMagick's deskew finds it; nil when
    /// it cannot say.
    static func skew(of image: String, pixels: Int, scratch: String? = nil) -> Double? {
        let run = ChildProcess.run(["convert", ChildProcess.fileArgument(image), "-deskew", "40%", "-format", "%[deskew:angle]", "info:"],
                                   limits: HelperBudget.image(pixels: pixels, seconds: 120, outputBytes: 1 << 10),
                                   environment: HelperBudget.temporaryFiles(in: scratch))
        guard run.status == 0 else { return nil }
        return Double(String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The image small and grey (the longer side at most 1,000 pixels) as ImageMagick makes it; nil
    /// when it cannot.
    static func small(_ image: String, pixels: Int, scratch: String? = nil) -> PDFInk.GrayImage? {
        let run = ChildProcess.run(["convert", ChildProcess.fileArgument(image), "-colorspace", "Gray", "-resize", "1000x1000>", "-depth", "8", "pgm:-"],
                                   limits: HelperBudget.image(pixels: pixels, seconds: 120, outputBytes: 8 << 20),
                                   environment: HelperBudget.temporaryFiles(in: scratch))
        guard run.status == 0 else { return nil }
        return PDFInk.GrayImage(pgm: run.output)
    }

    /// The share of the image's text-like cells covered by the reading's confident words. `read`'s
    /// word boxes are in the pixels of the image it read (its own size, ``OCRText/imageWidth``).
    static func measuredCoverage(of read: OCRText, image: String, pixels: Int, scratch: String? = nil) -> Double? {
        guard let small = small(image, pixels: pixels, scratch: scratch), read.imageWidth > 0, read.imageHeight > 0 else { return nil }
        let boxes = read.words.filter { $0.confidence >= OCRText.uncertain && $0.text.contains(where: { $0.isLetter || $0.isNumber }) }
            .map { word in
                (left: word.left / read.imageWidth, top: word.top / read.imageHeight,
                 right: (word.left + word.width) / read.imageWidth, bottom: (word.top + word.height) / read.imageHeight)
            }
        return coverage(textLike: textLikeCells(small), boxes: boxes)
    }

    /// A cell of the image (as a grid of ``cell`` pixels) and whether it looks like text.
    static let cell = 16

    /// The cells (in fractions of the image: left, top, right, bottom) whose pixels are a text's:
    /// strong contrast within the cell (dark strokes on a light ground, even blurred or in shadow),
    /// the dark part a small share of it (neither a flat area nor a dark block).
    static func textLikeCells(_ image: PDFInk.GrayImage) -> [(left: Double, top: Double, right: Double, bottom: Double)] {
        let w = image.width, h = image.height
        guard w > cell, h > cell else { return [] }
        var out: [(left: Double, top: Double, right: Double, bottom: Double)] = []
        image.pixels.withUnsafeBufferPointer { p in
            for cy in stride(from: 0, to: h - cell + 1, by: cell) {
                for cx in stride(from: 0, to: w - cell + 1, by: cell) {
                    var low = 255, high = 0
                    for y in cy..<(cy + cell) {
                        for x in cx..<(cx + cell) { let v = Int(p[y * w + x]); low = min(low, v); high = max(high, v) }
                    }
                    guard high - low >= 50 else { continue }
                    let middle = (low + high) / 2
                    var dark = 0
                    for y in cy..<(cy + cell) { for x in cx..<(cx + cell) where Int(p[y * w + x]) < middle { dark += 1 } }
                    if dark * 20 >= cell * cell, dark * 5 <= cell * cell * 3 {
                        out.append((Double(cx) / Double(w), Double(cy) / Double(h), Double(cx + cell) / Double(w), Double(cy + cell) / Double(h)))
                    }
                }
            }
        }
        return out
    }

    /// The share of `cells` whose centre lies in one of `boxes` (each grown by a quarter of a cell); 1 when
    /// there are no text-like cells. The boxes are marked on a grid of a thousandth of the image
    /// (``RectangleCover``), so the time is linear in cells and boxes however many words were read.
    static func coverage(textLike cells: [(left: Double, top: Double, right: Double, bottom: Double)],
                         boxes: [(left: Double, top: Double, right: Double, bottom: Double)]) -> Double {
        guard let first = cells.first else { return 1 }
        let n = 1_000, scale = Double(n)
        let padX = (first.right - first.left) / 4, padY = (first.bottom - first.top) / 4
        // A point on the grid: the cell it falls in (a position exactly on a box's edge counts in).
        func point(_ v: Double) -> Int { min(n - 1, max(0, Int((v * scale).rounded(.down)))) }
        var cover = RectangleCover(width: n, height: n)
        for b in boxes {
            cover.add(x0: point(b.left - padX), x1: point(b.right + padX) + 1, y0: point(b.top - padY), y1: point(b.bottom + padY) + 1)
        }
        let grid = cover.covered()
        var covered = 0
        for c in cells where grid[point((c.top + c.bottom) / 2) * n + point((c.left + c.right) / 2)] { covered += 1 }
        return Double(covered) / Double(cells.count)
    }
}
