import QuireInterchange
import Foundation
import QuireSupport

/// The text of a PDF as poppler's `pdftohtml -xml` lays it out: pages of positioned text lines,
/// each with its font size and whether it is bold. Read from that tool's output, untrusted: any
/// malformed part is skipped, never trusted for a size or an index.
public struct PDFLayout: Sendable, Equatable {
    /// One line of text as placed on its page (coordinates in the tool's units, top-down).
    public struct Line: Sendable, Equatable {
        public var top: Double
        public var left: Double
        public var width: Double
        public var height: Double
        /// The font's size.
        public var size: Double
        /// Whether the whole line is bold.
        public var bold: Bool
        public var text: String
        /// Whether the line opened with a bullet drawn in a symbol font (Dingbats, Symbol,
        /// Wingdings: `r` shows as ❒ there), left out of ``text``.
        public var bullet: Bool
        /// The bold words the line opens with when more follows (a hanging definition's term:
        /// **Term** – text), else nil.
        public var lead: String?
        /// Whether the line starts a block of its own (its reader, OCR, found a paragraph there).
        public var opensBlock = false

        public init(top: Double, left: Double, width: Double, height: Double, size: Double, bold: Bool, text: String,
                    bullet: Bool = false, lead: String? = nil) {
            self.top = top
            self.left = left
            self.width = width
            self.height = height
            self.size = size
            self.bold = bold
            self.text = text
            self.bullet = bullet
            self.lead = lead
        }

        /// Where the line ends on the right.
        var right: Double { left + width }
    }

    /// A piece of text as the tool places it (a word run in one font): lines are made of these.
    struct Fragment {
        var line: Line
        /// Set in a symbol font: a glyph, not a letter.
        var symbol: Bool
    }

    /// One page: its number (from 1), height and lines in reading order.
    public struct Page: Sendable, Equatable {
        public var number: Int
        public var height: Double
        public var width: Double = 0
        public var lines: [Line]

        public init(number: Int, height: Double, width: Double = 0, lines: [Line]) {
            self.number = number
            self.height = height
            self.width = width
            self.lines = lines
        }
    }

    public var pages: [Page]

    public init(pages: [Page]) { self.pages = pages }

