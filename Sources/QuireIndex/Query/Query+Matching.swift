import QuireModel

extension Query {
    /// Whether a card of a note matches.
    ///
    /// - Parameters:
    ///   - now: the time `is:due` and `is:buried` are judged at;
    ///   - dayEnd: the start of the next study day: a review card due before it is due
    ///     (``SchedulingState/isDue(at:dayEnd:)``).
    public func matches(card: Card, in note: Note, now: Timestamp, dayEnd: Timestamp) -> Bool {
        switch self {
        case .all: true
        case .term(let t): t.matches(card: card, in: note, now: now, dayEnd: dayEnd)
        case .not(let q): !q.matches(card: card, in: note, now: now, dayEnd: dayEnd)
        case .and(let qs): qs.allSatisfy { $0.matches(card: card, in: note, now: now, dayEnd: dayEnd) }
        case .or(let qs): qs.contains { $0.matches(card: card, in: note, now: now, dayEnd: dayEnd) }
        }
    }

    /// Whether the answer can differ between cards of one note (the query has a card-level term:
    /// `is:` other than `is:archived`, `type:`, `id:`, or words). When false, every card of a note
    /// matches exactly when ``matches(note:now:)`` says the note does.
    var dependsOnCard: Bool {
        switch self {
        case .all: false
        case .term(let t): t.isCardLevel
        case .not(let q): q.dependsOnCard
        case .and(let qs), .or(let qs): qs.contains { $0.dependsOnCard }
        }
    }

    /// Whether a note matches. Note-level terms (deck, tag, path, cycle, category) look at the note;
    /// card-level terms (`is:`, `type:`, `id:`) match when any card of the note does; words match
    /// the title, the path or any card's text.
    public func matches(note: Note, now: Timestamp, dayEnd: Timestamp) -> Bool {
        switch self {
        case .all: true
        case .term(let t): t.matches(note: note, now: now, dayEnd: dayEnd)
        case .not(let q): !q.matches(note: note, now: now, dayEnd: dayEnd)
        case .and(let qs): qs.allSatisfy { $0.matches(note: note, now: now, dayEnd: dayEnd) }
        case .or(let qs): qs.contains { $0.matches(note: note, now: now, dayEnd: dayEnd) }
        }
    }
}

extension QueryTerm {
    /// Whether the term looks at the card rather than its note.
    var isCardLevel: Bool {
        switch self {
        case .status(.archived): false
        case .status, .kind, .id, .text: true
        default: false
        }
    }

    func matches(card: Card, in note: Note, now: Timestamp, dayEnd: Timestamp) -> Bool {
        switch self {
        case .status(let s): s.matches(card: card, in: note, now: now, dayEnd: dayEnd)
        case .kind(let k): card.kind == k
        case .id(let id): card.id == id || (id.rawValue.utf8.count < 12 && card.id.rawValue.hasPrefix(id.rawValue))
        case .text(let word):
            containsFolded(card.front, word) || containsFolded(card.back, word)
                || containsFolded(note.title, word) || containsFolded(note.path, word)
        default: matchesNoteField(note)
        }
    }

    func matches(note: Note, now: Timestamp, dayEnd: Timestamp) -> Bool {
        switch self {
        case .status(.archived): note.archived
        case .status, .kind, .id: note.cards.contains { matches(card: $0, in: note, now: now, dayEnd: dayEnd) }
        case .text(let word):
            containsFolded(note.title, word) || containsFolded(note.path, word)
                || note.cards.contains { containsFolded($0.front, word) || containsFolded($0.back, word) }
        default: matchesNoteField(note)
        }
    }

    private func matchesNoteField(_ note: Note) -> Bool {
        switch self {
        case .deck(let d): note.deck.isWithin(d)
        case .tag(let t): note.hasTag(t)
        case .path(let g): g.matches(note.path)
        case .cycle(let c): note.cycle == c
        case .category(let c): note.category?.lowercased() == c
        default: false
        }
    }
}

extension CardStatus {
    func matches(card: Card, in note: Note, now: Timestamp, dayEnd: Timestamp) -> Bool {
        switch self {
        case .due: !note.archived && card.isDue(at: now, dayEnd: dayEnd)
        case .new: card.state == .new && !(card.schedule?.suspended ?? false)
        case .learning: card.state == .learning || card.state == .relearning
        case .review: card.state == .review
        case .suspended: card.schedule?.suspended ?? false
        case .buried: card.schedule?.buriedUntil.map { $0 > now } ?? false
        case .archived: note.archived
        // Marked in its own line; or, as earlier versions tagged the note, lapsed in a note tagged `leech`.
        case .leech: card.schedule?.isLeech == true || ((card.schedule?.lapses ?? 0) > 0 && note.tags.contains { $0.key == "leech" })
        }
    }
}
