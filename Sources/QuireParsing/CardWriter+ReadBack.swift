import QuireSupport
import QuireMarkdown
import QuireModel

extension CardWriter {
    // MARK: - Reading back

    /// The paragraphs a card is read between, as it would sit in any note: a card of their own, so
    /// that one taken into the card, or lost, shows.
    static let sentinelBefore = "quire card writer :: before"
    static let sentinelAfter = "quire card writer :: after"
    /// The line (1-based) of the read-back note where the card starts.
    static let firstCardLine = 3

    /// The note a layout is read back from.
    static func readBackNote(_ layout: Layout) -> [UInt8] {
        Array((sentinelBefore + "\n\n" + layout.markdown + "\n\n" + sentinelAfter + "\n").utf8)
    }

    /// The cards of a layout read back with ``NoteParser``, or nil when they are not exactly the
    /// draft's cards (or anything else of the note changed: a warning, a sentinel lost).
    static func readBack(_ layout: Layout, draft: CardDraft) -> [Card]? {
        let parsed = NoteParser.parse(readBackNote(layout), path: "card.md")
        guard parsed.diagnostics.isEmpty, let cards = ownCards(parsed.note) else { return nil }
        let lines = firstCardLine...(firstCardLine + layout.lines.count - 1)
        guard !cards.isEmpty, cards.allSatisfy({ $0.lines == lines && $0.hasExplicitID == (draft.id != nil) && $0.kind == draft.kind })
        else { return nil }
        func sides(_ expected: [(CardVariant, String, String, String?)]) -> Bool {
            cards.count == expected.count && zip(cards, expected).allSatisfy { card, want in
                card.variant == want.0 && card.front == want.1 && card.back == want.2 && (want.3.map { card.id.rawValue == $0 } ?? true)
            }
        }
        let id = draft.id?.rawValue
        let matches: Bool
        switch draft.content {
        case let .basic(question, answer):
            matches = sides([(.single, question, answer, id)])
        case let .definition(term, definition):
            matches = sides([(.single, term, definition, id)])
        case let .reversed(front, back):
            matches = sides([(.forward, front, back, id), (.backward, back, front, id.map { $0 + "-r" })])
        case let .cloze(text):
            // One group of exactly the written lines: the text is the cards' (the lines say so);
            // its numbers are whatever its deletions say.
            let identity = CardID.normalizeIdentityText(text)
            var previous = 0
            matches = cards.allSatisfy { card in
                guard case let .cloze(n) = card.variant, n > previous, card.identityText == identity else { return false }
                previous = n
                return id.map { card.id.rawValue == $0 + "-c\(n)" } ?? true
            }
        }
        guard matches else { return nil }
        // Lines counted from the card's first line, as the written Markdown has them.
        return cards.map { card in
            var card = card
            card.lines = (card.lines.lowerBound - firstCardLine + 1)...(card.lines.upperBound - firstCardLine + 1)
            return card
        }
    }

    /// The cards between the two sentinels, or nil when a sentinel is not where it belongs.
    private static func ownCards(_ note: Note?) -> [Card]? {
        guard let cards = note?.cards, cards.count >= 2, isSentinel(cards[0], sentinelBefore),
              let last = cards.last, isSentinel(last, sentinelAfter) else { return nil }
        return Array(cards[1..<(cards.count - 1)])
    }

    private static func isSentinel(_ card: Card, _ text: String) -> Bool {
        card.kind == .definition && text == card.front + " :: " + card.back
    }

    // MARK: - Saying why

    /// Why a layout does not read back as its draft: the first problem found, looking at what
    /// Markdown makes of the blocks, then at each line's role, then at deletions and IDs.
    static func diagnose(_ layout: Layout, draft: CardDraft) -> CardWriterError {
        let bytes = readBackNote(layout)
        let source = SourceText(bytes)
        let document = MarkdownDocument(parsing: bytes, options: .indexing)
        do {
            if let paragraph = try checkBlocks(layout, in: document) {
                try checkLineRoles(layout, paragraph: paragraph, in: document, source: source, draft: draft)
            }
        } catch {
            return error
        }
        return readBackProblem(bytes, layout: layout, draft: draft)
    }

