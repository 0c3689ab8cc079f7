import QuireMarkdown
import QuireModel

extension CardWriter {
    // MARK: - Layouts

    /// What card recognition must see on a line of the card's paragraph (FORMAT.md §3.6).
    enum LineExpectation {
        /// The one-line separator the writer put at this byte offset of the line.
        case oneLine(separatorStart: Int)
        /// `Q:` at the line's start.
        case questionMarker
        /// `A:` at the line's start, after the lines of a side.
        case answerMarker(after: CardSide)
        /// A lone `?` or `??`, after the lines of a side.
        case separator(after: CardSide)
        /// A line of a side's text, which must not be read as any of `refused`.
        case text(CardSide, refused: Set<CardLineSyntax>)
    }

    /// A card as lines of Markdown, with what each line is and which blocks they must make.
    struct Layout {
        /// The card's sides, in the draft's order.
        var sides: [CardSide]
        var lines: [String] = []
        /// For each line, the side line (0-based) it holds, or nil for a marker or empty line.
        var origins: [(side: CardSide, line: Int)?] = []
        /// For each line of the card's paragraph, what recognition must see on it.
        var expectations: [LineExpectation] = []
        /// The blocks the card must be read as, by 0-based line ranges: its paragraph, then the
        /// blocks of its answer.
        var blocks: [(kind: MarkdownNodeKind, lines: ClosedRange<Int>)] = []

        init(sides: [CardSide]) { self.sides = sides }

        var markdown: String { lines.joined(separator: "\n") }

        /// Adds a line of the card's paragraph.
        mutating func add(_ line: String, origin: (side: CardSide, line: Int)?, expect: LineExpectation) {
            lines.append(line)
            origins.append(origin)
            expectations.append(expect)
        }

        /// Ends the card's paragraph at the last line added.
        mutating func closeParagraph() {
            blocks.append((.paragraph, 0...max(0, lines.count - 1)))
        }

        /// Adds an empty line between blocks.
        mutating func addGap() {
            lines.append("")
            origins.append(nil)
        }

        /// Adds a block of the answer: its lines, the first being line `firstLine` (0-based) of `side`.
        mutating func addBlock(_ kind: MarkdownNodeKind, _ blockLines: ArraySlice<String>, side: CardSide, firstLine: Int) {
            let start = lines.count
            for (i, line) in blockLines.enumerated() {
                lines.append(line)
                origins.append((side, firstLine + i))
            }
            blocks.append((kind, start...max(start, lines.count - 1)))
        }

        /// The side line (1-based) that card line `index` (0-based) holds, or for a marker line
        /// the nearest side line before it.
        func sideLine(_ index: Int) -> (side: CardSide, line: Int) {
            var i = min(index, origins.count - 1)
            while i >= 0 {
                if let origin = origins[i] { return (origin.side, origin.line + 1) }
                i -= 1
            }
            return (sides.first ?? .text, 1)
        }
    }

    // MARK: - Laying out each syntax

    /// `left :: right` or `left ::: right`, and the block ID.
    static func oneLineLayout(_ draft: CardDraft) throws(CardWriterError) -> Layout {
        let sides = draft.sides
        guard sides.count == 2 else { throw .syntaxDoesNotFit(.oneLine, draft.kind) }
        let (front, back) = (sides[0], sides[1])
        for (side, text) in [front, back] where text.utf8.contains(10) { throw .lineBreakInOneLineCard(side) }
        let separator: String
        switch draft.content {
        case .basic:
            guard front.text.hasSuffix("?") else { throw .oneLineQuestionWithoutQuestionMark }
            separator = " :: "
        case .definition:
            guard !front.text.hasSuffix("?") else { throw .termEndsWithQuestionMark }
            separator = " :: "
        case .reversed:
            separator = " ::: "
        case .cloze:
            throw .syntaxDoesNotFit(.oneLine, .cloze)
        }
        var layout = Layout(sides: [front.side, back.side])
        layout.add(front.text + separator + back.text + idSuffix(draft), origin: (front.side, 0),
                   expect: .oneLine(separatorStart: front.text.utf8.count + 1))
        layout.closeParagraph()
        return layout
    }

