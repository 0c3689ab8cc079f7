import QuireMarkdown
import QuireModel
import QuireSupport
import QuireYAML

/// A piece of a note that search indexes and cites: a section's text (cut to about
/// ``NoteChunker/maximumWords`` words, never inside a sentence), or one card.
public struct Chunk: Sendable, Equatable {
    /// What the chunk holds.
    public enum Kind: Sendable, Equatable {
        /// Prose of the note (cards' lines left out: they are chunks of their own).
        case prose
        /// One card (a reversed pair's forward card, a cloze group's first card stand for their
        /// siblings): its front and back.
        case card(CardID)
    }

    public var kind: Kind
    /// The note's path in the vault.
    public var path: String
    /// The first and last line of the chunk in the file (1-based, front matter counted).
    public var lines: ClosedRange<Int>
    /// The headings above the chunk, outermost first.
    public var headingPath: [String]
    /// The chunk's text: Markdown source for prose, `front` then `back` for a card.
    public var text: String
    /// The page of the document the note was imported from (the last `<!-- page N -->` anchor
    /// above the chunk, FORMAT.md §8), if the note has such anchors.
    public var page: Int?
    /// The time in the recording the note was transcribed from, in seconds (the last
    /// `<!-- time m:ss -->` anchor above the chunk, or a live note's own `**m:ss**`, FORMAT.md §8),
    /// if the note has such anchors.
    public var time: Int?

    /// Creates a chunk.
    public init(kind: Kind, path: String, lines: ClosedRange<Int>, headingPath: [String], text: String, page: Int? = nil, time: Int? = nil) {
        self.kind = kind
        self.path = path
        self.lines = lines
        self.headingPath = headingPath
        self.text = text
        self.page = page
        self.time = time
    }

    /// The number of words in the text (runs of letters or digits; each CJK character counts as one).
    public var words: Int { NoteChunker.wordCount(text) }
}

/// Splits a note into chunks for search (issue: search and ask): by heading, then by size — a
/// section's blocks gathered up to about ``maximumWords`` words, a longer paragraph cut between
/// sentences — and each card a chunk of its own. Pure and linear in the note's size.
public enum NoteChunker {
    /// The size a prose chunk grows to before a new one starts (a block or sentence is never cut
    /// to meet it, so a chunk may pass it by one sentence).
    public static let maximumWords = 300
    /// A paragraph longer than this is cut between sentences.
    public static let longParagraphWords = 300
    /// No chunk is longer than this: a longer sentence, block or card is cut between words into
    /// pieces of ``maximumWords``. (Search's snippets cost the square of a chunk's matches: one
    /// card of 64,000 words took 27 s to search.)
    public static let hardMaximumWords = 2 * maximumWords

    /// The chunks of a note: `bytes` the file, `note` as ``NoteParser`` read it (its cards), in
    /// file order, prose and cards interleaved by their first line.
    public static func chunks(of note: Note, bytes: [UInt8]) -> [Chunk] {
        // Each card once: a pair's or group's siblings share its lines.
        var cardLines: Set<ClosedRange<Int>> = []
        var chunks: [Chunk] = []
        for card in note.cards where cardLines.insert(card.lines).inserted {
            let text = card.kind == .cloze ? card.back : card.front + "\n\n" + card.back
            let parts = wordCount(text) > hardMaximumWords ? wordPieces(text, maximum: maximumWords) : [text]
            for part in parts {
                chunks.append(Chunk(kind: .card(card.id), path: note.path, lines: card.lines, headingPath: card.headingPath, text: part))
            }
        }
        let (body, firstLine) = FrontMatter.body(of: bytes)
        let lines = splitLines(body)
        var prose = ProseChunks(path: note.path, lines: lines, firstLine: firstLine, cardLines: cardLines)
        let document = MarkdownDocument(parsing: Array(body), options: .indexing)
        for index in document.children(of: 0) { prose.take(index, of: document) }
        prose.flush()
        chunks += prose.chunks
        anchor(&chunks, lines: lines, firstLine: firstLine)
        return chunks.sorted { ($0.lines.lowerBound, $0.isCard ? 1 : 0) < ($1.lines.lowerBound, $1.isCard ? 1 : 0) }
    }

    /// Page and time anchors (an imported document's, a recording's): each chunk takes the last
    /// one above its first line (a live note keeps its own time).
    static func anchor(_ chunks: inout [Chunk], lines: [Substring], firstLine: Int) {
        var pages: [(line: Int, page: Int)] = [], times: [(line: Int, seconds: Int)] = []
        for (k, line) in lines.enumerated() where line.hasPrefix("<!-- ") {
            if let page = PageAnchor.page(of: line) { pages.append((k + firstLine, page)) }
            if let seconds = TimeAnchor.seconds(of: line) { times.append((k + firstLine, seconds)) }
        }
        guard !pages.isEmpty || !times.isEmpty else { return }
        for k in chunks.indices {
            let first = chunks[k].lines.lowerBound
            chunks[k].page = lastIndex(in: pages, atOrBefore: first, \.line).map { pages[$0].page }
            chunks[k].time = chunks[k].time ?? lastIndex(in: times, atOrBefore: first, \.line).map { times[$0].seconds }
        }
    }

