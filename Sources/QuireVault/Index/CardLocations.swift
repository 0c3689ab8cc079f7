import QuireModel

/// The index's card table, filled one note at a time in path order: where each card ID lives, the
/// cards left out because an earlier card already has their ID, and the diagnostics for IDs that
/// two files use.
///
/// A build fills it while the files are still being read, as their results come in order (see
/// ``VaultIndex/build(root:io:concurrency:cache:)``); ``VaultIndex/init(root:notes:stamps:diagnostics:)``
/// fills it from the notes it is given.
struct CardLocations: Sendable {
    /// Each ID's first card.
    private(set) var locations: [CardID: CardLocation] = [:]
    /// Cards left out because an earlier card already has their ID (normally none).
    private(set) var shadowed: Set<CardLocation> = []
    /// One error per card whose ID an earlier note already uses (a copied file, say).
    private(set) var duplicates: [Diagnostic] = []

    /// Makes room for about `cards` card IDs.
    mutating func reserveCapacity(_ cards: Int) {
        locations.reserveCapacity(cards)
    }

    /// Adds the cards of `notes[n]`, the note after those added before. `notes` holds the notes
    /// added so far, which name the earlier card in a duplicate's diagnostic.
    mutating func add(note n: Int, of notes: UnsafeBufferPointer<Note>) {
        // Read only the IDs: copying each card out would retain all of its strings.
        notes[n].cards.withUnsafeBufferPointer { cards in
            for c in cards.indices {
                let id = cards[c].id
                // One hash per card: insert, and put the first card back in the rare duplicate case.
                guard let existing = locations.updateValue(CardLocation(note: n, card: c), forKey: id) else { continue }
                locations[id] = existing
                if existing.note != n {
                    let other = notes[existing.note]
                    duplicates.append(Diagnostic(.error, path: notes[n].path, line: cards[c].lines.lowerBound, column: cards[c].column,
                        message: "card ID '\(id)' is also used by \(other.path):\(other.cards[existing.card].lines.lowerBound) (a copied file?); this card is left out"))
                }
                shadowed.insert(CardLocation(note: n, card: c))
            }
        }
    }
}
