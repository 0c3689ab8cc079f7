import QuireModel

/// A card to be written into a note by ``CardWriter``: what it says, and the explicit ID it keeps.
///
/// A draft holds the text of the card's sides as Markdown source, exactly as ``NoteParser`` gives
/// a card's ``Card/front`` and ``Card/back`` (for a cloze, the whole text with its deletions).
public struct CardDraft: Sendable, Equatable {
    /// What a card says, by kind (FORMAT.md §3).
    public enum Content: Sendable, Equatable {
        /// A question and its answer: kind `basic`.
        case basic(question: String, answer: String)
        /// A term and its definition: kind `definition`.
        case definition(term: String, definition: String)
        /// Two cards of kind `reversed`: `front → back` (forward) and `back → front` (backward).
        case reversed(front: String, back: String)
        /// A cloze group: text holding Anki deletions (`{{c1::answer}}`, `{{c2::answer::hint}}`), or
        /// `==highlights==` when it holds no Anki deletion. One card per cloze number.
        case cloze(String)
    }

    /// What the card says.
    public var content: Content
    /// An explicit ID to keep, written as an Obsidian block ID (` ^id`, FORMAT.md §3.5); nil lets
    /// the reader derive the ID from the card's text. A reversed pair's second card gets `ID-r`,
    /// a cloze group's cards `ID-c1`, `ID-c2`, ….
    public var id: CardID?

    /// Creates a draft.
    public init(_ content: Content, id: CardID? = nil) {
        self.content = content
        self.id = id
    }

    /// The kind of the cards the draft makes.
    public var kind: CardKind {
        switch content {
        case .basic: .basic
        case .definition: .definition
        case .reversed: .reversed
        case .cloze: .cloze
        }
    }

    /// The draft's sides with their names: two, or one for a cloze.
    public var sides: [(side: CardSide, text: String)] {
        switch content {
        case let .basic(question, answer): [(.question, question), (.answer, answer)]
        case let .definition(term, definition): [(.term, term), (.definition, definition)]
        case let .reversed(front, back): [(.front, front), (.back, back)]
        case let .cloze(text): [(.text, text)]
        }
    }

    /// The same draft with each side's text passed through `transform`.
    func mapSides(_ transform: (String) -> String) -> CardDraft {
        let content: Content = switch self.content {
        case let .basic(question, answer): .basic(question: transform(question), answer: transform(answer))
        case let .definition(term, definition): .definition(term: transform(term), definition: transform(definition))
        case let .reversed(front, back): .reversed(front: transform(front), back: transform(back))
        case let .cloze(text): .cloze(transform(text))
        }
        return CardDraft(content, id: id)
    }

    /// The draft as the reader takes its text: line endings as `\n` (a CRLF or a lone CR ends a line
    /// as in any note, and the reader joins a side's lines with `\n`), and no spaces, tabs or line
    /// breaks around a side (the reader trims them: they are never part of a card).
    public var normalized: CardDraft {
        mapSides { text in
            var bytes = Array(text.utf8)
            if bytes.contains(13) {
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count)
                for (i, b) in bytes.enumerated() where b != 13 || i + 1 == bytes.count || bytes[i + 1] != 10 {
                    out.append(b == 13 ? 10 : b)
                }
                bytes = out
            }
            return String(decoding: bytes[trimmed(bytes, 0..<bytes.count)], as: UTF8.self)
        }
    }
}

/// A side of a card, named as its kind names it: in errors, and in ``CardDraft/sides``.
public enum CardSide: String, Sendable, Equatable, CaseIterable {
    /// A `basic` card's question.
    case question
    /// A `basic` card's answer.
    case answer
    /// A `definition` card's term.
    case term
    /// A `definition` card's definition.
    case definition
    /// A `reversed` pair's front (the forward card's question).
    case front
    /// A `reversed` pair's back (the forward card's answer).
    case back
    /// A cloze group's text.
    case text
}