    /// Reads `pdftohtml -xml -i -stdout` output. Fonts are declared once (on the page where each is
    /// first used) and apply to every later page.
    public init(xml bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var pages: [Page] = []
        var fonts: [String: (size: Double, symbol: Bool, math: TeXMath?)] = [:]
        var current: Page?
        var fragments: [Fragment] = []
        func finish(_ page: Page) {
            var page = page
            page.lines = Self.lines(fragments)
            pages.append(page)
            fragments = []
        }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("page ") || tag == "page" {
                if let page = current { finish(page) }
                let attributes = Self.attributes(tag)
                current = Page(number: Int(attributes["number"] ?? "") ?? pages.count + 1,
                               height: max(0, Self.finite(attributes["height"])), width: max(0, Self.finite(attributes["width"])), lines: [])
            } else if tag.hasPrefix("/page") {
                if let page = current { finish(page) }
                current = nil
            } else if tag.hasPrefix("fontspec") {
                let attributes = Self.attributes(tag)
                if let id = attributes["id"], attributes["size"].flatMap(Double.init) != nil {
                    let size = max(0, Self.finite(attributes["size"]))
                    let family = (attributes["family"] ?? "").lowercased()
                    // A bullet font (not TeX's math symbols, whose braces open formulas).
                    let symbol = family.contains("dingbat") || family.contains("wingding") || (family.contains("symbol") && !family.contains("math"))
                    fonts[id] = (size, symbol, TeXMath(family: family))
                }
            } else if tag.hasPrefix("text ") {
                // The line's content runs to its closing tag (inline <b>, <i>, <a> inside).
                guard let end = rest.range(ofLiteral: "</text>") else { break }
                let inner = rest[..<end.lowerBound]
                rest = rest[end.upperBound...]
                let attributes = Self.attributes(tag)
                var (plain, bold) = Self.content(inner)
                if let math = fonts[attributes["font"] ?? ""]?.math { plain = math.decoded(plain) }
                guard !plain.allSatisfy(\.isWhitespace) else { continue }
                // Text placed off the page is not shown (a slide's items kept for a later overlay).
                if let page = current, page.height > 0, page.width > 0 {
                    let top = Double(attributes["top"] ?? "") ?? 0, left = Double(attributes["left"] ?? "") ?? 0
                    if top < 0 || left < 0 || top > page.height || left > page.width { continue }
                }
                let font = fonts[attributes["font"] ?? ""]
                let line = Line(top: Self.finite(attributes["top"]), left: Self.finite(attributes["left"]),
                                width: max(0, Self.finite(attributes["width"])), height: max(0, Self.finite(attributes["height"])),
                                size: font?.size ?? 0, bold: bold, text: plain)
                if current != nil { fragments.append(Fragment(line: line, symbol: font?.symbol ?? false)) }
            }
        }
        if let page = current { finish(page) }
        self.pages = pages
    }

    /// A number attribute, 0 when missing, malformed or not finite; within ±1,000,000 (a page is
    /// at most 200 inches, 14,400 points: no figure read here can overflow what is computed from it).
    static func finite(_ text: String?) -> Double {
        guard let value = text.flatMap(Double.init), value.isFinite else { return 0 }
        return min(1e6, max(-1e6, value))
    }

    /// The page's fragments joined into the lines a reader sees: a fragment goes on the line
    /// before when it sits on the same baseline (or is its sub- or superscript) and starts within
    /// eight tenths of an em of its end — a space between them when the gap is a word's. Farther apart (a
    /// table's cells, two columns) they stay lines of their own. A line opened by a single glyph
    /// in a symbol font has it as its ``Line/bullet``; one opened by bold words then more has
    /// them as its ``Line/lead``. Linear in the fragments.
    static func lines(_ fragments: [Fragment]) -> [Line] {
        var out: [Line] = []
        var current: Line?
        // The current line's characters by font size (its size is the most common one), and its
        // leading bold words while no other text has come.
        var sizes: [Double: Int] = [:]
        var leadOpen = true
        var lead = ""
        func close() {
            guard var line = current else { return }
            line.size = sizes.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? line.size
            let trimmedLead = lead.trimmingCharacters(in: .whitespaces)
            if trimmedLead.filter(\.isLetter).count >= 3, !line.bold, line.text.count > trimmedLead.count { line.lead = trimmedLead }
            out.append(line)
            current = nil
            sizes = [:]
            leadOpen = true
            lead = ""
        }
        func start(_ fragment: Fragment) {
            var line = fragment.line
            let glyph = line.text.trimmingCharacters(in: .whitespaces)
            if fragment.symbol, glyph.count == 1 {
                // A bullet: the line's text starts after it.
                line.bullet = true
                line.text = ""
                line.bold = true
                current = line
                return
            }
            current = line
            sizes[line.size, default: 0] += line.text.count
            if line.bold || (line.text.count <= 2 && !line.text.contains(" ")) { lead = line.text } else { leadOpen = false }
        }
        for fragment in fragments {
            let next = fragment.line
            guard let line = current else { start(fragment); continue }
            let em = max(line.size, next.size, 1)
            let gap = next.left - line.right
            let nextMiddle = next.top + next.height / 2, lineMiddle = line.top + line.height / 2
            let sameBaseline = (nextMiddle >= line.top - 1 && nextMiddle <= line.top + line.height + 1)
                || (lineMiddle >= next.top - 1 && lineMiddle <= next.top + next.height + 1)
            guard sameBaseline, gap >= -em * 0.3, gap <= em * 0.8 else {
                close()
                start(fragment)
                continue
            }
            var joined = line
            let glue = line.text.isEmpty || gap < em * 0.12 || line.text.last?.isWhitespace == true || next.text.first?.isWhitespace == true ? "" : " "
            joined.text += glue + next.text
            let top = min(line.top, next.top), bottom = max(line.top + line.height, next.top + next.height)
            joined.top = top
            joined.height = bottom - top
            joined.width = max(line.right, next.right) - line.left
            joined.bold = line.bold && next.bold
            sizes[next.size, default: 0] += next.text.count
            if leadOpen {
                // A one- or two-letter symbol set in math before the bold words (*k*-nearest) is the term's.
                if next.bold || (lead.isEmpty && next.text.count <= 2 && !next.text.contains(" ")) {
                    lead += glue + next.text
                } else {
                    leadOpen = false
                }
            }
            current = joined
        }
        close()
        return out
    }

    /// A tag's `name="value"` attributes (values' entities decoded).
    static func attributes(_ tag: Substring) -> [String: String] {
        var out: [String: String] = [:]
        var rest = tag
        while let eq = rest.firstIndex(of: "=") {
            let name = rest[..<eq].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).last.map(String.init) ?? ""
            var after = rest[rest.index(after: eq)...]
            guard after.first == "\"" else { rest = after; continue }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: "\"") else { break }
            out[name] = decoded(after[..<close])
            rest = after[after.index(after: close)...]
        }
        return out
    }

    /// A line's text without its inline tags, and whether all of it was inside `<b>`.
    static func content(_ inner: Substring) -> (text: String, bold: Bool) {
        var text = ""
        var boldText = 0, plainText = 0
        var depth = 0
        var rest = inner
        while let c = rest.first {
            if c == "<" {
                guard let close = rest.firstIndex(of: ">") else {
                    // A '<' that opens no tag: the rest is text.
                    let piece = decoded(rest)
                    plainText += piece.filter { !$0.isWhitespace }.count
                    text += piece
                    break
                }
                let tag = rest[rest.index(after: rest.startIndex)..<close]
                if tag == "b" { depth += 1 } else if tag == "/b" { depth = max(0, depth - 1) }
                rest = rest[rest.index(after: close)...]
                continue
            }
            let end = rest.firstIndex(of: "<") ?? rest.endIndex
            let piece = decoded(rest[..<end])
            let letters = piece.filter { !$0.isWhitespace }.count
            if depth > 0 { boldText += letters } else { plainText += letters }
            text += piece
            rest = rest[end...]
        }
        return (text, boldText > 0 && plainText == 0)
    }

    /// Text with its XML character references decoded (`&amp;`, `&#233;`, `&#xE9;`, named ones).
    static func decoded(_ s: Substring) -> String {
        s.contains("&") ? HTMLEntities.decoded(String(s)) : String(s)
    }
}

/// TeX's math fonts (Computer Modern's and Latin Modern's), whose glyphs the PDF's text layer
/// often names by the ASCII letter in their slot: `ℓ` as a grave accent, a prime as `0`, a sum as
/// `X`. Read back as the symbols they draw.
enum TeXMath: Sendable {
    case italic, symbols, extension_

    /// The font family's kind, or nil for another font.
    init?(family: String) {
        let f = family.lowercased()
        if f.contains("mathitalic") || f.contains("cmmi") { self = .italic }
        else if f.contains("mathsymbols") || f.contains("cmsy") { self = .symbols }
        else if f.contains("mathextension") || f.contains("cmex") { self = .extension_ }
        else { return nil }
    }

    /// `text` with the slots that hold symbols read as them.
    func decoded(_ text: String) -> String {
        let table: [Character: String]
        switch self {
        case .italic: table = ["`": "ℓ"]
        case .symbols: table = ["0": "′"]
        case .extension_: table = ["P": "∑", "X": "∑", "Q": "∏", "Y": "∏", "R": "∫", "Z": "∫"]
        }
        guard text.contains(where: { table[$0] != nil }) else { return text }
        return text.map { table[$0] ?? String($0) }.joined()
    }
}