    /// A cloze paragraph.
    static func clozeLayout(_ draft: CardDraft) throws(CardWriterError) -> Layout {
        guard case let .cloze(text) = draft.content else { throw .syntaxDoesNotFit(.cloze, draft.kind) }
        let textLines = lines(text)
        if let blank = textLines.firstIndex(where: isBlank) { throw .blankLine(.text, line: blank + 1) }
        var layout = Layout(sides: [.text])
        for (i, line) in textLines.enumerated() {
            let suffix = i == textLines.count - 1 ? idSuffix(draft) : ""
            layout.add(line + suffix, origin: (.text, i),
                       expect: .text(.text, refused: [.questionMarker, .answerMarker, .separator, .oneLineSeparator]))
        }
        layout.closeParagraph()
        return layout
    }

    /// Each side in a fenced block of its word (FORMAT.md §3.10), the explicit ID after the first
    /// word. Each fence is a run of backticks longer than any a line of its side starts with, so no
    /// line of the side closes it.
    static func fencedLayout(_ draft: CardDraft) -> Layout {
        let words = FenceWord.words(for: draft.kind)
        var layout = Layout(sides: draft.sides.map(\.side))
        for (k, (side, text)) in draft.sides.enumerated() {
            let sideLines = text.isEmpty ? [] : lines(text)
            let fence = fence(around: text)
            let start = layout.lines.count
            layout.lines.append(fence + words[min(k, words.count - 1)].rawValue + (k == 0 ? idSuffix(draft) : ""))
            layout.origins.append(nil)
            for (i, line) in sideLines.enumerated() {
                layout.lines.append(line)
                layout.origins.append((side, i))
            }
            layout.lines.append(fence)
            layout.origins.append(nil)
            layout.blocks.append((.codeBlock, start...(layout.lines.count - 1)))
        }
        return layout
    }

