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

        public init(top: Double, left: Double, width: Double, height: Double, size: Double, bold: Bool, text: String) {
            self.top = top
            self.left = left
            self.width = width
            self.height = height
            self.size = size
            self.bold = bold
            self.text = text
        }
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
        var fonts: [String: Double] = [:]
        var current: Page?
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("page ") || tag == "page" {
                if let page = current { pages.append(page) }
                let attributes = Self.attributes(tag)
                current = Page(number: Int(attributes["number"] ?? "") ?? pages.count + 1,
                               height: Double(attributes["height"] ?? "") ?? 0, width: Double(attributes["width"] ?? "") ?? 0, lines: [])
            } else if tag.hasPrefix("/page") {
                if let page = current { pages.append(page) }
                current = nil
            } else if tag.hasPrefix("fontspec") {
                let attributes = Self.attributes(tag)
                if let id = attributes["id"], let size = Double(attributes["size"] ?? "") { fonts[id] = size }
            } else if tag.hasPrefix("text ") {
                // The line's content runs to its closing tag (inline <b>, <i>, <a> inside).
                guard let end = rest.range(ofLiteral: "</text>") else { break }
                let inner = rest[..<end.lowerBound]
                rest = rest[end.upperBound...]
                let attributes = Self.attributes(tag)
                let (plain, bold) = Self.content(inner)
                guard !plain.allSatisfy(\.isWhitespace) else { continue }
                // Text placed off the page is not shown (a slide's items kept for a later overlay).
                if let page = current, page.height > 0, page.width > 0 {
                    let top = Double(attributes["top"] ?? "") ?? 0, left = Double(attributes["left"] ?? "") ?? 0
                    if top < 0 || left < 0 || top > page.height || left > page.width { continue }
                }
                let line = Line(top: Double(attributes["top"] ?? "") ?? 0, left: Double(attributes["left"] ?? "") ?? 0,
                                width: Double(attributes["width"] ?? "") ?? 0, height: Double(attributes["height"] ?? "") ?? 0,
                                size: fonts[attributes["font"] ?? ""] ?? 0, bold: bold, text: plain)
                current?.lines.append(line)
            }
        }
        if let page = current { pages.append(page) }
        self.pages = pages
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
        guard s.contains("&") else { return String(s) }
        var out = ""
        var rest = s
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(34).firstIndex(of: ";") {
                let name = after[..<semi]
                var scalar: Unicode.Scalar?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap { HTMLEntities.numeric($0, outOfRange: false) }
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst()).flatMap { HTMLEntities.numeric($0, outOfRange: false) }
                } else {
                    scalar = HTMLEntities.named[String(name)].flatMap { Unicode.Scalar($0) }
                }
                if let scalar {
                    out.unicodeScalars.append(scalar)
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