    /// A note's prose gathered into chunks as its top-level blocks come: a section's blocks up to
    /// about ``maximumWords`` words, a new chunk at each heading and page or time anchor, cards'
    /// lines left out.
    struct ProseChunks {
        let path: String
        let lines: [Substring]
        let firstLine: Int
        /// How many cards hold each line of the file (by a running sum of +1 and -1 marks).
        var cardDepth: [Int]
        var headings: [(level: Int, text: String)] = []
        var pending: [(lines: ClosedRange<Int>, text: String, words: Int)] = []
        var pendingWords = 0
        var chunks: [Chunk] = []

        init(path: String, lines: [Substring], firstLine: Int, cardLines: Set<ClosedRange<Int>>) {
            self.path = path
            self.lines = lines
            self.firstLine = firstLine
            // Which lines of the file are a card's: +1 where a card's lines begin, -1 past their end.
            var depth = [Int](repeating: 0, count: lines.count + firstLine + 2)
            for range in cardLines {
                let low = min(max(range.lowerBound, 0), depth.count - 1), high = min(max(range.upperBound + 1, 0), depth.count - 1)
                guard low < high else { continue }
                depth[low] += 1
                depth[high] -= 1
            }
            for k in depth.indices.dropFirst() { depth[k] += depth[k - 1] }
            cardDepth = depth
        }

        /// Whether a line of the file (1-based, front matter counted) is a card's.
        func isCardLine(_ fileLine: Int) -> Bool { fileLine >= 0 && fileLine < cardDepth.count && cardDepth[fileLine] > 0 }

        /// The pending blocks as one chunk. Blocks come in the tree's order, which is not always
        /// the file's (cmark moves footnote definitions to the end): the chunk spans its lowest
        /// to its highest line.
        mutating func flush() {
            guard let low = pending.map(\.lines.lowerBound).min(), let high = pending.map(\.lines.upperBound).max() else { return }
            let text = pending.map(\.text).joined(separator: "\n\n")
            chunks.append(Chunk(kind: .prose, path: path, lines: (low + firstLine - 1)...(high + firstLine - 1),
                                headingPath: headings.map(\.text), text: text))
            pending = []
            pendingWords = 0
        }

        /// A block's text (body lines `range`) added to the pending chunk, which is flushed first
        /// when the block would take it past ``maximumWords``.
        mutating func add(_ range: ClosedRange<Int>, _ text: String) {
            let words = wordCount(text)
            guard words > 0 else { return }
            if pendingWords > 0, pendingWords + words > maximumWords { flush() }
            pending.append((range, text, words))
            pendingWords += words
        }

        /// Takes the document's top-level block `index`.
        mutating func take(_ index: Int, of document: MarkdownDocument) {
            let node = document.nodes[index]
            let start = max(1, node.range.start.line), end = max(start, node.range.end.line)
            if node.kind == .heading {
                flush()
                let text = document.plainText(of: index).trimmingSpaces()
                while let last = headings.last, last.level >= node.headingLevel { headings.removeLast() }
                headings.append((node.headingLevel, text))
                return
            }
            // A page or time anchor (an imported document's or recording's) is not text, and a
            // chunk never spans two pages or sections: the chunks below take its page or time.
            if node.kind == .htmlBlock, (start...end).allSatisfy({ $0 > lines.count || PageAnchor.page(of: lines[$0 - 1]) != nil
                || TimeAnchor.seconds(of: lines[$0 - 1]) != nil
                || lines[$0 - 1].allSatisfy(\.isWhitespace) }) {
                flush()
                return
            }
            // The block's lines that are no card's (cards are chunks of their own).
            var kept: [(line: Int, text: Substring)] = []
            for line in start...end where line <= lines.count && !isCardLine(line + firstLine - 1) {
                kept.append((line, lines[line - 1]))
            }
            guard !kept.isEmpty else { return }
            let text = kept.map(\.text).joined(separator: "\n")
            let words = wordCount(text)
            if node.kind == .list, kept.allSatisfy({ TimeAnchor.seconds(ofLiveNote: $0.text) != nil }) {
                // A recording's live notes: each cites its own time, so each is a chunk of its own.
                flush()
                for (line, text) in kept {
                    let before = chunks.count
                    add(line...line, String(text))
                    flush()
                    if chunks.count > before { chunks[before].time = TimeAnchor.seconds(ofLiveNote: text) }
                }
            } else if node.kind == .paragraph, words > longParagraphWords {
                // A long paragraph: its sentences gathered into pieces, each with its lines.
                for piece in sentencePieces(kept) { add(piece.lines, piece.text) }
            } else if words > hardMaximumWords {
                // A long list, table, quote or code block: its lines gathered into pieces.
                for piece in pieces(kept, separator: "\n", units: { [String($0)] }) { add(piece.lines, piece.text) }
            } else {
                add((kept.first?.line ?? start)...(kept.last?.line ?? end), text)
            }
        }
    }

