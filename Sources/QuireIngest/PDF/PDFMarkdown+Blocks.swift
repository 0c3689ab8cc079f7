import QuireInterchange
import QuireModel

/// A page's lines read into blocks, and blocks written as Markdown.
extension PDFMarkdown {
    /// What ``blocks(_:body:hyphenated:level:)`` has read of a page so far: the blocks done, and
    /// the paragraph, item or definition being read.
    struct BlockBuilder {
        /// Words the document writes with a hyphen (``append(line:to:hyphenated:)``).
        let hyphenated: Set<String>
        /// The column's right edge: where most body lines end.
        let right: Double
        var blocks: [Block] = []
        var text = ""
        var item: String?
        var itemLeft = 0.0
        /// A hanging definition's term and separator, and whether its lines go on at its
        /// bullet's margin (a bullet glyph's item: a cheat sheet's lines hang back to the margin).
        var term: (text: String, separator: String)?
        var hanging = false
        var previous: PDFLayout.Line?

        /// Nothing read yet.
        init(hyphenated: Set<String>, right: Double) {
            self.hyphenated = hyphenated
            self.right = right
        }

        /// Ends the block being read: a definition, an item or a paragraph (nothing when empty).
        mutating func close() {
            if let term {
                blocks.append(.definition(term: term.text, separator: term.separator, text: text, item: item != nil))
            } else if !text.isEmpty {
                blocks.append(item.map { .item(marker: $0, text: text) } ?? .paragraph(text))
            }
            text = ""
            item = nil
            term = nil
            hanging = false
        }

        /// Adds a table found among the lines.
        mutating func add(_ run: TableRun) {
            close()
            blocks.append(.table(run.rows))
            previous = nil
        }

        /// Reads a line (`t`, its text trimmed) that opens a block of its own — a bullet's item, a
        /// definition, a heading, a list item — and says whether it was one.
        mutating func opens(_ line: PDFLayout.Line, _ t: String, level: (PDFLayout.Line) -> Int?) -> Bool {
            if line.bullet {
                // A bullet drawn as a glyph: an item, a definition when bold words open it.
                close()
                item = "-"
                itemLeft = line.left
                hanging = true
                if let split = PDFMarkdown.definition(t, lead: line.lead) { term = (split.term, split.separator); text = split.text } else { text = t }
            } else if let lead = line.lead, let split = PDFMarkdown.definition(t, lead: lead), split.separator != " " {
                // `**Term** – text` opening a paragraph.
                close()
                term = (split.term, split.separator)
                text = split.text
                hanging = true
                itemLeft = line.left
            } else if let l = level(line) {
                close()
                heading(line, t, level: l, of: level)
            } else if let (marker, rest) = PDFMarkdown.listMarker(t) {
                close()
                item = marker
                itemLeft = line.left
                text = rest
            } else {
                return false
            }
            previous = line
            return true
        }

        /// Adds a heading line at level `l`: a row of a table's header when it stands beside the
        /// line before, the rest of the heading before when that is set on the line above.
        private mutating func heading(_ line: PDFLayout.Line, _ t: String, level l: Int, of level: (PDFLayout.Line) -> Int?) {
            // Bold pieces side by side on one baseline are a row of a table's header, not a
            // heading: a line of its own, its cells apart.
            if let p = previous, abs(p.top - line.top) < line.height * 0.3, line.left > p.right + line.height {
                switch blocks.last {
                case .heading(_, let pt)?: blocks[blocks.count - 1] = .paragraph(pt + " · " + t)
                case .paragraph(let pt)?: blocks[blocks.count - 1] = .paragraph(pt + " · " + t)
                default: blocks.append(.paragraph(t))
                }
                return
            }
            // A heading set on two lines is one heading.
            if case .heading(let pl, let pt)? = blocks.last, let p = previous, level(p) == l, line.top - (p.top + p.height) < line.height {
                blocks[blocks.count - 1] = .heading(level: pl, text: pt + " " + t)
            } else {
                blocks.append(.heading(level: l, text: t))
            }
        }

        /// Adds a line (`t`, its text trimmed) to the paragraph or item being read, ending that
        /// first when the line starts a new one: a block's opening, a gap well over a line's
        /// height, a line not set in under an item's marker, a first line set in, or a sentence
        /// ending the line before well short of the column.
        mutating func flow(_ line: PDFLayout.Line, _ t: String, level: (PDFLayout.Line) -> Int?) {
            if line.opensBlock { close() }
            if let p = previous, !text.isEmpty {
                let gap = line.top - (p.top + p.height)
                // An item goes on only on lines set in from its marker.
                if gap > max(p.height, line.height) * 0.9 || level(p) != nil || (item != nil && !hanging && line.left <= itemLeft + 1)
                    || (hanging && line.left < itemLeft - line.height) {
                    close()
                } else if item == nil, term == nil, let last = text.last, ".!?:\"”)".contains(last),
                          line.left > p.left + line.height * 0.6 || p.left + p.width < right - line.height * 3 {
                    // A first line set in, or a sentence ending a line well short of the column: a new paragraph.
                    close()
                }
            }
            PDFMarkdown.append(line: t, to: &text, hyphenated: hyphenated)
            previous = line
        }
    }

    /// The note's body as the pages are written into it, with what the conversion reports.
    struct MarkdownWriter {
        var out = ""
        var empty: [Int] = []
        var headings = 0
        var afterItem = false
        var firstHeading: String?
        var ocrPages: [Int] = []

        /// Writes a page: its anchor, then its blocks (`merged`: the words OCR added to its text),
        /// or for a page without text its OCR reading (`read`), if any.
        mutating func add(_ page: PDFLayout.Page, blocks: [Block], merged: [OCRText.Word]?, read: OCRText?) {
            out += (out.isEmpty ? "" : "\n") + PageAnchor.line(page.number) + "\n"
            if page.lines.isEmpty {
                if let read, !read.words.isEmpty {
                    out += PDFMarkdown.ocrLine("Page \(page.number) was read", read.words)
                    out += "\n" + read.markdown + "\n"
                    ocrPages.append(page.number)
                } else {
                    empty.append(page.number)
                }
                return
            }
            afterItem = false
            if let words = merged {
                out += PDFMarkdown.ocrLine("Part of page \(page.number) was read", words)
                ocrPages.append(page.number)
            }
            for block in blocks { add(block) }
        }

        /// Writes a block: items one after another make one tight list.
        private mutating func add(_ block: Block) {
            switch block {
            case .heading(let level, let text):
                headings += 1
                if firstHeading == nil { firstHeading = text }
                out += "\n" + String(repeating: "#", count: level) + " " + PDFMarkdown.safe(text) + "\n"
                afterItem = false
            case .paragraph(let text):
                out += "\n" + PDFMarkdown.safe(text) + "\n"
                afterItem = false
            case .item(let marker, let text):
                // Items one after another make one tight list.
                out += (afterItem ? "" : "\n") + marker + " " + PDFMarkdown.safe(text) + "\n"
                afterItem = true
            case .table(let rows):
                out += "\n" + PDFMarkdown.table(rows)
                afterItem = false
            case .definition(let term, let separator, let text, let item):
                let line = "**" + PDFMarkdown.safe(term) + "**" + (text.isEmpty ? "" : separator + PDFMarkdown.safe(text))
                out += (item && afterItem ? "" : "\n") + (item ? "- " : "") + line + "\n"
                afterItem = item
            }
        }
    }
}
