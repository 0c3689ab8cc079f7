import QuireMarkdown
import QuireModel
import QuireSupport

/// What card extraction finds in a note's body.
public struct BodyScan: Sendable {
    /// The cards in document order; those without an explicit ID carry ``CardID/unassigned``
    /// until ``CardMatcher`` gives them theirs.
    public var cards: [Card] = []
    /// Inline `#tags`, in order of appearance, without the `#`.
    public var inlineTags: [String] = []
    /// The text of the first level-1 heading.
    public var firstTitle: String?
    public var diagnostics: [Diagnostic] = []
}

/// Finds cards, inline tags and the title by walking a note's Markdown tree (FORMAT.md §3).
///
/// Recognition works on paragraphs, line by line, on their source lines with inline code and
/// inline HTML masked out, so nothing in code or HTML ever becomes a card. Every line that looks
/// like card syntax either becomes (part of) a card or gets a located warning (FORMAT.md §3.7).
struct CardExtractor: MarkdownWalker {
    let source: SourceText
    let path: String
    var scan = BodyScan()
    private var headings: [(level: Int, text: String)] = []
    /// `headings` texts, kept ready because every card copies it.
    var headingPath: [String] = []
    /// Each heading's line and the heading path from it on, in file order.
    private var headingLines: [(line: Int, path: [String])] = []
    /// A generated card's source in this note (`<!-- generated from line N … -->` on the line
    /// before it): the card's first line and the heading path at line N, which the card shows.
    private var generatedSource: (cardLine: Int, path: [String])?
    var frames: [Frame] = []
    /// Reused paragraph buffers.
    private var scratch = ParagraphText()
    /// The code block taken as the second side of the fenced card before it (FORMAT.md §3.10).
    var consumedFence: Int?

    /// State of one container (document, block quote, list item…) whose children are being walked.
    struct Frame {
        var container: Int
        /// A `Q:` paragraph that had no `A:` yet: its card data waits for an `A:` paragraph.
        var pendingQuestion: PendingQuestion?
        /// A card whose answer marker (`A:`, `?`, `??`) ended its paragraph with nothing after it:
        /// the next block is its answer.
        var pendingAnswer: PendingAnswer?
        /// The card whose answer may take the blocks that follow (FORMAT.md §3.1).
        var openAnswer: OpenAnswer?
    }

    struct PendingQuestion {
        var front: String
        var firstLine: Int
        var column: Int
    }

    struct PendingAnswer {
        var front: String
        var reversed: Bool
        var firstLine: Int
        var lastLine: Int
        var column: Int
    }

    struct OpenAnswer {
        /// Index in `scan.cards` of the card (for a reversed pair, the forward card; the backward
        /// card follows it).
        var card: Int
        /// The last line the answer covers so far.
        var lastLine: Int
        /// Whether the answer so far ends with `:` (it announces what follows).
        var announces: Bool
    }

    init(source: SourceText, path: String) {
        self.source = source
        self.path = path
    }

    /// Scans a parsed body.
    static func scan(_ document: MarkdownDocument, source: SourceText, path: String) -> BodyScan {
        var walker = CardExtractor(source: source, path: path)
        document.walk(&walker)
        walker.finishAllFrames()
        return walker.scan
    }

    // MARK: - Walking

