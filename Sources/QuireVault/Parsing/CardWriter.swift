import QuireMarkdown
import QuireModel

/// Writes cards as Markdown in Quire's card syntaxes (FORMAT.md §3, `card_syntax: quire`): the
/// inverse of the card extractor, for import and card generation.
///
/// Text is never escaped: the reader gives a card's sides as their Markdown source, so an escape
/// would become part of the card. A draft is written in a syntax its text fits, or refused with a
/// ``CardWriterError`` that says why. Every card is read back with ``NoteParser`` before it is
/// returned, between two other paragraphs as in any note, so a returned card reads back as exactly
/// its (normalized) draft: same kind, same sides, same explicit ID, no warning, and nothing of
/// what follows it taken in. The checks that name a reason run only when that read-back fails.
///
/// Asked for ``Syntax/any``, the writer takes the simplest syntax the card reads back from
/// (FORMAT.md §3.9):
/// - `basic`: `question? :: answer` when the question ends with `?` and both sides are one line,
///   else `Q:`/`A:` (then `?`);
/// - `definition`: `term :: definition` (the only syntax of that kind);
/// - `reversed`: `front ::: back` when both sides are one line, else `??`;
/// - `cloze`: the text as one paragraph.
///
/// An answer may hold blocks after its first paragraph (lists, code blocks, tables, block
/// quotes), each after exactly one empty line as the reader gives them back. The writer keeps that
/// empty line when the text before it ends with `:` (it announces the block) and otherwise
/// writes the block right under the text before it, so the block stays the answer's (FORMAT.md
/// §3.1). An answer that starts with a block is written under a lone `A:` (or `?`).
public enum CardWriter {
    /// The card syntaxes the writer writes (FORMAT.md §3).
    public enum Syntax: String, Sendable, CaseIterable, Equatable {
        /// The simplest of the others that fits the card (see ``CardWriter``).
        case any
        /// `left :: right` (`basic` when `left` ends with `?`, else `definition`), or
        /// `left ::: right` (`reversed`), on one line.
        case oneLine
        /// `Q:` question lines, then `A:` answer lines (`basic`).
        case questionAnswer
        /// Question lines, a lone `?` (`basic`) or `??` (`reversed`), answer lines.
        case multiLine
        /// A cloze paragraph (`cloze`).
        case cloze
    }

    /// The syntaxes that can make cards of `kind`, in the order ``Syntax/any`` tries them.
    public static func syntaxes(for kind: CardKind) -> [Syntax] {
        switch kind {
        case .basic: [.oneLine, .questionAnswer, .multiLine]
        case .definition: [.oneLine]
        case .reversed: [.oneLine, .multiLine]
        case .cloze: [.cloze]
        }
    }

    /// The syntax whose refusal ``Syntax/any`` reports when none fits: the one that fits most text.
    static func fallbackSyntax(for kind: CardKind) -> Syntax {
        switch kind {
        case .basic: .questionAnswer
        case .definition: .oneLine
        case .reversed: .multiLine
        case .cloze: .cloze
        }
    }

    /// Writes one card.
    ///
    /// - Parameters:
    ///   - draft: the card; its sides are first ``CardDraft/normalized`` (line endings, white
    ///     space around each side).
    ///   - syntax: the syntax to write it in, or ``Syntax/any`` for the simplest that fits.
    /// - Returns: the Markdown, which reads back as exactly the normalized draft.
    /// - Throws: ``CardWriterError`` saying why the card cannot be written in that syntax (for
    ///   ``Syntax/any``: why not in the syntax that fits most text).
    public static func write(_ draft: CardDraft, as syntax: Syntax = .any) throws(CardWriterError) -> WrittenCard {
        let draft = draft.normalized
        try checkValue(draft)
        let fitting = syntaxes(for: draft.kind)
        guard syntax == .any else {
            guard fitting.contains(syntax) else { throw .syntaxDoesNotFit(syntax, draft.kind) }
            return try write(draft, in: syntax)
        }
        let fallback = fallbackSyntax(for: draft.kind)
        var reported = CardWriterError.syntaxDoesNotFit(syntax, draft.kind)
        for candidate in fitting {
            do {
                return try write(draft, in: candidate)
            } catch {
                if candidate == fallback { reported = error }
            }
        }
        throw reported
    }