    /// Throws when Markdown does not read the layout's blocks — the card's paragraph, then the
    /// answer's blocks — each where it was written; returns the paragraph's node.
    private static func checkBlocks(_ layout: Layout, in document: MarkdownDocument) throws(CardWriterError) -> Int? {
        let lastSide = layout.sides.last ?? .text
        let answerSide = layout.sides.count > 1 ? layout.sides[1] : lastSide
        let base = firstCardLine - 1
        let tops = Array(document.children(of: 0))
        var paragraph: Int?
        for (b, block) in layout.blocks.enumerated() {
            let want = (block.lines.lowerBound + base + 1)...(block.lines.upperBound + base + 1)
            let side = b == 0 ? nil : answerSide
            func sideLine(_ fileLine: Int) -> (side: CardSide, line: Int) { layout.sideLine(fileLine - base - 1) }
            guard let top = tops.first(where: { document.nodes[$0].range.start.line == want.lowerBound }) else {
                guard b == 0 else {
                    // Nothing starts there: the line was read as part of the block before it.
                    throw .answerBlockNotAttachable(answerSide, line: sideLine(want.lowerBound).line)
                }
                // The first line began what Markdown makes no node of in place: a link reference
                // definition, or a footnote definition (which cmark moves to the document's end).
                let line = sideLine(want.lowerBound)
                throw .lineStartsBlock(line.side, line: line.line)
            }
            let node = document.nodes[top]
            let end = max(node.range.start.line, node.range.end.line)
            if node.kind != block.kind {
                guard side == nil else { throw .answerBlockNotAttachable(answerSide, line: sideLine(want.lowerBound).line) }
                // A setext heading: its underline is the line that made it. (cmark-gfm may end the
                // heading's range on the line after the underline: the next block starts there.)
                let next = tops.first { document.nodes[$0].range.start.line > want.lowerBound }
                let underline = min(end, next.map { document.nodes[$0].range.start.line - 1 } ?? end)
                let line = sideLine(node.kind == .heading && underline > want.lowerBound ? underline : want.lowerBound)
                throw .lineStartsBlock(line.side, line: line.line)
            }
            if end < want.upperBound {
                let line = sideLine(end + 1)
                throw side == nil ? .lineStartsBlock(line.side, line: line.line) : .answerBlockNotAttachable(answerSide, line: line.line)
            }
            if end > want.upperBound {
                if b == layout.blocks.count - 1 { throw .unclosedBlock(lastSide) }
                let next = layout.blocks[b + 1].lines.lowerBound + base + 1
                throw .answerBlockNotAttachable(answerSide, line: sideLine(next).line)
            }
            if b == 0 { paragraph = top }
        }
        return paragraph
    }

    /// Throws when a line of the card's paragraph (node `index`) has another role than the layout
    /// expects of it.
    private static func checkLineRoles(_ layout: Layout, paragraph index: Int, in document: MarkdownDocument,
                                       source: SourceText, draft: CardDraft) throws(CardWriterError) {
        let paragraph = document.nodes[index]
        var text = ParagraphText()
        text.load(source: source, first: paragraph.range.start.line, last: paragraph.range.end.line,
                  startColumn: paragraph.range.start.column, masks: inlineMasks(of: index, in: document, source: source))
        let extractor = CardExtractor(source: source, path: "card.md")
        for (i, expectation) in layout.expectations.enumerated() where i < text.lineCount {
            let role = extractor.role(of: i, in: text, markers: [.colon, .question, .doubled])
            let line = layout.sideLine(i)
            if let problem = check(role, against: expectation, line: line, text: text, index: i, draft: draft) {
                throw problem
            }
        }
    }

