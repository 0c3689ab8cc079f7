@testable import QuireIndex
import Testing
import QuireModel

/// The card table against a dictionary of IDs doing the same: inserts that grow it, removals that
/// move later slots of a probe run back, and notes shifted by an insertion or removal.
@Suite struct CardLocationsTests {
    /// A note whose cards have the given IDs.
    static func note(_ n: Int, ids: [String]) -> Note {
        let cards = ids.enumerated().map { c, id in
            Card(id: CardID(id)!, kind: .basic, variant: .single, front: "q\(c)", back: "a", lines: (c + 1)...(c + 1),
                 column: 1, headingPath: [], identityText: "", hasExplicitID: true)
        }
        return Note(path: "n\(n).md", title: "", deck: DeckPath("D")!, cards: cards)
    }

    /// A deterministic pseudo-random sequence (SplitMix64).
    struct Numbers {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test func agreesWithADictionaryThroughEdits() {
        var random = Numbers(state: 7)
        var notes = (0..<400).map { n in Self.note(n, ids: (0..<(1 + random.next(6))).map { "id\(n)x\($0)" }) }
        var table = notes.withUnsafeBufferPointer { CardLocations.build($0) }
        func model() -> [CardID: CardLocation] {
            var m: [CardID: CardLocation] = [:]
            for (n, note) in notes.enumerated() {
                for (c, card) in note.cards.enumerated() where m[card.id] == nil { m[card.id] = CardLocation(note: n, card: c) }
            }
            return m
        }
        func check() {
            let m = model()
            #expect(table.count == m.count)
            for (id, loc) in m { #expect(table.location(of: id, in: notes) == loc) }
            var seen = 0
            table.forEachLocation { _ in seen += 1 }
            #expect(seen == m.count)
            #expect(table.location(of: CardID("absent")!, in: notes) == nil)
        }
        check()
        for step in 0..<300 {
            let position = random.next(notes.count)
            switch step % 3 {
            case 0:  // A note's cards replaced by others.
                for card in notes[position].cards { table.remove(card.id, inNote: position, of: notes) }
                notes[position] = Self.note(position, ids: (0..<random.next(5)).map { "new\(step)x\($0)" })
                table.addNew(note: position, of: notes)
            case 1:  // A note removed: later notes move down.
                for card in notes[position].cards { table.remove(card.id, inNote: position, of: notes) }
                notes.remove(at: position)
                table.shiftNotes(from: position + 1, by: -1)
            default:  // A note inserted: later notes move up.
                table.shiftNotes(from: position, by: 1)
                notes.insert(Self.note(position, ids: (0..<(1 + random.next(4))).map { "ins\(step)x\($0)" }), at: position)
                table.addNew(note: position, of: notes)
            }
            if step % 25 == 0 { check() }
        }
        check()
    }

    @Test func aRepeatedIDIsShadowedAndReportedOnlyAcrossNotes() {
        let notes = [Self.note(0, ids: ["same", "same", "other"]), Self.note(1, ids: ["same", "third"])]
        let table = notes.withUnsafeBufferPointer { CardLocations.build($0) }
        #expect(table.count == 3)
        #expect(table.shadowed == [CardLocation(note: 0, card: 1), CardLocation(note: 1, card: 0)])
        #expect(table.duplicates.map(\.description) == [
            "n1.md:1:1: error: card ID 'same' is also used by n0.md:1 (a copied file?); this card is left out",
        ])
        #expect(table.location(of: CardID("same")!, in: notes) == CardLocation(note: 0, card: 0))
        #expect(table.location(of: CardID("third")!, in: notes) == CardLocation(note: 1, card: 1))
    }

    /// The table is made region by region of its slots, not in path order: the first card of an ID
    /// in path order must still win, and the diagnostics must still come in path order. Hundreds
    /// of IDs, each used again by later notes, land in most of the 256 regions.
    @Test func duplicatesAcrossRegionsKeepTheFirstCardAndPathOrder() {
        let ids = (0..<300).map { "shared\($0)" }
        var notes = [Self.note(0, ids: ids)]
        for n in 1...3 {
            // Later notes repeat the IDs in another order, with cards of their own between them.
            notes.append(Self.note(n, ids: ids.reversed().enumerated().flatMap { i, id in i % 7 == n ? [id, "own\(n)x\(i)"] : [id] }))
        }
        let table = notes.withUnsafeBufferPointer { CardLocations.build($0) }
        for (c, id) in ids.enumerated() {
            #expect(table.location(of: CardID(id)!, in: notes) == CardLocation(note: 0, card: c))
        }
        var expected: [String] = []
        var shadowed: Set<CardLocation> = []
        for n in 1...3 {
            for (c, card) in notes[n].cards.enumerated() where card.id.rawValue.hasPrefix("shared") {
                let first = ids.firstIndex(of: card.id.rawValue)! + 1
                expected.append("n\(n).md:\(c + 1):1: error: card ID '\(card.id)' is also used by n0.md:\(first) (a copied file?); this card is left out")
                shadowed.insert(CardLocation(note: n, card: c))
            }
        }
        #expect(table.duplicates.map(\.description) == expected)
        #expect(table.shadowed == shadowed)
        #expect(table.count == 300 + notes.dropFirst().reduce(0) { $0 + $1.cards.count - 300 })
    }
}