    mutating func visit(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> MarkdownWalkAction {
        // (The innermost frame is read in place: a copy would retain its strings.)
        if let last = frames.indices.last, frames[last].pendingAnswer != nil || frames[last].openAnswer != nil,
           node.parent == frames[last].container, followingBlock(node, at: index, in: document) {
            return .skipChildren
        }
        switch node.kind {
        case .document, .blockQuote, .list, .item, .footnoteDefinition:
            frames.append(Frame(container: index))
            return .visitChildren
        case .heading:
            closePendingQuestion()
            let text = document.plainText(of: index).trimmingSpaces()
            while let last = headings.last, last.level >= node.headingLevel { headings.removeLast() }
            headings.append((node.headingLevel, text))
            headingPath = headings.map(\.text)
            headingLines.append((node.range.start.line, headingPath))
            if node.headingLevel == 1, scan.firstTitle == nil, !text.isEmpty { scan.firstTitle = text }
            if !syntaxMarkers(node).isDisjoint(with: [.colon, .doubled]) {
                warnOfCardSyntax(in: index, of: document, what: "a heading is never a card")
            }
            return .skipChildren
        case .paragraph:
            paragraph(node, at: index, in: document)
            return .skipChildren
        case .codeBlock:
            fencedCard(node, at: index, in: document)
            return .skipChildren
        case .htmlBlock:
            noteGeneratedSource(node)
            return .skipChildren
        case .table:
            // Only `Q:`, `A:` and `{{cN::` are looked for in cells.
            guard !syntaxMarkers(node).isDisjoint(with: [.colon, .doubled]) else { return .skipChildren }
            var cell = index + 1
            while cell < node.subtreeEnd {
                if document.nodes[cell].kind == .tableCell {
                    warnOfCardSyntax(in: cell, of: document, what: "a table cell is never a card", lenient: true)
                }
                cell += 1
            }
            return .skipChildren
        default:
            return .skipChildren
        }
    }

    mutating func leave(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {
        if let last = frames.indices.last, frames[last].container == index {
            closePendingQuestion()
            frames.removeLast()
        }
    }

    mutating func finishAllFrames() {
        while !frames.isEmpty {
            closePendingQuestion()
            frames.removeLast()
        }
    }

    /// Ends the waiting states of the innermost container: a question without its `A:` paragraph
    /// and an answer marker without its block are reported.
    mutating func closePendingQuestion() {
        // In place: a copy of the frame would retain its strings.
        guard let last = frames.indices.last else { return }
        if let pending = frames[last].pendingQuestion {
            warn(line: pending.firstLine, column: pending.column,
                 "question has no answer (expected a line starting with 'A:'); no card made")
            frames[last].pendingQuestion = nil
        }
        if let pending = frames[last].pendingAnswer {
            warn(line: pending.firstLine, column: pending.column, "card has an empty answer; no card made")
            frames[last].pendingAnswer = nil
        }
        frames[last].openAnswer = nil
    }

    /// Gives a block that follows a card to its answer when the rules of FORMAT.md §3.1 say it
    /// belongs there; returns whether it did.
    private mutating func followingBlock(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> Bool {
        let absorbable: Bool
        switch node.kind {
        case .blockQuote:
            // The plugin's metadata callout (`> [!sr|card-metadata]`) holds its scheduling comment.
            if isMetadataCallout(node) { return true }
            absorbable = true
        case .codeBlock: absorbable = !Self.isCardFence(node)
        case .list, .table: absorbable = true
        case .htmlBlock:
            // The Obsidian plugin's scheduling comment on the line after a card is not content.
            if isSchedulingComment(node) { return true }
            absorbable = false
        default: absorbable = false
        }
        let last = frames.count - 1
        if let pending = frames[last].pendingAnswer {
            frames[last].pendingAnswer = nil
            // The answer marker announced it: the next block is the answer, after a blank line
            // too (a paragraph only when it holds no card syntax of its own; see `paragraph`).
            if absorbable {
                let block = blockText(node)
                emitQuestion(front: pending.front, back: block, reversed: pending.reversed,
                             lines: pending.firstLine...max(pending.lastLine, node.range.end.line),
                             column: pending.column, explicitID: nil)
                return true
            }
            if node.kind == .paragraph {
                frames[last].pendingAnswer = pending
                return false
            }
            warn(line: pending.firstLine, column: pending.column, "card has an empty answer; no card made")
            return false
        }
        guard let open = frames[last].openAnswer else { return false }
        // A block belongs to the answer when no blank line separates them, or when the answer so
        // far ends with ':'.
        let adjacent = node.range.start.line <= open.lastLine + 1
        guard absorbable, adjacent || open.announces else {
            frames[last].openAnswer = nil
            return false
        }
        absorb(node, into: open.card)
        return true
    }

    /// Notes the source of the generated card after a `<!-- generated from line N … -->` comment
    /// under `## Cards` (where `quire generate --place cards` writes): the card shows the heading
    /// path of line N, the section it came from, not "Cards".
    private mutating func noteGeneratedSource(_ node: MarkdownNode) {
        let prefix = "<!-- generated from line "
        // Only under `## Cards`: a card written into its own section is under its heading already
        // (and the comment's line, counted before the cards above it were written, may be stale).
        guard headingPath.last == "Cards", let literal = node.literal, literal.hasPrefix(prefix),
              let n = Int(literal.dropFirst(prefix.count).prefix { $0.isNumber }), n < node.range.start.line else { return }
        let path = headingLines.last { $0.line <= n }?.path ?? []
        generatedSource = (node.range.end.line + 1, path)
    }

    /// Whether an HTML block is only an Obsidian spaced-repetition scheduling comment.
    private func isSchedulingComment(_ node: MarkdownNode) -> Bool {
        guard let literal = node.literal else { return false }
        var bytes = Substring(literal).utf8.drop { $0 == 32 || $0 == 9 }
        while let last = bytes.last, last == 10 || last == 13 || last == 32 || last == 9 { bytes = bytes.dropLast() }
        return bytes.starts(with: "<!--SR:".utf8) && bytes.reversed().starts(with: ">--".utf8)
            && !bytes.contains(10)
    }

    /// Whether a block quote is the Obsidian plugin's metadata callout, `> [!sr|card-metadata]`.
    private func isMetadataCallout(_ node: MarkdownNode) -> Bool {
        guard node.range.start.line >= 1, node.range.start.line <= source.lineCount else { return false }
        let line = source.lineRange(node.range.start.line)
        var bytes = source.bytes[line].drop { $0 == 32 || $0 == 9 }
        guard bytes.first == UInt8(ascii: ">") else { return false }
        bytes = bytes.dropFirst().drop { $0 == 32 || $0 == 9 }
        return bytes.starts(with: "[!sr|card-metadata]".utf8)
    }

    /// The source text of a block, its container prefixes removed.
    private func blockText(_ node: MarkdownNode) -> String {
        let first = node.range.start.line, last = max(node.range.end.line, first)
        let drop = node.range.start.column - 1
        var text: [String] = []
        for line in first...last where line <= source.lineCount {
            let range = source.lineRange(line)
            var start = range.lowerBound, dropped = 0
            while start < range.upperBound, dropped < drop,
                  isSpace(source.bytes[start]) || source.bytes[start] == 62 {
                start += 1
                dropped += 1
            }
            text.append(String(decoding: source.bytes[start..<range.upperBound], as: UTF8.self))
        }
        return text.joined(separator: "\n")
    }

    private mutating func absorb(_ node: MarkdownNode, into cardIndex: Int) {
        let block = blockText(node)
        let last = max(node.range.end.line, node.range.start.line)
        scan.cards[cardIndex].back += "\n\n" + block
        scan.cards[cardIndex].lines = scan.cards[cardIndex].lines.lowerBound...max(scan.cards[cardIndex].lines.upperBound, last)
        let pair = cardIndex + 1
        if pair < scan.cards.count, scan.cards[pair].variant == .backward {
            scan.cards[pair].front += "\n\n" + block
            scan.cards[pair].lines = scan.cards[cardIndex].lines
        }
        if !frames.isEmpty {
            frames[frames.count - 1].openAnswer?.lastLine = last
            frames[frames.count - 1].openAnswer?.announces = block.hasSuffix(":")
        }
    }

    /// Warns when a heading or table cell holds text that looks like a card (FORMAT.md §3.7).
    /// `lenient` (table cells): ` :: ` and `==highlight==` are taken for text there, as tables of
    /// type signatures and highlighted words are common.
    private mutating func warnOfCardSyntax(in index: Int, of document: MarkdownDocument, what: String,
                                           lenient: Bool = false) {
        let node = document.nodes[index]
        var text: [UInt8] = []
        var position = index + 1
        while position < node.subtreeEnd {
            if document.nodes[position].kind == .text, let literal = document.nodes[position].literal {
                text.append(contentsOf: literal.utf8)
            }
            position += 1
        }
        guard let syntax = Self.cardSyntax(in: text, lenient: lenient) else { return }
        warn(line: node.range.start.line, column: node.range.start.column,
             "\(what) (it holds \(syntax)); write the card in a paragraph")
    }

    /// The card syntax a line of text holds, named for a warning.
    static func cardSyntax(in text: [UInt8], lenient: Bool = false) -> String? {
        let range = 0..<text.count
        if afterCardMarker(text, range, UInt8(ascii: "Q")) != nil { return "'Q:'" }
        if afterCardMarker(text, range, UInt8(ascii: "A")) != nil { return "'A:'" }
        if !lenient, let separator = oneLineSeparator(text, range) {
            return separator.count == 3 ? "' ::: '" : "' :: '"
        }
        if hasAnkiClozeOpener(text, range) { return "a cloze deletion" }
        if !lenient, hasHighlight(text, range) { return "a '==highlight=='" }
        return nil
    }

    // MARK: - Paragraphs

    private mutating func paragraph(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {
        // Most prose holds none of the bytes any card syntax or tag needs: skip it cheaply, and
        // later skip each syntax whose marker bytes are absent.
        guard node.range.start.line >= 1 else {
            // cmark-gfm lost where this paragraph is (one it split off before a table, in a shape
            // the converter could not place): its text cannot be read from the file.
            let table = node.nextSibling.map { document.nodes[$0].range.start } ?? SourceLocation(line: 1, column: 1)
            warn(line: max(1, table.line), column: max(1, table.column),
                 "the text just before this table could not be placed in the file; no card read from it (a blank line before the table fixes this)")
            return
        }
        let markers = syntaxMarkers(node)
        let waiting = frames.indices.last.map { frames[$0].pendingQuestion != nil || frames[$0].pendingAnswer != nil } ?? false
        if !waiting, markers.isEmpty { return }
        let masks = inlineMasks(of: index, in: document)
        scratch.load(source: source, first: node.range.start.line, last: node.range.end.line,
                     startColumn: node.range.start.column, masks: masks)
        // Moved out for the card readers (mutating methods of `self` cannot be handed a stored
        // property), and moved back when done so its buffers serve the next paragraph.
        var text = ParagraphText()
        swap(&text, &scratch)
        defer { swap(&text, &scratch) }
        if markers.contains(.hash) { collectTags(text) }
        readCards(text, markers: markers)
    }

    /// Which marker bytes a paragraph's source holds.
    struct SyntaxMarkers: OptionSet {
        let rawValue: UInt8
        /// `:` — `Q:`/`A:`, `::`, `:::`.
        static let colon = SyntaxMarkers(rawValue: 1)
        /// `?` — the multi-line `?`/`??` separators.
        static let question = SyntaxMarkers(rawValue: 2)
        /// `{{` or `==` — cloze deletions.
        static let doubled = SyntaxMarkers(rawValue: 4)
        /// `#` — inline tags.
        static let hash = SyntaxMarkers(rawValue: 8)
    }

    /// The bytes every card syntax and tag needs, looked for in the paragraph's source lines with
    /// `memchr` (a paragraph is mostly prose, which it skips many bytes at a time).
    private func syntaxMarkers(_ node: MarkdownNode) -> SyntaxMarkers {
        let start = source.lineRange(node.range.start.line).lowerBound
        let end = source.lineRange(max(node.range.end.line, node.range.start.line)).upperBound
        return source.bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, end > start else { return [] }
            let count = end - start
            var found: SyntaxMarkers = []
            if RawBytes.first(0x3A, in: base + start, count: count) != nil { found.insert(.colon) }
            if RawBytes.first(0x3F, in: base + start, count: count) != nil { found.insert(.question) }
            if RawBytes.first(0x23, in: base + start, count: count) != nil { found.insert(.hash) }
            // `{{` or `==`: each `{` or `=` found is checked for a second one after it.
            func doubled(_ byte: UInt8) -> Bool {
                var i = start
                while let at = Self.firstIndex(of: byte, in: buf, from: i, before: end) {
                    if at + 1 < end, base[at + 1] == byte { return true }
                    i = at + 1
                }
                return false
            }
            if doubled(UInt8(ascii: "{")) || doubled(UInt8(ascii: "=")) { found.insert(.doubled) }
            return found
        }
    }

    /// Byte ranges (in the file) of inline code and inline HTML inside a paragraph, in document
    /// order.
    private func inlineMasks(of index: Int, in document: MarkdownDocument) -> [ClosedRange<Int>] {
        var masks: [ClosedRange<Int>] = []
        // Read the nodes in place: copying each node out of the array would retain its fields.
        document.nodes.withUnsafeBufferPointer { nodes in
            var i = index + 1
            let end = nodes[index].subtreeEnd
            while i < end {
                let kind = nodes[i].kind
                if kind == .code || kind == .htmlInline {
                    let range = nodes[i].range
                    let lo = source.offset(line: range.start.line, column: range.start.column)
                    let hi = source.offset(line: range.end.line, column: range.end.column)
                    if hi >= lo { masks.append(lo...hi) }
                    i = nodes[i].subtreeEnd
                } else {
                    i += 1
                }
            }
        }
        return masks
    }

    /// The offset of the first `byte` in `bytes` at or after `start`.
    static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: byte, in: $0, from: start, before: $0.count) }
    }

