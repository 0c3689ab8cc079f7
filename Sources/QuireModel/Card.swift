/// One flashcard found in a note's body. Two cards are equal when every field is, the stored
/// scheduling line included.
public struct Card: Sendable, Equatable {
    /// The card's ID (explicit, stored, or derived — FORMAT.md §3.5).
    public var id: CardID
    public var kind: CardKind
    public var variant: CardVariant
    /// The question side as Markdown source. Cloze deletions of this card are shown as `[...]` or
    /// `[hint]`; other deletions of the group show their answer.
    public var front: String
    /// The answer side as Markdown source (for a cloze card, the whole text with every answer shown).
    public var back: String
    /// First and last line of the card in the file (1-based, front matter counted).
    public var lines: ClosedRange<Int>
    /// Column (1-based, bytes) where the card starts on its first line.
    public var column: Int
    /// Text of the headings above the card, outermost first.
    public var headingPath: [String]
    /// The normalized text the ID and fingerprint are computed from (FORMAT.md §3.5): front and
    /// back joined by U+001F (for the backward card of a pair, the pair's forward order), or for a
    /// cloze card the whole paragraph with its deletions.
    public var identityText: String {
        if let clozeIdentity { return clozeIdentity }
        let front = CardID.normalizeIdentityText(self.front), back = CardID.normalizeIdentityText(self.back)
        return variant == .backward ? back + "\u{1F}" + front : front + "\u{1F}" + back
    }

    /// Feeds ``identityText`` to a hash without building the joined string.
    public func combineIdentityText(into h: inout SipHash24) {
        if let clozeIdentity {
            h.combine(clozeIdentity)
            return
        }
        CardID.combineNormalizedIdentityText(variant == .backward ? back : front, into: &h)
        h.combine(byte: 0x1F)
        CardID.combineNormalizedIdentityText(variant == .backward ? front : back, into: &h)
    }

    /// Only a cloze card's identity cannot be rebuilt from its sides, so only it is stored: in a big
    /// vault most cards would otherwise carry a third copy of their text.
    private var clozeIdentity: String?
    /// Whether the ID was written by the user (`^id`).
    public var hasExplicitID: Bool
    /// The stored scheduling line, or nil for a card never reviewed.
    public var schedule: SchedulingState? {
        get { scheduleBox?.state }
        set { scheduleBox = newValue.map(ScheduleBox.init) }
    }

    /// Most cards in a big vault were never reviewed; keeping the (large) state out of line keeps
    /// every card small.
    private var scheduleBox: ScheduleBox?

    /// Creates a card.
    public init(id: CardID, kind: CardKind, variant: CardVariant, front: String, back: String,
                lines: ClosedRange<Int>, column: Int, headingPath: [String], identityText: String,
                hasExplicitID: Bool, schedule: SchedulingState? = nil) {
        self.id = id
        self.kind = kind
        self.variant = variant
        self.front = front
        self.back = back
        self.lines = lines
        self.column = column
        self.headingPath = headingPath
        self.clozeIdentity = kind == .cloze ? identityText : nil
        self.hasExplicitID = hasExplicitID
        self.scheduleBox = schedule.map(ScheduleBox.init)
    }

    /// The card's state (`new` when it has no stored line).
    public var state: CardState { schedule?.state ?? .new }

    /// The fingerprint of the card's current text.
    public var fingerprint: Fingerprint { Fingerprint(text: identityText, shape: variant.shape(kind)) }

    /// Whether the card is due at `now` on the study day ending at `dayEnd`
    /// (``SchedulingState/isDue(at:dayEnd:)``). New cards are not due; they are `is:new`.
    public func isDue(at now: Timestamp, dayEnd: Timestamp) -> Bool {
        schedule?.isDue(at: now, dayEnd: dayEnd) ?? false
    }
}

/// An immutable box for a card's scheduling state; replaced, never mutated, so sharing is safe.
final class ScheduleBox: Sendable, Equatable {
    let state: SchedulingState
    init(_ state: SchedulingState) { self.state = state }

    static func == (a: ScheduleBox, b: ScheduleBox) -> Bool { a === b || a.state == b.state }
}
