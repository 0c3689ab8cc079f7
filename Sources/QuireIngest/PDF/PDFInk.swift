import Foundation
import QuireSystem

/// What a page draws against what its text layer holds: a page whose words are drawn as shapes
/// (slides exported from an HTML slide tool keep only their headings and math as text) shows the
/// edges of letters where no text line is. Such pages are read by OCR as well (`quire import pdf --ocr auto`).
/// The analysis is pure; rendering runs poppler's `pdftoppm`.
public enum PDFInk {
    /// A greyscale image: one byte a pixel, 0 black, rows from the top.
    public struct GrayImage: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var pixels: [UInt8]

        public init(width: Int, height: Int, pixels: [UInt8]) {
            self.width = width
            self.height = height
            self.pixels = pixels
        }

        /// A binary PGM (`P5`, 8-bit) as `pdftoppm -gray` writes it; nil when malformed.
        public init?(pgm bytes: [UInt8]) {
            // The header: P5, width, height, maximum value, each after white space (comments skipped).
            var i = 0
            func field() -> Int? {
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "#") {
                        while i < bytes.count, bytes[i] != 10 { i += 1 }
                    } else if [9, 10, 13, 32].contains(bytes[i]) {
                        i += 1
                    } else { break }
                }
                var value = 0, digits = 0
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57, digits < 7 {
                    value = value * 10 + Int(bytes[i] - 48)
                    i += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") else { return nil }
            i = 2
            guard let width = field(), let height = field(), let maximum = field(), width > 0, height > 0, maximum > 0, maximum < 256,
                  i < bytes.count, width <= 20_000, height <= 20_000 else { return nil }
            i += 1
            guard bytes.count - i >= width * height else { return nil }
            self.init(width: width, height: height, pixels: Array(bytes[i..<(i + width * height)]))
        }
    }

    /// Two neighbouring pixels this far apart in grey are an edge (a stroke's side).
    static let edgeContrast = 80
    /// A page is read by OCR as well when the edges no text line covers are at least this share
    /// of its pixels. Letters drawn as shapes are all edges; a coloured bar or a picture's flat
    /// areas are few (on three real slide decks whose text layers hold every word, 0.0049 at
    /// most; a slide whose body is drawn, 0.027).
    public static let uncoveredFloor = 0.01
    /// Pages whose text layer holds at least this many characters are taken to hold all their text
    /// (a book's page with a figure): they are not rendered to be checked.
    public static let fullPage = 1_200
    /// The resolution pages are rendered at to be checked.
    public static let dpi = 50

    /// The share of the page's pixels that are edges — a pixel whose right or lower neighbour
    /// differs by ``edgeContrast`` grey levels — outside every text line's box (each grown by a
    /// third of its height, for accents and descenders). `page` in the layout's units; the image
    /// covers the whole page. Linear in the pixels and the lines' area.
    public static func uncoveredEdges(_ image: GrayImage, page: PDFLayout.Page) -> Double {
        // A page under a point wide (a hostile MediaBox) would scale its lines past any pixel.
        guard page.width >= 1, page.height >= 1, image.width > 1, image.height > 1 else { return 0 }
        let width = image.width, height = image.height
        let sx = Double(width) / page.width, sy = Double(height) / page.height
        var cover = RectangleCover(width: width, height: height)
        for line in page.lines {
            let pad = line.height / 3
            cover.add(x0: Int(((line.left - pad) * sx).rounded(.down)), x1: Int(((line.right + pad) * sx).rounded(.up)),
                      y0: Int(((line.top - pad) * sy).rounded(.down)), y1: Int(((line.top + line.height + pad) * sy).rounded(.up)))
        }
        let covered = cover.covered()
        var edges = 0
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<(height - 1) {
                for x in 0..<(width - 1) {
                    let k = y * width + x
                    guard !covered[k] else { continue }
                    let v = Int(p[k])
                    if abs(v - Int(p[k + 1])) > edgeContrast || abs(v - Int(p[k + width])) > edgeContrast { edges += 1 }
                }
            }
        }
        return Double(edges) / Double(width * height)
    }

    /// A page without text is read by OCR when at least this share of its pixels are edges: any
    /// drawn text is (a scanned page of the OCR fixtures, 0.03 and more); a blank page, a ruled
    /// line or a coloured box are not. A PDF declaring thousands of empty pages costs a small
    /// rendering each, not an OCR each.
    public static let blankFloor = 0.0005

    /// Whether a page needs OCR: a page without text that shows ink, or one with a short text
    /// layer and ink where no text line is (`image`: the page rendered, nil when it could not be
    /// — then only a page without text is read, as it used to be).
    public static func needsOCR(_ page: PDFLayout.Page, image: GrayImage?) -> Bool {
        guard let image else { return page.lines.isEmpty }
        guard isChecked(page) else { return false }
        return uncoveredEdges(image, page: page) >= (page.lines.isEmpty ? blankFloor : uncoveredFloor)
    }

    /// Whether a page is rendered to be checked: its text layer is short or empty.
    public static func isChecked(_ page: PDFLayout.Page) -> Bool {
        page.lines.reduce(0, { $0 + $1.text.count }) < fullPage
    }
}

