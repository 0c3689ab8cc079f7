import QuireInterchange
import QuireModel
import QuireParsing

/// A PDF's text made into the body of a Quire note (FORMAT.md §8): each page opened by its anchor
/// `<!-- page N -->`, headings from font size and weight, paragraphs re-flowed with hyphenation
/// undone (a paragraph a page break cut joined on its first page), list items and simple tables
/// kept, running headers, footers and page numbers left out. Pure: the same layout gives the same
/// bytes. Text never reads as a card or as Markdown it did not mean.
public enum PDFMarkdown {
    /// What the conversion made of the document.
    public struct Result: Sendable, Equatable {
        public var body: String
        /// Pages with no text at all (image-only: scanned pages).
        public var emptyPages: [Int]
        public var headings: Int
        /// Lines left out as running headers, footers or page numbers.
        public var removedLines: Int
        /// The first heading's text (a title when the PDF names none).
        public var firstHeading: String?
        /// Pages whose text was read from their image.
        public var ocrPages: [Int] = []
    }

    /// A line's role.
    enum Block: Equatable {
        case heading(level: Int, text: String)
        case paragraph(String)
        case item(marker: String, text: String)
        /// A hanging definition: its bold term, what separates it from its text (` – `, `: `),
        /// the text; a list item when a bullet opened it.
        case definition(term: String, separator: String, text: String, item: Bool)
        /// A simple table: rows of cells, the first row its header.
        case table([[String]])
    }

    /// Converts a document's layout (its pages in order).
    /// `ocr`: the text read from the images of pages without text, by page number.
    public static func convert(_ layout: PDFLayout, ocr: [Int: OCRText] = [:]) -> Result {
        let (layout, merged) = Self.mergingOCR(layout, ocr)
        let body = bodySize(layout)
        let (kept, removed) = withoutRunningLines(layout)
        // Heading sizes: clearly above the body size, largest first, three levels at most.
        var sizes: [Double] = []
        for page in kept { for line in page.lines where line.size >= body * 1.15 && !sizes.contains(rounded(line.size)) { sizes.append(rounded(line.size)) } }
        sizes.sort(by: >)
        func level(_ line: PDFLayout.Line) -> Int? {
            // A heading has words: three letters at least (a lone symbol or variable is not one).
            guard line.text.filter(\.isLetter).count >= 3 else { return nil }
            if let i = sizes.firstIndex(of: rounded(line.size)) { return min(i + 1, 3) + 1 }
            let words = line.text.split(whereSeparator: \.isWhitespace).count
            if line.bold, words > 0, words <= 10, !".:;,".contains(line.text.trimmingWhitespace().last ?? "."), abs(line.size - body) <= body * 0.15 {
                return min(sizes.count + 1, 3) + 1
            }
            return nil
        }
        let hyphenated = hyphenatedWords(kept)
        let pageBlocks = Self.pageBlocks(kept, body: body, hyphenated: hyphenated, level: level)
        var writer = MarkdownWriter()
        for (k, page) in kept.enumerated() {
            writer.add(page, blocks: pageBlocks[k], merged: merged[page.number], read: ocr[page.number])
        }
        return Result(body: writer.out, emptyPages: writer.empty, headings: writer.headings, removedLines: removed,
                      firstHeading: writer.firstHeading, ocrPages: writer.ocrPages)
    }

    /// Pages with text and an OCR reading given the reading's lines that no text line covers
    /// (``withOCR(_:_:)``); returns the layout, and the words added by page number.
    static func mergingOCR(_ layout: PDFLayout, _ ocr: [Int: OCRText]) -> (PDFLayout, [Int: [OCRText.Word]]) {
        var layout = layout
        var merged: [Int: [OCRText.Word]] = [:]
        for k in layout.pages.indices where !layout.pages[k].lines.isEmpty {
            guard let read = ocr[layout.pages[k].number] else { continue }
            let (page, words) = withOCR(layout.pages[k], read)
            layout.pages[k] = page
            if !words.isEmpty { merged[page.number] = words }
        }
        return (layout, merged)
    }

