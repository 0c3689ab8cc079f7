import QuireModel

/// Card counts for one deck, its own cards and those of its sub-decks together.
public struct DeckCounts: Hashable, Sendable, Codable {
    public var notes = 0
    public var cards = 0
    public var new = 0
    public var due = 0
    public var learning = 0
    public var suspended = 0

    mutating func add(_ other: DeckCounts) {
        notes += other.notes; cards += other.cards; new += other.new; due += other.due
        learning += other.learning; suspended += other.suspended
    }
}

/// One deck in the tree.
public struct DeckNode: Sendable {
    public var path: DeckPath
    /// Counts including every sub-deck.
    public var counts: DeckCounts
    public var children: [DeckNode]
}

extension VaultIndex {
    /// The deck tree with counts at `now` (due: on the study day ending at `dayEnd`), top-level
    /// decks sorted by name.
    public func deckTree(now: Timestamp, dayEnd: Timestamp) -> [DeckNode] {
        var own: [DeckPath: DeckCounts] = [:]
        for note in notes {
            var c = own[note.deck] ?? DeckCounts()
            c.notes += 1
            for card in note.cards {
                c.cards += 1
                let suspended = card.schedule?.suspended ?? false
                if suspended { c.suspended += 1; continue }
                if card.state == .new { c.new += 1 }
                if card.state == .learning || card.state == .relearning { c.learning += 1 }
                if !note.archived, card.isDue(at: now, dayEnd: dayEnd) { c.due += 1 }
            }
            own[note.deck] = c
        }
        // Every ancestor of a deck with notes is a deck too.
        var all = Set<DeckPath>()
        for d in own.keys { all.formUnion(d.lineage) }
        func build(_ path: DeckPath) -> DeckNode {
            let kids = all.filter { $0.parent == path }.sorted().map(build)
            var counts = own[path] ?? DeckCounts()
            for k in kids { counts.add(k.counts) }
            return DeckNode(path: path, counts: counts, children: kids)
        }
        return all.filter { $0.parent == nil }.sorted().map(build)
    }

    /// Every tag with the number of notes and cards carrying it, sorted by tag.
    public func tagCounts() -> [(tag: Tag, notes: Int, cards: Int)] {
        var counts: [Tag: (Int, Int)] = [:]
        for note in notes {
            for tag in note.tags {
                let c = counts[tag] ?? (0, 0)
                counts[tag] = (c.0 + 1, c.1 + note.cards.count)
            }
        }
        return counts.keys.sorted().map { tag in
            let c = counts[tag] ?? (0, 0)
            return (tag, c.0, c.1)
        }
    }
}
