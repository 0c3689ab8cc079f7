import QuireIndex
import QuireModel
import QuireSupport

/// Cards written out (`quire export csv|json`): a table for spreadsheets, or every note and card
/// as JSON (docs/JSON.md).
public enum CardExport {
    /// The CSV columns, in order. `Front` and `Back` are the sides as Markdown; `Text` is a cloze
    /// card's whole text with its deletions (empty for the other kinds), so that
    /// `quire import csv` takes the file back.
    public static let columns = ["ID", "Deck", "Kind", "Variant", "Front", "Back", "Text", "Tags", "State", "Due", "Interval",
                                 "Stability", "Difficulty", "Reps", "Lapses", "Suspended", "Path", "Line"]

    /// The cards as CSV, header first, in the order given. Unless `raw`, a cell that begins with
    /// a formula character (`=`, `+`, `-`, `@`, tab, CR) gets a leading `'`
    /// (``CSVWriter/spreadsheetSafe(_:)``), which `quire import csv` takes off again.
    public static func csv(_ cards: [(card: Card, note: Note)], raw: Bool = false) -> String {
        var out = CSVWriter.record(columns)
        for (card, note) in cards {
            let s = card.schedule
            let variant = switch card.variant {
            case .single: ""
            case .forward: "forward"
            case .backward: "backward"
            case .cloze(let n): String(n)
            }
            let cells: [String] = [
                card.id.rawValue, note.deck.description, card.kind.rawValue, variant,
                card.kind == .cloze ? "" : card.front, card.kind == .cloze ? "" : card.back,
                card.kind == .cloze ? card.identityText : "",
                note.tags.map(\.name).joined(separator: " "), card.state.rawValue,
                s?.due?.description ?? "", s?.interval.map(String.init) ?? "",
                s?.stability.map { String($0) } ?? "", s?.difficulty.map { String($0) } ?? "",
                String(s?.reps ?? 0), String(s?.lapses ?? 0), (s?.suspended ?? false) ? "true" : "false",
                note.path, String(card.lines.lowerBound),
            ]
            out += CSVWriter.record(raw ? cells : cells.map(CSVWriter.spreadsheetSafe))
        }
        return out
    }

    /// Every note with its cards (only the cards given), and the decks: one JSON document.
    ///
    /// `{"format": "quire-export", "version": 1, "decks": [...], "notes": [note + "card_list": [card…]]}`.
    public static func json(_ cards: [(card: Card, note: Note)], decks: [DeckNode]) -> JSONValue {
        var notes: [(path: String, note: Note, cards: [JSONValue])] = []
        var position: [String: Int] = [:]
        for (card, note) in cards {
            if let k = position[note.path] {
                notes[k].cards.append(JSONRepresentation.card(card, in: note))
            } else {
                position[note.path] = notes.count
                notes.append((note.path, note, [JSONRepresentation.card(card, in: note)]))
            }
        }
        return .object([
            ("format", .string("quire-export")),
            ("version", .int(1)),
            ("decks", .array(decks.map { JSONRepresentation.deck($0) })),
            ("notes", .array(notes.map { entry in
                guard case .object(var fields) = JSONRepresentation.note(entry.note) else { return .null }
                fields.append(("card_list", .array(entry.cards)))
                return .object(fields)
            })),
        ])
    }
}