    /// A note body holding written cards in order, each separated from the next by an empty line,
    /// with a final line break.
    ///
    /// - Throws: ``CardWriterError/duplicateID(_:)`` when two cards would have the same explicit
    ///   ID (the reader reports the second as an error).
    public static func body(_ cards: [WrittenCard]) throws(CardWriterError) -> String {
        var seen = Set<CardID>()
        for card in cards.flatMap(\.cards) where card.hasExplicitID {
            guard seen.insert(card.id).inserted else { throw .duplicateID(card.id) }
        }
        return cards.isEmpty ? "" : cards.map(\.markdown).joined(separator: "\n\n") + "\n"
    }

    /// The IDs the cards of `cards` get in a note at `path` whose cards are exactly these, in this
    /// order (``body(_:)``): one array per written card, one ID per card it makes.
    ///
    /// Explicit IDs are the draft's (`ID`, `ID-r`, `ID-cN`); the others are derived from the
    /// note's path and the card's text, an identical earlier card of the note counting up the
    /// occurrence (FORMAT.md §3.5). Other cards in the note before these can change that count.
    public static func cardIDs(of cards: [WrittenCard], path: String) -> [[CardID]] {
        var all: [Card] = []
        for written in cards {
            for var card in written.cards {
                if !card.hasExplicitID { card.id = .unassigned }
                all.append(card)
            }
        }
        _ = CardMatcher.assign(&all, stored: [], path: path)
        var result: [[CardID]] = []
        var next = 0
        for written in cards {
            result.append(all[next..<(next + written.cards.count)].map(\.id))
            next += written.cards.count
        }
        return result
    }

    // MARK: - Checks on the value alone

    /// What no syntax can write: empty sides, control characters, IDs without a block-ID spelling.
    private static func checkValue(_ draft: CardDraft) throws(CardWriterError) {
        for (side, text) in draft.sides {
            if text.isEmpty { throw .emptySide(side) }
            if let scalar = text.unicodeScalars.first(where: isRefusedControl) { throw .controlCharacter(side, scalar) }
        }
        if let id = draft.id {
            // A block ID is letters, digits and `-` (the reader stops at any other byte).
            guard !id.rawValue.utf8.contains(UInt8(ascii: "_")) else { throw .idNotWritable(id) }
            if draft.kind == .reversed, id.rawValue.utf8.count + 2 > 64 { throw .idTooLong(id) }
        }
    }

