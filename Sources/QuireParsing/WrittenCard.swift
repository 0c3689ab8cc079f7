import QuireModel

/// A card written by ``CardWriter``: its Markdown, and the cards that Markdown reads back as.
public struct WrittenCard: Sendable {
    /// The card's Markdown, without a final line break: one paragraph, and for an answer with
    /// blocks (a list, code…) the blocks after it. Put it in a note after an empty line (or at the
    /// start of the body) and follow it by an empty line (or end the note).
    public let markdown: String
    /// The syntax it is written in (never ``CardWriter/Syntax/any``).
    public let syntax: CardWriter.Syntax
    /// The draft as written: ``CardDraft/normalized``, which is what the cards read back as.
    public let draft: CardDraft
    /// The cards the Markdown reads back as, in order, with lines counted from the Markdown's first
    /// line. Explicit IDs are final; derived IDs depend on the note (``CardWriter/cardIDs(of:path:)``).
    let cards: [Card]

    /// The variant of each card the Markdown makes, in order (`single`; `forward` and `backward`;
    /// or each cloze number).
    public var variants: [CardVariant] { cards.map(\.variant) }
}
