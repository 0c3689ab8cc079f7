import QuireModel
import QuireSupport

/// The documented `--json` shapes of cards, notes, decks and diagnostics (docs/JSON.md).
public enum JSONRepresentation {
    /// A card with its note's context and every scheduling field.
    public static func card(_ card: Card, in note: Note) -> JSONValue {
        let s = card.schedule
        let variant: JSONValue = switch card.variant {
        case .single: .null
        case .forward: .string("forward")
        case .backward: .string("backward")
        case .cloze(let n): .int(n)
        }
        return .object([
            ("id", .string(card.id.rawValue)),
            ("kind", .string(card.kind.rawValue)),
            ("variant", variant),
            ("deck", .string(note.deck.description)),
            ("tags", .array(note.tags.map { .string($0.name) })),
            ("path", .string(note.path)),
            ("line", .int(card.lines.lowerBound)),
            ("end_line", .int(card.lines.upperBound)),
            ("column", .int(card.column)),
            ("headings", .array(card.headingPath.map { .string($0) })),
            ("note_title", .string(note.title)),
            ("front", .string(card.front)),
            ("back", .string(card.back)),
            ("state", .string(card.state.rawValue)),
            ("due", .optional(s?.due?.description)),
            ("last_review", .optional(s?.lastReview?.description)),
            ("step", .optional(s?.step)),
            ("stability", .optional(s?.stability)),
            ("difficulty", .optional(s?.difficulty)),
            ("ease", .optional(s?.ease)),
            ("interval", .optional(s?.interval)),
            ("reps", .int(s?.reps ?? 0)),
            ("lapses", .int(s?.lapses ?? 0)),
            ("flow", .optional(s?.flow?.rawValue)),
            ("streak", .optional(s?.streak)),
            ("attempts", .optional(s?.attempts)),
            ("suspended", .bool(s?.suspended ?? false)),
            ("buried_until", .optional(s?.buriedUntil?.description)),
            ("explicit_id", .bool(card.hasExplicitID)),
            ("fingerprint", .string(card.fingerprint.description)),
        ])
    }

    /// A note's metadata and card count.
    public static func note(_ note: Note) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("path", .string(note.path)),
            ("title", .string(note.title)),
            ("deck", .string(note.deck.description)),
            ("tags", .array(note.tags.map { .string($0.name) })),
        ]
        for key in NoteKey.all { fields.append((key.name, value(key.value(in: note)))) }
        fields.append(("cards", .int(note.cards.count)))
        fields.append(("bytes", .int(note.byteCount)))
        return .object(fields)
    }

    /// A plain-valued key's value: dates in the form notes and logs use, absent ones as null.
    static func value(_ value: NoteKey.Value?) -> JSONValue {
        switch value {
        case nil: .null
        case .date(let t): .string(t.description)
        case .text(let s), .choice(let s): .string(s)
        case .flag(let on): .bool(on)
        }
    }

    /// A deck and its sub-decks, with counts that include the sub-decks.
    public static func deck(_ node: DeckNode) -> JSONValue {
        .object([
            ("deck", .string(node.path.description)),
            ("name", .string(node.path.name)),
            ("notes", .int(node.counts.notes)),
            ("cards", .int(node.counts.cards)),
            ("new", .int(node.counts.new)),
            ("learning", .int(node.counts.learning)),
            ("due", .int(node.counts.due)),
            ("suspended", .int(node.counts.suspended)),
            ("children", .array(node.children.map(deck))),
        ])
    }

    /// A diagnostic.
    public static func diagnostic(_ d: Diagnostic) -> JSONValue {
        .object([
            ("path", .string(d.path)),
            ("line", .optional(d.line)),
            ("column", .optional(d.column)),
            ("severity", .string(d.severity.rawValue)),
            ("message", .string(d.message)),
        ])
    }
}