    /// Words the document writes with a hyphen inside a line (kept so when broken at a line's
    /// end), lower-cased.
    static func hyphenatedWords(_ pages: [PDFLayout.Page]) -> Set<String> {
        var hyphenated: Set<String> = []
        for page in pages {
            for line in page.lines {
                for word in line.text.split(whereSeparator: { $0.isWhitespace || ",.;:()[]".contains($0) })
                where word.contains("-") && !word.hasSuffix("-") && !word.hasPrefix("-") {
                    hyphenated.insert(word.lowercased())
                }
            }
        }
        return hyphenated
    }

    /// Each page's blocks: the first page with any opened by its title block, heading levels made
    /// consecutive from `##` (a size only the title block had leaves no gap), and a paragraph a
    /// page break cut joined on its first page.
    static func pageBlocks(_ pages: [PDFLayout.Page], body: Double, hyphenated: Set<String>,
                           level: (PDFLayout.Line) -> Int?) -> [[Block]] {
        var pageBlocks = pages.map { $0.lines.isEmpty ? [] : blocks($0.lines, body: body, hyphenated: hyphenated, level: level) }
        if let first = pageBlocks.firstIndex(where: { !$0.isEmpty }) { pageBlocks[first] = withTitleBlock(pageBlocks[first]) }
        var used: Set<Int> = []
        for page in pageBlocks { for case .heading(let l, _) in page { used.insert(l) } }
        let renumbered = Dictionary(uniqueKeysWithValues: used.sorted().enumerated().map { ($1, $0 + 2) })
        pageBlocks = pageBlocks.map { page in
            page.map { block in if case .heading(let l, let text) = block { .heading(level: renumbered[l] ?? l, text: text) } else { block } }
        }
        joinAcrossPages(&pageBlocks, hyphenated: hyphenated)
        return pageBlocks
    }

    /// The line in italics that says what of a page was read by OCR (`opening`), the words' mean
    /// confidence, and that a word followed by `(?)` is uncertain when one is.
    static func ocrLine(_ opening: String, _ words: [OCRText.Word]) -> String {
        "\n*\(opening) from its image (OCR, mean confidence \(Int(OCRText.meanConfidence(of: words).rounded())) %)"
            + (words.contains { $0.confidence < OCRText.uncertain } ? "; words followed by (?) are uncertain" : "") + ".*\n"
    }

    /// A page with the lines of its OCR reading that its text layer lacks: each OCR line that no
    /// text line overlaps by a third of its area, read with confidence (a mean of 50 at least,
    /// letters in most of it), goes before the first text line below it in its column; its
    /// uncertain words followed by `(?)`. The text layer's own characters are kept wherever it has
    /// the text. Returns the page and the words added.
    static func withOCR(_ page: PDFLayout.Page, _ read: OCRText) -> (PDFLayout.Page, [OCRText.Word]) {
        // A page of more text lines than any page has is taken as whole (and merging stays cheap).
        guard read.imageWidth > 0, read.imageHeight > 0, page.width > 0, page.height > 0, page.lines.count <= 20_000 else { return (page, []) }
        let sx = page.width / read.imageWidth, sy = page.height / read.imageHeight
        var lines = page.lines
        var added: [OCRText.Word] = []
        func overlap(_ a: PDFLayout.Line, _ b: PDFLayout.Line) -> Double {
            let w = min(a.right, b.right) - max(a.left, b.left), h = min(a.top + a.height, b.top + b.height) - max(a.top, b.top)
            return w > 0 && h > 0 ? w * h : 0
        }
        for paragraph in read.paragraphs {
            var opening = true
            for var words in paragraph where !words.isEmpty {
                // A bullet tesseract read as a letter or a sign (`e`, `¢e`, `°`, `«`): a bullet.
                var bullet = false
                if words.count >= 3, bulletMisreads.contains(words[0].text) {
                    words.removeFirst()
                    bullet = true
                }
                let left = words.map(\.left).min() ?? 0, right = words.map { $0.left + $0.width }.max() ?? 0
                let top = words.map(\.top).min() ?? 0, bottom = words.map { $0.top + $0.height }.max() ?? 0
                let box = PDFLayout.Line(top: top * sy, left: left * sx, width: (right - left) * sx, height: (bottom - top) * sy,
                                         size: (bottom - top) * sy, bold: false, text: "")
                let area = box.width * box.height
                guard area > 0, !page.lines.contains(where: { overlap($0, box) >= area / 3 }) else { continue }
                let confidence = words.reduce(0) { $0 + $1.confidence } / Double(words.count)
                let text = words.map(\.text).joined(separator: " ")
                let letters = text.filter(\.isLetter).count
                guard confidence >= 50, letters >= 2, Double(letters) >= Double(text.filter { !$0.isWhitespace }.count) * 0.5 else { continue }
                var line = box
                line.text = words.map { $0.text + ($0.confidence < OCRText.uncertain ? " (?)" : "") }.joined(separator: " ")
                line.bullet = bullet
                // A line opens a block where tesseract found a paragraph, and where a capital
                // follows a line without a sentence's end (a slide's lines, each a point).
                let above = lines.last { $0.top < line.top && $0.left < line.right && $0.right > line.left }
                line.opensBlock = opening || (words[0].text.first?.isUppercase == true
                                              && above.map { !($0.text.last.map { ",-".contains($0) } ?? false) } == true)
                opening = false
                // Before the first line below it whose column it shares.
                let at = lines.firstIndex { $0.top > line.top + line.height / 2 && $0.left < line.right && $0.right > line.left } ?? lines.count
                lines.insert(line, at: at)
                added += words
            }
        }
        var out = page
        out.lines = lines
        return (out, added)
    }