/// Which cells of a grid some rectangle covers, in time linear in the rectangles and the cells
/// however large or many the rectangles (a two-dimensional difference array summed once).
struct RectangleCover {
    let width: Int, height: Int
    private var marks: [Int32]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        marks = [Int32](repeating: 0, count: (self.width + 1) * (self.height + 1))
    }

    /// Covers columns `x0..<x1` of rows `y0..<y1` (clamped to the grid).
    mutating func add(x0: Int, x1: Int, y0: Int, y1: Int) {
        let a = max(0, min(width, x0)), b = max(0, min(width, x1)), c = max(0, min(height, y0)), d = max(0, min(height, y1))
        guard a < b, c < d else { return }
        let stride = width + 1
        marks[c * stride + a] &+= 1
        marks[c * stride + b] &-= 1
        marks[d * stride + a] &-= 1
        marks[d * stride + b] &+= 1
    }

    /// Whether each cell (row by row) is covered.
    func covered() -> [Bool] {
        var sums = marks
        let stride = width + 1
        var out = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let k = y * stride + x
                var v = sums[k]
                if x > 0 { v &+= sums[k - 1] }
                if y > 0 { v &+= sums[k - stride] }
                if x > 0, y > 0 { v &-= sums[k - stride - 1] }
                sums[k] = v
                out[y * width + x] = v > 0
            }
        }
        return out
    }
}

extension PDFExtractor {
    /// Pages `pages` rendered as small greyscale images (the longer side 11 × `dpi` pixels: `dpi`
    /// dots an inch on a letter page, for ``PDFInk``) into `folder`, one run of `pdftoppm` for each
    /// run of consecutive pages; each image handed to `take` (its page's number and the image) as
    /// its run is done, then dropped. A page that cannot be rendered is not handed over.
    public static func grayImages(_ path: String, pages: [Int], dpi: Int = PDFInk.dpi, into folder: String,
                                  take: (Int, PDFInk.GrayImage) -> Void) {
        var runs: [ClosedRange<Int>] = []
        for page in pages.sorted() {
            if let last = runs.last, last.upperBound + 1 == page { runs[runs.count - 1] = last.lowerBound...page } else { runs.append(page...page) }
        }
        let io = FileManager.default
        for run in runs {
            for first in stride(from: run.lowerBound, through: run.upperBound, by: pagesPerRun) {
                let last = min(run.upperBound, first + pagesPerRun - 1)
                let own = folder + "/ink-\(first)"
                guard (try? io.createDirectory(atPath: own, withIntermediateDirectories: false)) != nil else { continue }
                defer { try? io.removeItem(atPath: own) }
                // About `dpi` for a letter page or a slide, and never more pixels than that however large the page.
                let result = ChildProcess.run(["pdftoppm", "-scale-to", String(dpi * 11), "-gray", "-f", String(first), "-l", String(last),
                                               "--", ChildProcess.fileArgument(path), own + "/p"],
                                              limits: HelperBudget.pdf(fileBytes: HelperBudget.size(of: path), outputBytes: 1 << 20))
                guard result.status == 0 else { continue }
                // pdftoppm names each page p-N.pgm, N padded with zeros.
                for name in (try? io.contentsOfDirectory(atPath: own)) ?? [] where name.hasPrefix("p-") && name.hasSuffix(".pgm") {
                    guard let number = Int(name.dropFirst(2).dropLast(4)), (first...last).contains(number),
                          let data = io.contents(atPath: own + "/" + name), let image = PDFInk.GrayImage(pgm: Array(data)) else { continue }
                    take(number, image)
                }
            }
        }
    }

    /// Which pages to read by OCR: `never` none, `always` all, `auto` the pages without text and
    /// those ``PDFInk/needsOCR(_:image:)`` finds (rendered small into `folder` to be checked).
    public static func pagesForOCR(_ path: String, layout: PDFLayout, mode: OCRMode, folder: String) -> [Int] {
        switch mode {
        case .never: return []
        case .always: return layout.pages.map(\.number)
        case .auto:
            // Each run of pages judged as it is rendered: no more than a run's images held at once.
            let checked = Dictionary(layout.pages.filter(PDFInk.isChecked).map { ($0.number, $0) }) { a, _ in a }
            var read: Set<Int> = []
            var rendered: Set<Int> = []
            grayImages(path, pages: checked.keys.sorted(), into: folder) { number, image in
                rendered.insert(number)
                if let page = checked[number], PDFInk.needsOCR(page, image: image) { read.insert(number) }
            }
            return layout.pages.filter { read.contains($0.number) || !rendered.contains($0.number) && PDFInk.needsOCR($0, image: nil) }.map(\.number)
        }
    }

    /// When pages are read by OCR.
    public enum OCRMode: String, Sendable, CaseIterable {
        /// Pages without text, and pages that show more than their text layer holds.
        case auto
        /// Every page (its text layer's exact characters kept where both have the text).
        case always
        /// None.
        case never
    }
}