    /// Control characters (Unicode category Cc) other than tab and line feed.
    static func isRefusedControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 9 && v != 10) || (0x7F...0x9F).contains(v)
    }

    /// The lines of a side's text.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether a line is empty to Markdown (only spaces and tabs), so that it ends a paragraph.
    static func isBlank(_ line: String) -> Bool {
        line.utf8.allSatisfy { $0 == 32 || $0 == 9 }
    }

    // MARK: - Writing in one syntax

    private static func write(_ draft: CardDraft, in syntax: Syntax) throws(CardWriterError) -> WrittenCard {
        // The layouts to try in order, and the refusal when none reads back: a reason found
        // before writing, or else the one the last layout's read-back shows.
        var layouts: [Layout]
        var refusal: CardWriterError?
        switch syntax {
        case .oneLine:
            layouts = [try oneLineLayout(draft)]
        case .questionAnswer, .multiLine:
            let plan = try questionLayouts(draft, multiLine: syntax == .multiLine)
            layouts = [plan.asWritten]
            switch plan.blocks {
            case .success(let layout)?: layouts.append(layout)
            case .failure(let error)?: refusal = error
            case nil: break
            }
        case .cloze:
            layouts = [try clozeLayout(draft)]
        case .any:
            throw .syntaxDoesNotFit(syntax, draft.kind)
        }
        for layout in layouts {
            if let cards = readBack(layout, draft: draft) {
                return WrittenCard(markdown: layout.markdown, syntax: syntax, draft: draft, cards: cards)
            }
        }
        if let refusal { throw refusal }
        throw diagnose(layouts[layouts.count - 1], draft: draft)
    }

    /// `left :: right` or `left ::: right`, and the block ID.
    private static func oneLineLayout(_ draft: CardDraft) throws(CardWriterError) -> Layout {
        let (front, back) = (draft.sides[0], draft.sides[1])
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
    private static func clozeLayout(_ draft: CardDraft) throws(CardWriterError) -> Layout {
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

    /// `Q:`/`A:` or `?`/`??` layouts: the answer as written, and — when the answer alone is more
    /// than one paragraph — its blocks laid out to stay the answer's, or why they cannot be.
    private static func questionLayouts(_ draft: CardDraft, multiLine: Bool) throws(CardWriterError)
        -> (asWritten: Layout, blocks: Result<Layout, CardWriterError>?) {
        let (question, answer) = (draft.sides[0], draft.sides[1])
        if draft.kind == .reversed, !multiLine { throw .syntaxDoesNotFit(.questionAnswer, .reversed) }
        guard draft.kind == .basic || draft.kind == .reversed else {
            throw .syntaxDoesNotFit(multiLine ? .multiLine : .questionAnswer, draft.kind)
        }
        let questionLines = lines(question.text)
        if let blank = questionLines.firstIndex(where: isBlank) { throw .blankLine(question.side, line: blank + 1) }

        // The question and the answer's marker: the card's paragraph up to the answer's text.
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
        let marker = multiLine ? (draft.kind == .reversed ? "??" : "?") : "A:"
        let markerExpectation: LineExpectation = multiLine ? .separator(after: question.side) : .answerMarker(after: question.side)
        let answerRefused: Set<CardLineSyntax> = [.questionMarker, .oneLineSeparator]

        /// The answer's paragraph lines after the marker (on the marker's line for `A:`).
        func withParagraph(_ paragraph: [String]) -> Layout {
            var layout = head
            for (i, line) in paragraph.enumerated() {
                let text = line + (i == paragraph.count - 1 ? idSuffix(draft) : "")
                if i == 0 && !multiLine {
                    layout.add("A: " + text, origin: (answer.side, 0), expect: markerExpectation)
                } else {
                    if i == 0 { layout.add(marker, origin: nil, expect: markerExpectation) }
                    layout.add(text, origin: (answer.side, i), expect: .text(answer.side, refused: answerRefused))
                }
            }
            return layout
        }

        let answerLines = lines(answer.text)
        var asWritten = withParagraph(answerLines)
        asWritten.closeParagraph()

        // The answer's blocks as Markdown reads the answer alone: as the reader gives them back.
        let document = MarkdownDocument(parsing: answer.text, options: .indexing)
        let blocks = document.children(of: 0).map { document.nodes[$0] }
        guard let first = blocks.first else { return (asWritten, nil) }
        if blocks.count == 1, first.kind == .paragraph, max(first.range.start.line, first.range.end.line) == answerLines.count {
            return (asWritten, nil)
        }
        do {
            return (asWritten, .success(try blockLayout()))
        } catch {
            return (asWritten, .failure(error))
        }

        func blockLayout() throws(CardWriterError) -> Layout {
            var covered = [Bool](repeating: false, count: answerLines.count)
            for (i, block) in blocks.enumerated() {
                let start = block.range.start.line, end = max(start, block.range.end.line)
                switch block.kind {
                case .list, .codeBlock, .table, .blockQuote: break
                case .paragraph where i == 0: break
                default:
                    throw .answerBlockNotAllowed(answer.side, line: start, block: Self.blockName(block.kind, first: i == 0))
                }
                for line in (start - 1)..<max(start - 1, min(end, answerLines.count)) { covered[line] = true }
            }
            // A line no block covers is a link reference definition: the only source Markdown makes
            // no node of, so the reader would give the answer back without it.
            if let line = answerLines.indices.first(where: { !covered[$0] && !isBlank(answerLines[$0]) }) {
                throw .answerBlockNotAllowed(answer.side, line: line + 1, block: "a link reference definition")
            }
            // The reader joins the blocks with exactly one empty line.
            for i in blocks.indices.dropFirst() {
                let previousEnd = max(blocks[i - 1].range.start.line, blocks[i - 1].range.end.line)
                let start = blocks[i].range.start.line
                guard start > previousEnd, answerLines[previousEnd..<(start - 1)].elementsEqual([""]) else {
                    throw .answerBlockSpacing(answer.side, line: start)
                }
                // The reader trims the answer's text (not its blocks) before it adds a block.
                if i == 1, first.kind == .paragraph, let last = answerLines[previousEnd - 1].utf8.last, isSpace(last) {
                    throw .answerBlockSpacing(answer.side, line: start)
                }
            }

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
                layout.addBlock(block.kind, answerLines[(start - 1)..<end], side: answer.side, firstLine: start - 1)
                textBefore = answerLines[end - 1]
            }
            return layout
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
}