    /// A paragraph's lines cut into pieces of whole sentences, each at most about
    /// ``maximumWords`` words (a longer sentence is a piece of its own, one longer than
    /// ``hardMaximumWords`` cut between words).
    static func sentencePieces(_ lines: [(line: Int, text: Substring)]) -> [(lines: ClosedRange<Int>, text: String)] {
        pieces(lines, separator: " ", units: { SentenceSplitter.sentences($0) })
    }

    /// Lines cut into `units` (sentences, or the lines whole) gathered into pieces of at most about
    /// ``maximumWords`` words, joined by `separator`, each with its lines; a unit longer than
    /// ``hardMaximumWords`` is cut between words.
    static func pieces(_ lines: [(line: Int, text: Substring)], separator: String,
                       units: (Substring) -> [String]) -> [(lines: ClosedRange<Int>, text: String)] {
        var pieces: [(lines: ClosedRange<Int>, text: String)] = []
        var current = "", words = 0
        var firstLine: Int?, lastLine = 0
        func close() {
            if let first = firstLine, !current.isEmpty { pieces.append((first...lastLine, current)) }
            current = ""
            words = 0
            firstLine = nil
        }
        for (number, text) in lines {
            for unit in units(text) {
                let n = wordCount(unit)
                if n > hardMaximumWords {
                    close()
                    for part in wordPieces(unit, maximum: maximumWords) { pieces.append((number...number, part)) }
                    continue
                }
                if words > 0, words + n > maximumWords { close() }
                if firstLine == nil { firstLine = number }
                current += (current.isEmpty ? "" : separator) + unit
                words += n
                lastLine = number
            }
        }
        close()
        return pieces
    }

    /// `text` cut between words into pieces of at most `maximum` words (as ``wordCount(_:)``
    /// counts them: an ideograph is a word of its own), never inside a character, the pieces
    /// trimmed.
    static func wordPieces(_ text: String, maximum: Int) -> [String] {
        var pieces: [String] = []
        var count = 0, inWord = false
        var start = text.startIndex
        let scalars = text.unicodeScalars
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let kind = letter(scalars[i])
            let startsWord = kind == .single || (kind == .word && !inWord)
            if startsWord, count >= maximum, let cut = i.samePosition(in: text) {
                let piece = trimmed(text[start..<cut])
                if !piece.isEmpty { pieces.append(piece) }
                start = cut
                count = 0
            }
            if startsWord { count += 1 }
            inWord = kind == .word
            scalars.formIndex(after: &i)
        }
        let last = trimmed(text[start...])
        if !last.isEmpty { pieces.append(last) }
        return pieces
    }

    /// `text` without the white space (line ends too) at its ends.
    private static func trimmed(_ text: Substring) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }

    /// The index of the last of `items` (sorted by `key`) whose key is at most `value`.
    static func lastIndex<T>(in items: [T], atOrBefore value: Int, _ key: (T) -> Int) -> Int? {
        var low = 0, high = items.count
        while low < high {
            let mid = (low + high) / 2
            if key(items[mid]) <= value { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? low - 1 : nil
    }

    /// Words: runs of letters, digits or marks; each ideograph, kana or hangul syllable one word.
    public static func wordCount(_ text: String) -> Int {
        var count = 0, inWord = false
        for scalar in text.unicodeScalars {
            switch letter(scalar) {
            case .word:
                if !inWord { count += 1 }
                inWord = true
            case .single:
                count += 1
                inWord = false
            case .other:
                inWord = false
            }
        }
        return count
    }

    /// What a character is to a word count.
    enum Letter {
        /// Part of a word: a letter, digit or mark.
        case word
        /// A word of its own: an ideograph, kana or hangul syllable.
        case single
        /// Between words.
        case other
    }

    /// How `scalar` counts in ``wordCount(_:)``.
    @inline(__always)
    static func letter(_ scalar: Unicode.Scalar) -> Letter {
        // ASCII without a look-up in the Unicode tables (most text; the tables cost 30× more).
        if scalar.value < 0x80 {
            let v = scalar.value
            return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) ? .word : .other
        }
        let p = scalar.properties
        if p.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value) { return .single }
        return p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark ? .word : .other
    }

    /// The lines of a text (LF or CRLF), without their ends.
    static func splitLines(_ bytes: ArraySlice<UInt8>) -> [Substring] {
        // By bytes: a String sees CR LF as one character, which a split on LF would miss.
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            Substring(String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self))
        }
    }
}

extension Chunk {
    /// Whether the chunk is a card.
    var isCard: Bool { if case .card = kind { true } else { false } }
}