    /// The document's first blocks with its title block read as such: the lines set large under
    /// the title before any text — its authors (`Ada Lovelace and Charles Babbage`), its date (a
    /// year in it) — are lines of text, not headings every section would sit under.
    static func withTitleBlock(_ blocks: [Block]) -> [Block] {
        guard let title = blocks.firstIndex(where: { if case .heading = $0 { true } else { false } }) else { return blocks }
        var out = blocks
        for k in out.indices.dropFirst(title + 1) {
            guard case .heading(_, let text) = out[k] else { break }
            let words = text.split(separator: " ")
            let year = words.contains { $0.count == 4 && ($0.hasPrefix("19") || $0.hasPrefix("20")) && $0.allSatisfy(\.isNumber) }
            let names = words.count >= 3 && words.contains("and")
                && words.filter { $0 != "and" }.allSatisfy { $0.first?.isUppercase == true }
            if year || names { out[k] = .paragraph(text) }
        }
        return out
    }

    /// What tesseract reads a bullet as, alone before a line's words.
    static let bulletMisreads: Set<String> = ["•", "·", "e", "¢e", "¢", "©", "°", "«", "»", "*", "o", "®", "@", "+", "=", "»e", "e»"]

    /// Joins a paragraph that a page break cut: when a page ends in a paragraph (or list item)
    /// without a sentence's end and the next page starts with a paragraph in lower case (or the
    /// first ended with a word broken by a hyphen), the second part joins the first, on the page
    /// where the paragraph began.
    static func joinAcrossPages(_ pages: inout [[Block]], hyphenated: Set<String>) {
        // The page whose last block a paragraph may go on (nil after a page without text).
        var open: Int? = pages.isEmpty || pages[0].isEmpty ? nil : 0
        for k in pages.indices.dropFirst() {
            if pages[k].isEmpty { open = nil; continue }
            defer { if !pages[k].isEmpty { open = k } }
            guard let p = open, case .paragraph(let next)? = pages[k].first, let first = next.first, let last = pages[p].last else { continue }
            var text: String
            switch last {
            case .paragraph(let t), .item(_, let t), .definition(_, _, let t, _): text = t
            default: continue
            }
            let end = text.reversed().drop { "\"'”’)]".contains($0) }.first
            guard let end, !".!?:".contains(end), first.isLowercase || text.hasSuffix("-") else { continue }
            append(line: next, to: &text, hyphenated: hyphenated)
            switch last {
            case .item(let marker, _): pages[p][pages[p].count - 1] = .item(marker: marker, text: text)
            case .definition(let term, let separator, _, let item):
                pages[p][pages[p].count - 1] = .definition(term: term, separator: separator, text: text, item: item)
            default: pages[p][pages[p].count - 1] = .paragraph(text)
            }
            pages[k].removeFirst()
        }
    }

    /// The size most of the text is set in (weighted by characters).
    static func bodySize(_ layout: PDFLayout) -> Double { mostCommon(layout) { rounded($0.size) } ?? 12 }