    /// A backtick fence for a block holding `text`: one backtick longer than the longest run that
    /// starts a line of it (at least three), so that no line of the text closes the block.
    public static func fence(around text: String) -> String {
        var longest = 0
        for line in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            longest = max(longest, line.drop { $0 == 32 || $0 == 9 }.prefix { $0 == UInt8(ascii: "`") }.count)
        }
        return String(repeating: "`", count: max(3, longest + 1))
    }

    /// Whether text holds an Anki cloze deletion's opening, `{{cN::` — the reader's rule
    /// (FORMAT.md §3.4), for importers deciding whether a text is a cloze.
    public static func holdsAnkiDeletion(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return CardExtractor.hasAnkiClozeOpener(bytes, 0..<bytes.count)
    }

    /// `Q:`/`A:` or `?`/`??` layouts: the answer as written, and — when the answer alone is more
    /// than one paragraph — its blocks laid out to stay the answer's, or why they cannot be.
    static func questionLayouts(_ draft: CardDraft, multiLine: Bool) throws(CardWriterError)
        -> (asWritten: Layout, blocks: Result<Layout, CardWriterError>?) {
        if draft.kind == .reversed, !multiLine { throw .syntaxDoesNotFit(.questionAnswer, .reversed) }
        let sides = draft.sides
        guard draft.kind == .basic || draft.kind == .reversed, sides.count == 2 else {
            throw .syntaxDoesNotFit(multiLine ? .multiLine : .questionAnswer, draft.kind)
        }
        let (question, answer) = (sides[0], sides[1])
        let card = try QuestionCard(draft, question: question, answer: answer, multiLine: multiLine)
        var asWritten = card.withParagraph(card.answerLines)
        asWritten.closeParagraph()

        // The answer's blocks as Markdown reads the answer alone: as the reader gives them back.
        let document = MarkdownDocument(parsing: answer.text, options: .indexing)
        let blocks = document.children(of: 0).map { document.nodes[$0] }
        guard let first = blocks.first else { return (asWritten, nil) }
        if blocks.count == 1, first.kind == .paragraph, max(first.range.start.line, first.range.end.line) == card.answerLines.count {
            return (asWritten, nil)
        }
        do {
            return (asWritten, .success(try card.blockLayout(blocks)))
        } catch {
            return (asWritten, .failure(error))
        }
    }

    /// A `basic` or `reversed` draft laid out with `Q:`/`A:` or `?`/`??`: the card's paragraph up
    /// to the answer's text, from which each layout of the answer starts.
    private struct QuestionCard {
        /// The card being laid out.
        let draft: CardDraft
        /// Whether the layout is `?`/`??` (else `Q:`/`A:`).
        let multiLine: Bool
        /// The side the answer is.
        let answerSide: CardSide
        /// The lines of the answer's text.
        let answerLines: [String]
        /// The question and the answer's marker: the card's paragraph up to the answer's text.
        let head: Layout
        /// The answer's marker: `A:`, `?` or `??`.
        let marker: String
        /// What recognition must see on the marker's line.
        let markerExpectation: LineExpectation

        /// Lays out the question; throws when it holds a blank line.
        init(_ draft: CardDraft, question: (side: CardSide, text: String), answer: (side: CardSide, text: String),
             multiLine: Bool) throws(CardWriterError) {
            let questionLines = lines(question.text)
            if let blank = questionLines.firstIndex(where: isBlank) { throw .blankLine(question.side, line: blank + 1) }
            var head = Layout(sides: [question.side, answer.side])
            for (i, line) in questionLines.enumerated() {
                if !multiLine && i == 0 {
                    head.add("Q: " + line, origin: (question.side, 0), expect: .questionMarker)
                } else if multiLine {
                    head.add(line, origin: (question.side, i),
                             expect: .text(question.side, refused: [.questionMarker, .answerMarker, .separator, .oneLineSeparator]))
                } else {
                    head.add(line, origin: (question.side, i), expect: .text(question.side, refused: [.questionMarker, .answerMarker]))
                }
            }
            self.draft = draft
            self.multiLine = multiLine
            self.answerSide = answer.side
            self.answerLines = lines(answer.text)
            self.head = head
            self.marker = multiLine ? (draft.kind == .reversed ? "??" : "?") : "A:"
            self.markerExpectation = multiLine ? .separator(after: question.side) : .answerMarker(after: question.side)
        }

        /// The head and the answer's paragraph lines after the marker (on the marker's line for `A:`).
        func withParagraph(_ paragraph: [String]) -> Layout {
            let answerRefused: Set<CardLineSyntax> = [.questionMarker, .oneLineSeparator]
            var layout = head
            for (i, line) in paragraph.enumerated() {
                let text = line + (i == paragraph.count - 1 ? idSuffix(draft) : "")
                if i == 0 && !multiLine {
                    layout.add("A: " + text, origin: (answerSide, 0), expect: markerExpectation)
                } else {
                    if i == 0 { layout.add(marker, origin: nil, expect: markerExpectation) }
                    layout.add(text, origin: (answerSide, i), expect: .text(answerSide, refused: answerRefused))
                }
            }
            return layout
        }

        /// The answer laid out block by block, so that the reader gives each back as the answer's.
        func blockLayout(_ blocks: [MarkdownNode]) throws(CardWriterError) -> Layout {
            try checkBlocks(blocks)
            guard let first = blocks.first else { return head }
            var layout: Layout
            var textBefore: String
            if first.kind == .paragraph {
                let end = max(first.range.start.line, first.range.end.line)
                layout = withParagraph(Array(answerLines[0..<end]))
                textBefore = answerLines[end - 1]
            } else {
                // A lone marker: the reader takes the next block as the answer, after an empty line too.
                if draft.id != nil { throw .idNeedsTextAnswer }
                layout = head
                layout.add(marker, origin: nil, expect: markerExpectation)
                // An indented code block cannot interrupt a paragraph; the others can.
                textBefore = isIndentedCode(first, answerLines) ? ":" : ""
            }
            layout.closeParagraph()
            for (i, block) in blocks.enumerated() where i > 0 || first.kind != .paragraph {
                let start = block.range.start.line, end = max(start, block.range.end.line)
                // A blank line keeps the block the answer's only after text that announces it.
                if textBefore.hasSuffix(":") { layout.addGap() }
                layout.addBlock(block.kind, answerLines[(start - 1)..<end], side: answerSide, firstLine: start - 1)
                textBefore = answerLines[end - 1]
            }
            return layout
        }

        /// Throws when the answer's blocks cannot stay the answer's: a kind of block an answer
        /// cannot hold, a line no block covers, or blocks not one empty line apart.
        func checkBlocks(_ blocks: [MarkdownNode]) throws(CardWriterError) {
            guard let first = blocks.first else { return }
            var covered = [Bool](repeating: false, count: answerLines.count)
            for (i, block) in blocks.enumerated() {
                let start = block.range.start.line, end = max(start, block.range.end.line)
                switch block.kind {
                case .list, .codeBlock, .table, .blockQuote: break
                case .paragraph where i == 0: break
                default:
                    throw .answerBlockNotAllowed(answerSide, line: start, block: blockName(block.kind, first: i == 0))
                }
                for line in (start - 1)..<max(start - 1, min(end, answerLines.count)) { covered[line] = true }
            }
            // A line no block covers is a link reference definition: the only source Markdown makes
            // no node of, so the reader would give the answer back without it.
            if let line = answerLines.indices.first(where: { !covered[$0] && !isBlank(answerLines[$0]) }) {
                throw .answerBlockNotAllowed(answerSide, line: line + 1, block: "a link reference definition")
            }
            // The reader joins the blocks with exactly one empty line.
            for i in blocks.indices.dropFirst() {
                let previousEnd = max(blocks[i - 1].range.start.line, blocks[i - 1].range.end.line)
                let start = blocks[i].range.start.line
                guard start > previousEnd, answerLines[previousEnd..<(start - 1)].elementsEqual([""]) else {
                    throw .answerBlockSpacing(answerSide, line: start)
                }
                // The reader trims the answer's text (not its blocks) before it adds a block.
                if i == 1, first.kind == .paragraph, let last = answerLines[previousEnd - 1].utf8.last, isSpace(last) {
                    throw .answerBlockSpacing(answerSide, line: start)
                }
            }
        }
    }

    /// ` ^id` for a draft with an explicit ID.
    private static func idSuffix(_ draft: CardDraft) -> String {
        draft.id.map { " ^" + $0.rawValue } ?? ""
    }

    /// Whether a code block is indented code (four spaces or a tab) rather than fenced.
    private static func isIndentedCode(_ node: MarkdownNode, _ lines: [String]) -> Bool {
        guard node.kind == .codeBlock, node.range.start.line >= 1, node.range.start.line <= lines.count else { return false }
        let line = lines[node.range.start.line - 1].utf8.drop { $0 == 32 }
        return !(line.starts(with: "```".utf8) || line.starts(with: "~~~".utf8))
    }

    /// A block kind as an error names it.
    static func blockName(_ kind: MarkdownNodeKind, first: Bool) -> String {
        switch kind {
        case .paragraph: first ? "a paragraph" : "a second paragraph"
        case .heading: "a heading"
        case .htmlBlock: "an HTML block"
        case .thematicBreak: "a thematic break"
        case .footnoteDefinition: "a footnote definition"
        case .list: "a list"
        case .codeBlock: "a code block"
        case .table: "a table"
        case .blockQuote: "a block quote"
        default: "a block"
        }
    }

    /// The lines of a side's text.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether a line is empty to Markdown (only spaces and tabs), so that it ends a paragraph.
    static func isBlank(_ line: String) -> Bool {
        line.utf8.allSatisfy { $0 == 32 || $0 == 9 }
    }
}