    /// The offset of the first `byte` in `bytes[start..<end]`.
    static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int, before end: Int) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: byte, in: $0, from: start, before: min(end, $0.count)) }
    }

    /// The offset of the first `byte` in `bytes[start..<end]`, found with `memchr`.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard let base = bytes.baseAddress, start < end, end <= bytes.count,
              let hit = RawBytes.first(byte, in: base + start, count: end - start) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    // MARK: - Emitting

    mutating func warn(line: Int, column: Int, _ message: String) {
        scan.diagnostics.append(Diagnostic(.warning, path: path, line: line, column: column, message: message))
    }

    func makeCard(kind: CardKind, variant: CardVariant, front: String, back: String, lines: ClosedRange<Int>,
                  column: Int, identityText: String, explicitID: CardID?) -> Card {
        Card(id: explicitID ?? .unassigned, kind: kind, variant: variant, front: front, back: back, lines: lines,
             column: column, headingPath: generatedSource.flatMap { $0.cardLine == lines.lowerBound ? $0.path : nil } ?? headingPath,
             identityText: identityText, hasExplicitID: explicitID != nil)
    }

    mutating func emit(_ card: Card) {
        scan.cards.append(card)
    }

    /// Emits a question card (`Q:`/`A:`, `?`, or `??` when `reversed`) whose answer may take the
    /// blocks that follow, or warns when a side is empty.
    mutating func emitQuestion(front: String, back: String, reversed: Bool, lines: ClosedRange<Int>, column: Int,
                               explicitID: CardID?) {
        guard !front.isEmpty, !back.isEmpty else {
            warn(line: lines.lowerBound, column: column,
                 front.isEmpty ? "card has an empty question; no card made" : "card has an empty answer; no card made")
            return
        }
        let index = scan.cards.count
        if reversed {
            emitReversed(left: front, right: back, lines: lines, column: column, explicitID: explicitID)
        } else {
            emit(makeCard(kind: .basic, variant: .single, front: front, back: back, lines: lines, column: column,
                          identityText: "", explicitID: explicitID))
        }
        if !frames.isEmpty {
            frames[frames.count - 1].openAnswer = OpenAnswer(card: index, lastLine: lines.upperBound,
                                                             announces: back.hasSuffix(":"))
        }
    }

    mutating func emitReversed(left: String, right: String, lines: ClosedRange<Int>, column: Int, explicitID: CardID?) {
        // The identity text of a pair is computed from the sides when needed (see `Card`).
        emit(makeCard(kind: .reversed, variant: .forward, front: left, back: right, lines: lines, column: column,
                      identityText: "", explicitID: explicitID))
        emit(makeCard(kind: .reversed, variant: .backward, front: right, back: left, lines: lines, column: column,
                      identityText: "", explicitID: explicitID?.suffixed("r")))
    }

    /// Removes a trailing Obsidian block ID (` ^id`) from the end of `range` and returns it.
    func takeExplicitID(_ text: ParagraphText, _ range: inout Range<Int>) -> CardID? {
        let m = text.masked
        var end = range.upperBound
        while end > range.lowerBound, isSpace(m[end - 1]) || m[end - 1] == 10 { end -= 1 }
        var start = end
        while start > range.lowerBound, m[start - 1] != 10, CardID.isIDByte(m[start - 1]), m[start - 1] != 95 {
            start -= 1
        }
        guard start < end, start - 1 > range.lowerBound, m[start - 1] == UInt8(ascii: "^"),
              isSpace(m[start - 2]) else { return nil }
        guard let id = CardID(text.string(start..<end)) else { return nil }
        range = range.lowerBound..<(start - 1)
        return id
    }

    // MARK: - Inline tags

    private mutating func collectTags(_ text: ParagraphText) {
        let m = text.masked
        guard m.contains(UInt8(ascii: "#")) else { return }
        var j = 0
        while j < m.count {
            guard m[j] == UInt8(ascii: "#"), j == 0 || isSpace(m[j - 1]) || m[j - 1] == 10 else { j += 1; continue }
            var k = j + 1
            var hasNonDigit = false
            while k < m.count {
                let b = m[k]
                let isDigit = b >= 48 && b <= 57
                let ok = isDigit || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45 || b == 47
                    || b >= 0x80
                guard ok else { break }
                if !isDigit { hasNonDigit = true }
                k += 1
            }
            // A tag does not end in `/` or `-`.
            while k > j + 1, m[k - 1] == 47 || m[k - 1] == 45 { k -= 1 }
            if k > j + 1, hasNonDigit {
                scan.inlineTags.append(text.string((j + 1)..<k))
            }
            j = max(k, j + 1)
        }
    }
}