    /// The problem with what the reader made of the note: a broken deletion, an ID, a warning,
    /// or other cards than the draft's.
    private static func readBackProblem(_ bytes: [UInt8], layout: Layout, draft: CardDraft) -> CardWriterError {
        let lastSide = layout.sides.last ?? .text
        let parsed = NoteParser.parse(bytes, path: "card.md")
        let cardLines = firstCardLine...(firstCardLine + layout.lines.count - 1)
        if let error = parsed.diagnostics.first(where: { $0.severity == .error && $0.line.map(cardLines.contains) ?? false }),
           draft.kind == .cloze {
            return .brokenCloze(error.message)
        }
        let cards = (parsed.note?.cards ?? []).filter { cardLines.contains($0.lines.lowerBound) }
        if draft.kind == .cloze, cards.isEmpty,
           parsed.diagnostics.allSatisfy({ $0.message == CardExtractor.clozeBlockWithoutDeletion }) { return .noClozeDeletion }
        if draft.id == nil, cards.contains(where: \.hasExplicitID) || endsLikeBlockID(draft.sides[draft.sides.count - 1].text) {
            return .endsLikeCardID(lastSide)
        }
        // `ID-cN` past 64 characters is cut short by the reader.
        if let id = draft.id, cards.contains(where: { card in
            guard case let .cloze(n) = card.variant else { return false }
            return id.rawValue.utf8.count + 2 + String(n).utf8.count > 64
        }) {
            return .idTooLong(id)
        }
        if let warning = parsed.diagnostics.first {
            return .notReadBack("the note reads with '\(warning.message)'")
        }
        let kinds = cards.map { "\($0.kind.rawValue) '\(String($0.front.prefix(40)))'" }
        return .notReadBack(cards.isEmpty ? "no card" : "\(Plural.counted(cards.count, "card")): " + kinds.joined(separator: ", "))
    }

    /// Whether text ends as an Obsidian block ID does (` ^word`, or only `^word`), which the reader
    /// takes off the end of a card's last line as its explicit ID.
    static func endsLikeBlockID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var start = bytes.count
        while start > 0, CardID.isIDByte(bytes[start - 1]), bytes[start - 1] != UInt8(ascii: "_") { start -= 1 }
        guard start < bytes.count, start > 0, bytes[start - 1] == UInt8(ascii: "^") else { return false }
        return start == 1 || isSpace(bytes[start - 2]) || bytes[start - 2] == 10
    }

    /// The problem a line's role shows, if any.
    private static func check(_ role: CardLineRole, against expectation: LineExpectation, line: (side: CardSide, line: Int),
                              text: ParagraphText, index: Int, draft: CardDraft) -> CardWriterError? {
        switch expectation {
        case let .oneLine(separatorStart):
            let front = draft.sides[0].side, back = draft.sides.count > 1 ? draft.sides[1].side : front
            switch role {
            case .oneLine(let found) where found.lowerBound - text.lineStarts[index] == separatorStart:
                return nil
            case .oneLine(let found) where found.lowerBound - text.lineStarts[index] < separatorStart:
                return .holdsCardSyntax(front, line: 1, .oneLineSeparator)
            case .question: return .holdsCardSyntax(front, line: 1, .questionMarker)
            case .answer: return .holdsCardSyntax(front, line: 1, .answerMarker)
            case .ankiCloze:
                let inFront = CardExtractor.hasAnkiClozeOpener(Array(draft.sides[0].text.utf8), 0..<draft.sides[0].text.utf8.count)
                return .holdsCardSyntax(inFront ? front : back, line: 1, .clozeDeletion)
            default:
                return .markerHidden(after: front)
            }
        case .questionMarker:
            if case .question = role { return nil }
            return .notReadBack("the 'Q:' line is not read as a question")
        case let .answerMarker(side):
            if case .answer = role { return nil }
            return .markerHidden(after: side)
        case let .separator(side):
            if case .separator = role { return nil }
            return .markerHidden(after: side)
        case let .text(side, refused):
            let syntax: CardLineSyntax? = switch role {
            case .question: .questionMarker
            case .answer: .answerMarker
            case .separator: .separator
            case .oneLine: .oneLineSeparator
            case .ankiCloze: .clozeDeletion
            case .highlight: .highlight
            case .plain: nil
            }
            guard let syntax, refused.contains(syntax) else { return nil }
            return .holdsCardSyntax(side, line: line.line, syntax)
        }
    }

    /// Byte ranges (in the file, inclusive) of inline code and inline HTML inside a paragraph: the
    /// spans the card extractor blanks out before it looks for card syntax.
    private static func inlineMasks(of index: Int, in document: MarkdownDocument,
                                    source: SourceText) -> [ClosedRange<Int>] {
        var masks: [ClosedRange<Int>] = []
        var i = index + 1
        while i < document.nodes[index].subtreeEnd {
            let node = document.nodes[i]
            if node.kind == .code || node.kind == .htmlInline {
                let lo = source.offset(line: node.range.start.line, column: node.range.start.column)
                let hi = source.offset(line: node.range.end.line, column: node.range.end.column)
                if hi >= lo { masks.append(lo...hi) }
                i = node.subtreeEnd
            } else {
                i += 1
            }
        }
        return masks
    }
}
