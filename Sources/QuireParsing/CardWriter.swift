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
/// - `cloze`: the text as one paragraph;
/// - and when none of these reads back (several paragraphs, a heading, a line that looks like card
///   syntax, an empty side…): fenced blocks, which hold any Markdown (``Syntax/fenced``). So a card
///   is refused only for what no syntax holds: control characters, an ID without a block-ID
///   spelling, a cloze without a (valid) deletion.
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
        /// Fenced blocks holding each side as it is (```` ```question ```` and ```` ```answer ````,
        /// ```` ```term ````/```` ```definition ````, ```` ```front ````/```` ```back ````, or one
        /// ```` ```cloze ````, FORMAT.md §3.10): any Markdown, empty sides too. Every kind.
        case fenced
    }

    /// The syntaxes that can make cards of `kind`, in the order ``Syntax/any`` tries them.
    public static func syntaxes(for kind: CardKind) -> [Syntax] {
        switch kind {
        case .basic: [.oneLine, .questionAnswer, .multiLine, .fenced]
        case .definition: [.oneLine, .fenced]
        case .reversed: [.oneLine, .multiLine, .fenced]
        case .cloze: [.cloze, .fenced]
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
    ///   ``Syntax/any``: why not even fenced).
    public static func write(_ draft: CardDraft, as syntax: Syntax = .any) throws(CardWriterError) -> WrittenCard {
        let draft = draft.normalized
        try checkValue(draft)
        let fitting = syntaxes(for: draft.kind)
        let emptySide = draft.sides.first { $0.text.isEmpty }?.side
        guard syntax == .any else {
            guard fitting.contains(syntax) else { throw .syntaxDoesNotFit(syntax, draft.kind) }
            if let emptySide, syntax != .fenced { throw .emptySide(emptySide) }
            return try write(draft, in: syntax)
        }
        // Fenced blocks' refusal is reported (a cloze's: the paragraph's, which names the deletion).
        var reported: CardWriterError?
        // An empty side only fenced blocks hold.
        for candidate in fitting where emptySide == nil || candidate == .fenced {
            do {
                return try write(draft, in: candidate)
            } catch {
                if reported == nil || (candidate == .fenced && draft.kind != .cloze) { reported = error }
            }
        }
        throw reported ?? .syntaxDoesNotFit(syntax, draft.kind)
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

    /// What no syntax can write: control characters, IDs without a block-ID spelling.
    private static func checkValue(_ draft: CardDraft) throws(CardWriterError) {
        for (side, text) in draft.sides {
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
        case .fenced:
            layouts = [fencedLayout(draft)]
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
}