    /// The value of `key` most of the document's characters have (the smaller on a tie).
    static func mostCommon(_ layout: PDFLayout, _ key: (PDFLayout.Line) -> Double) -> Double? {
        var weight: [Double: Int] = [:]
        for page in layout.pages { for line in page.lines { weight[key(line), default: 0] += line.text.count } }
        return weight.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    static func rounded(_ size: Double) -> Double { (size * 2).rounded() / 2 }

    /// The pages without their running headers and footers (a line in the top or bottom tenth of
    /// the page whose text, digits aside, comes back on at least half the pages, and at least two)
    /// and their page numbers (a top or bottom line that is only a number).
    static func withoutRunningLines(_ layout: PDFLayout) -> ([PDFLayout.Page], Int) {
        // The body's line height (by characters): running lines are set no taller (a chapter's
        // heading near the top is not one).
        let bodyHeight = mostCommon(layout) { $0.height.rounded() } ?? 0
        // A page's margins: its top and bottom tenth, and the first and last row of text on it
        // (wide margins put a running head well inside the page).
        var edges: [Int: (top: Double, bottom: Double)] = [:]
        for page in layout.pages {
            guard let top = page.lines.map(\.top).min(), let bottom = page.lines.map({ $0.top + $0.height }).max() else { continue }
            edges[page.number] = (top, bottom)
        }
        func margin(_ line: PDFLayout.Line, _ page: PDFLayout.Page) -> Bool {
            guard line.height <= bodyHeight * 1.1 + 1 else { return false }
            if page.height > 0, line.top < page.height * 0.1 || line.top + line.height > page.height * 0.9 { return true }
            guard let edge = edges[page.number] else { return false }
            return line.top <= edge.top + 3 || line.top + line.height >= edge.bottom - 3
        }
        func key(_ text: String) -> String {
            String(text.lowercased().map { $0.isNumber ? "#" : $0 }).trimmingWhitespace()
        }
        var seen: [String: Set<Int>] = [:]
        for page in layout.pages { for line in page.lines where margin(line, page) { seen[key(line.text), default: []].insert(page.number) } }
        // Recurring on a fifth of the pages (left and right pages often differ), twice at least.
        let threshold = max(2, (layout.pages.count + 4) / 5)
        // Recurring: on a fifth of the pages at least, spread over half the document (a slide's
        // overlays repeat its text on pages in a row: that is not a running line).
        func recurring(_ pages: Set<Int>) -> Bool {
            guard pages.count >= threshold, let low = pages.min(), let high = pages.max() else { return false }
            return high - low + 1 >= max(2, layout.pages.count / 2)
        }
        var removed = 0
        let pages = layout.pages.map { page in
            var copy = page
            copy.lines = page.lines.filter { line in
                guard margin(line, page) else { return true }
                let t = line.text.trimmingWhitespace()
                let number = !t.isEmpty && (t.allSatisfy(\.isNumber) || (t.lowercased().hasPrefix("page ") && t.dropFirst(5).allSatisfy(\.isNumber)))
                    || Self.isFolio(t)
                if number || recurring(seen[key(line.text)] ?? []) { removed += 1; return false }
                return true
            }
            return copy
        }
        return (pages, removed)
    }

    /// A short margin line that starts or ends with a page number ("252 When Models meet Data",
    /// "8.1 Empirical Risk Minimization 259"): a running head.
    static func isFolio(_ t: String) -> Bool {
        let words = t.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, words.count <= 12, let first = words.first, let last = words.last else { return false }
        return (first.allSatisfy(\.isNumber) && first.count <= 4) || (last.allSatisfy(\.isNumber) && last.count <= 4)
    }

    /// A page's lines as blocks: headings, list items, paragraphs re-flowed (a line joins the one
    /// before unless the gap between them is well over a line's height, or it starts an item).
    static func blocks(_ lines: [PDFLayout.Line], body: Double, hyphenated: Set<String> = [],
                       level: (PDFLayout.Line) -> Int?) -> [Block] {
        // The column's right edge: where most body lines end.
        let right = lines.filter { abs($0.size - body) <= body * 0.15 }.map { $0.left + $0.width }.max() ?? 0
        var builder = BlockBuilder(hyphenated: hyphenated, right: right)
        let tables = tableRuns(lines)
        var skipUntil = 0
        for (index, line) in lines.enumerated() {
            if index < skipUntil { continue }
            if let run = tables.first(where: { $0.lines.lowerBound == index }) {
                builder.add(run)
                skipUntil = run.lines.upperBound
                continue
            }
            let t = line.text.trimmingWhitespace()
            guard !t.isEmpty else { continue }
            if builder.opens(line, t, level: level) { continue }
            builder.flow(line, t, level: level)
        }
        builder.close()
        return builder.blocks
    }

    /// A line opened by bold words (`lead`) split into a definition: the term, what separates it
    /// from the text (` – ` for a dash, `: `, else a space) and the text; nil without a lead or
    /// when the lead is not the line's start or is no term (over eight words).
    static func definition(_ t: String, lead: String?) -> (term: String, separator: String, text: String)? {
        guard let lead, !lead.isEmpty, t.hasPrefix(lead) else { return nil }
        var term = lead.trimmingWhitespace()
        var rest = Substring(t.dropFirst(lead.count)).drop { $0.isWhitespace }
        var separator = " "
        if term.hasSuffix(":") {
            term.removeLast()
            separator = ": "
        } else if let first = rest.first, "–—-:".contains(first) {
            separator = first == ":" ? ": " : " – "
            rest = rest.dropFirst().drop { $0.isWhitespace }
        }
        guard !term.isEmpty, term.split(whereSeparator: \.isWhitespace).count <= 8, term.contains(where: \.isLetter) else { return nil }
        return (term, separator, String(rest))
    }

    /// A table found among a page's lines: the lines it takes (consecutive) and its cells.
    struct TableRun: Equatable {
        var lines: Range<Int>
        var rows: [[String]]
    }

    /// The simple tables among `lines`: two rows or more of pieces of text set side by side on one
    /// baseline, two to twelve of them, each row's pieces starting (or ending) where the first
    /// row's do (within a line's height), apart by at least a line's height, with few words in a
    /// cell (at most six on average: two columns of running text are no table) and a word in the
    /// first row (its header).
    static func tableRuns(_ lines: [PDFLayout.Line]) -> [TableRun] {
        // Rows: consecutive lines on one baseline, left to right.
        var rows: [Range<Int>] = []
        var start = 0
        for k in lines.indices.dropFirst() where abs(lines[k].top - lines[start].top) > lines[start].height * 0.3 {
            rows.append(start..<k)
            start = k
        }
        if !lines.isEmpty { rows.append(start..<lines.count) }
        func cells(_ row: Range<Int>, atLeast least: Int = 2) -> [PDFLayout.Line]? {
            let sorted = lines[row].sorted { $0.left < $1.left }
            guard (least...12).contains(sorted.count) else { return nil }
            for (a, b) in zip(sorted, sorted.dropFirst()) where b.left - (a.left + a.width) < max(a.height, 4) { return nil }
            return sorted
        }
        // Two cells are in one column when they start, end or are centred at one place.
        func aligned(_ a: PDFLayout.Line, _ b: PDFLayout.Line, _ tolerance: Double) -> Bool {
            abs(a.left - b.left) <= tolerance || abs(a.right - b.right) <= tolerance
                || abs((a.left + a.right) / 2 - (b.left + b.right) / 2) <= tolerance
        }
        var runs: [TableRun] = []
        var k = 0
        while k < rows.count {
            guard var first = cells(rows[k], atLeast: 1) else { k += 1; continue }
            let tolerance = max(first[0].height, 4)
            // A header with no cell over the rows' labels: its cells are the later columns'.
            if k + 1 < rows.count, let second = cells(rows[k + 1]), second.count == first.count + 1,
               zip(first, second.dropFirst()).allSatisfy({ aligned($0, $1, tolerance) }), first[0].left > second[0].right {
                first.insert(PDFLayout.Line(top: first[0].top, left: second[0].left, width: second[0].width, height: first[0].height,
                                            size: first[0].size, bold: true, text: ""), at: 0)
            } else if first.count < 2 {
                k += 1
                continue
            }
            var members = [first]
            var j = k + 1
            while j < rows.count, let next = cells(rows[j]), next.count == first.count,
                  zip(first, next).allSatisfy({ aligned($0, $1, tolerance) || ($0.text.isEmpty && $1.left < first[1].left) }),
                  next[0].top - (members[members.count - 1][0].top + members[members.count - 1][0].height) < next[0].height * 2.5 {
                members.append(next)
                j += 1
            }
            let texts = members.map { $0.map { $0.text.trimmingWhitespace() } }
            let words = texts.joined().map { $0.split(whereSeparator: \.isWhitespace).count }
            // A header names its columns: a table whose first row has no word (a matrix of
            // numbers, set as one in maths) is left as text.
            let named = texts[0].contains { $0.filter(\.isLetter).count >= 2 }
            // A cell that would read as a card's marker (`Q:`, a cloze) stays in a paragraph,
            // where it is escaped; a table cell cannot be (the parser warns of it).
            let markerFree = !texts.joined().contains { cell in ["q:", "a:"].contains(cell.prefix(2).lowercased()) || cell.contains("{{") }
            if members.count >= 2, named, markerFree, words.reduce(0, +) <= words.count * 6 {
                runs.append(TableRun(lines: rows[k].lowerBound..<rows[j - 1].upperBound, rows: texts))
                k = j
            } else {
                k += 1
            }
        }
        return runs
    }

    /// A table as Markdown (GFM): a header row, the separator, the rows; cells escaped as text is,
    /// `|` as `\|`.
    static func table(_ rows: [[String]]) -> String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map { safe($0).replacing("|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        guard let header = rows.first else { return "" }
        return line(header) + "|" + String(repeating: " --- |", count: header.count) + "\n" + rows.dropFirst().map(line).joined()
    }

    /// Adds the next line of a paragraph to `text`: after a space, or — a word broken at the line's
    /// end (a letter and `-`, then a lower-case letter) — joined back without the hyphen, unless
    /// the document writes the word with it elsewhere (`hyphenated`, lower-cased: log-likelihood).
    static func append(line t: String, to text: inout String, hyphenated: Set<String> = []) {
        if text.isEmpty {
            text = t
        } else if text.hasSuffix("-"), let first = t.first, first.isLowercase, text.dropLast().last?.isLetter == true {
            let head = String(text.dropLast().reversed().prefix { $0.isLetter }.reversed())
            let tail = String(t.prefix { $0.isLetter })
            if !hyphenated.contains((head + "-" + tail).lowercased()) { text.removeLast() }
            text += t
        } else {
            text += " " + t
        }
    }

    /// A list item's marker (`-` for bullets, `N.` for numbers) and its text.
    static func listMarker(_ t: String) -> (String, String)? {
        for bullet in ["•", "◦", "▪", "‣", "●", "○", "■", "–", "—", "-", "*", "·"] where t.hasPrefix(bullet + " ") {
            return ("-", String(t.dropFirst(bullet.count + 1)).trimmingWhitespace())
        }
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 3 {
            let after = t.dropFirst(digits.count)
            if after.hasPrefix(". ") || after.hasPrefix(") ") { return (digits + ".", String(after.dropFirst(2)).trimmingWhitespace()) }
        }
        return nil
    }

    /// Text as Markdown that reads as the same text and as no card: Markdown's characters escaped,
    /// `::` written `:\:` and a `Q:`/`A:` at the start written `Q\:`.
    public static func safe(_ text: String) -> String {
        var s = HTMLToMarkdown.escaped(text)
        s = s.replacing("::", with: ":\\:")
        // `==` would open a highlight, which is a cloze: every `=` after another is escaped
        // (`=\=word=\=` reads as `==word==`).
        if s.contains("==") {
            var out = "", previous: Character?
            for c in s {
                if c == "=", previous == "=" { out += "\\" }
                out.append(c)
                previous = c
            }
            s = out
        }
        for prefix in ["Q:", "A:", "q:", "a:"] where s.hasPrefix(prefix) { s = String(s.prefix(1)) + "\\:" + s.dropFirst(2) }
        return s
    }
}

extension StringProtocol {
    /// The text without whitespace of any kind (no-break spaces too) at either end.
    fileprivate func trimmingWhitespace() -> String {
        String(self.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
