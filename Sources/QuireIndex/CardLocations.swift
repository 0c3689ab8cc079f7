import QuireModel

/// The index's card table: where each card ID's card is, the cards left out because an earlier
/// card already has their ID, and the diagnostics for IDs that two files use.
///
/// A build gathers the cards one note at a time in path order, while the files are still being
/// read, and makes the table once they are in (``Builder``; see
/// ``VaultIndex/build(root:io:concurrency:cache:)``). The table keeps no ID: a slot holds the ID's
/// 64-bit hash and the card's place, and an ID is compared with the card's own where the hashes
/// match. Sixteen bytes a card, against the thirty-two and the string hashing of a dictionary of
/// IDs (a 100,000-file vault has over a million cards). Every method that reads IDs takes the
/// notes the places point into.
struct CardLocations: Sendable {
    /// One place in the open-addressing table (linear probing); `hash` 0 marks an empty slot.
    private struct Slot: Sendable {
        var hash: UInt64
        var note: UInt32
        var card: UInt32
    }

    private var slots: [Slot] = []
    /// 64 minus the base-2 logarithm of the number of slots.
    private var shift: UInt64 = 64
    /// The number of IDs in the table.
    private(set) var count = 0
    /// Cards left out because an earlier card already has their ID (normally none).
    private(set) var shadowed: Set<CardLocation> = []
    /// One error per card whose ID an earlier note already uses (a copied file, say).
    private(set) var duplicates: [Diagnostic] = []

    /// The hash an ID is kept under (never 0, which marks an empty slot).
    private static func hash(_ id: CardID) -> UInt64 {
        let h = IndexCache.idHash(id)
        return h == 0 ? 1 : h
    }

    /// The slot a hash starts its probe at (Fibonacci hashing: the top bits of a multiple, so that
    /// similar hashes spread).
    private static func home(_ hash: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Makes room for `cards` IDs without growing.
    mutating func reserveCapacity(_ cards: Int) {
        var size = 16
        while size * 3 / 4 < cards { size *= 2 }
        if size > slots.count { resize(to: size) }
    }

    private mutating func resize(to size: Int) {
        let old = slots
        slots = [Slot](repeating: Slot(hash: 0, note: 0, card: 0), count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        let mask = size - 1, shift = shift
        slots.withUnsafeMutableBufferPointer { table in
            for slot in old where slot.hash != 0 {
                var i = Self.home(slot.hash, shift: shift)
                while table[i].hash != 0 { i = (i + 1) & mask }
                table[i] = slot
            }
        }
    }

    /// The slot holding `id`, if the table has it.
    private func slot(of id: CardID, hash: UInt64, in notes: UnsafeBufferPointer<Note>) -> Int? {
        slot(hash: hash) { notes[Int($0.note)].cards[Int($0.card)].id == id }
    }

    /// The slot with `hash` whose card `isTheCard` accepts (asked only where the hashes match, so
    /// that the cards, spread over the heap, are seldom read).
    private func slot(hash: UInt64, where isTheCard: (Slot) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        return slots.withUnsafeBufferPointer { table -> Int? in
            var i = Self.home(hash, shift: shift)
            while table[i].hash != 0 {
                if table[i].hash == hash, isTheCard(table[i]) { return i }
                i = (i + 1) & mask
            }
            return nil
        }
    }

    /// Puts an ID that the table does not have in a free slot.
    private mutating func insert(hash: UInt64, at location: CardLocation) {
        if (count + 1) * 4 > slots.count * 3 { resize(to: max(16, slots.count * 2)) }
        let mask = slots.count - 1
        var i = Self.home(hash, shift: shift)
        slots.withUnsafeMutableBufferPointer { table in
            while table[i].hash != 0 { i = (i + 1) & mask }
            table[i] = Slot(hash: hash, note: UInt32(truncatingIfNeeded: location.note),
                            card: UInt32(truncatingIfNeeded: location.card))
        }
        count += 1
    }

    /// Empties slot `i`, moving later slots of its run back so that every probe still finds them.
    private mutating func removeSlot(_ i: Int) {
        let mask = slots.count - 1, size = slots.count, shift = shift
        slots.withUnsafeMutableBufferPointer { table in
            var hole = i
            var j = i
            while true {
                j = (j + 1) & mask
                if table[j].hash == 0 { break }
                // A slot may fill the hole when its home is not cyclically inside (hole, j].
                let h = Self.home(table[j].hash, shift: shift)
                if (j - h + size) & mask >= (j - hole + size) & mask {
                    table[hole] = table[j]
                    hole = j
                }
            }
            table[hole] = Slot(hash: 0, note: 0, card: 0)
        }
        count -= 1
    }

    // MARK: - Building

    /// Gathers a new table's cards note by note, in path order, and makes the table in one pass
    /// (``build(notes:)``).
    ///
    /// Placing each card as its note comes would touch a random slot of a table of tens of
    /// megabytes (a 100,000-file vault has 1.3 million cards): a cache miss for nearly every card.
    /// Gathered by the 1/256 of the table their probe starts in, the cards are placed one such
    /// region at a time, which stays in the processor's cache.
    struct Builder: Sendable {
        /// The cards by the top byte of the slot their probe starts at, each region in path order.
        private var regions = ByteBuckets<Slot>()

        /// Adds the cards of note `n`, the note after those added before.
        mutating func add(note n: Int, cards: UnsafeBufferPointer<Card>) {
            for c in cards.indices {
                let hash = CardLocations.hash(cards[c].id)
                // The home slot in a table of 256 slots: the top byte of the home in any larger one.
                regions.append(Slot(hash: hash, note: UInt32(truncatingIfNeeded: n), card: UInt32(truncatingIfNeeded: c)),
                               bucket: UInt8(truncatingIfNeeded: CardLocations.home(hash, shift: 56)))
            }
        }

        /// The table of the cards added; `notes` are the notes they were added from. An ID that an
        /// earlier card already has leaves its card out (shadowed), with a diagnostic when the
        /// earlier card is in another note: the same table, diagnostics and order as placing the
        /// cards one by one in path order.
        consuming func build(notes: UnsafeBufferPointer<Note>) -> CardLocations {
            var table = CardLocations()
            table.reserveCapacity(regions.count)
            var duplicates: [(at: CardLocation, diagnostic: Diagnostic)] = []
            // Equal IDs share a region and come in path order, so the first one is placed.
            for region in 0..<256 {
                regions.withBucket(region) { slots in
                    for slot in slots {
                        let location = CardLocation(note: Int(slot.note), card: Int(slot.card))
                        let found = table.slot(hash: slot.hash) {
                            notes[Int($0.note)].cards[Int($0.card)].id == notes[location.note].cards[location.card].id
                        }
                        guard let found else {
                            table.insert(hash: slot.hash, at: location)
                            continue
                        }
                        let existing = table.location(inSlot: found)
                        if existing.note != location.note {
                            duplicates.append((location, Self.duplicate(location, of: existing, in: notes)))
                        }
                        table.shadowed.insert(location)
                    }
                }
            }
            duplicates.sort { ($0.at.note, $0.at.card) < ($1.at.note, $1.at.card) }
            table.duplicates = duplicates.map(\.diagnostic)
            return table
        }

        private static func duplicate(_ location: CardLocation, of existing: CardLocation,
                                      in notes: UnsafeBufferPointer<Note>) -> Diagnostic {
            let note = notes[location.note], other = notes[existing.note]
            let card = note.cards[location.card]
            return Diagnostic(.error, path: note.path, line: card.lines.lowerBound, column: card.column,
                message: "card ID '\(card.id)' is also used by \(other.path):\(other.cards[existing.card].lines.lowerBound) (a copied file?); this card is left out")
        }
    }

    /// The table of the cards of `notes` (see ``Builder``).
    static func build(_ notes: UnsafeBufferPointer<Note>) -> CardLocations {
        var builder = Builder()
        for n in notes.indices { notes[n].cards.withUnsafeBufferPointer { builder.add(note: n, cards: $0) } }
        return builder.build(notes: notes)
    }

    private func location(inSlot i: Int) -> CardLocation {
        CardLocation(note: Int(slots[i].note), card: Int(slots[i].card))
    }

    // MARK: - Lookup and updates

    /// Where the card with `id` is.
    func location(of id: CardID, in notes: [Note]) -> CardLocation? {
        notes.withUnsafeBufferPointer { notes in
            slot(of: id, hash: Self.hash(id), in: notes).map(location(inSlot:))
        }
    }

    /// Every card's place, in no particular order.
    func forEachLocation(_ body: (CardLocation) -> Void) {
        for slot in slots where slot.hash != 0 { body(CardLocation(note: Int(slot.note), card: Int(slot.card))) }
    }

    /// Removes `id` if its card is in note `position` of `notes` (as they are before the change).
    mutating func remove(_ id: CardID, inNote position: Int, of notes: [Note]) {
        let found = notes.withUnsafeBufferPointer { slot(of: id, hash: Self.hash(id), in: $0) }
        if let found, Int(slots[found].note) == position { removeSlot(found) }
    }

    /// Adds the cards of `notes[position]` whose IDs the table does not have yet.
    mutating func addNew(note position: Int, of notes: [Note]) {
        notes.withUnsafeBufferPointer { notes in
            for (c, card) in notes[position].cards.enumerated() {
                let hash = Self.hash(card.id)
                if slot(of: card.id, hash: hash, in: notes) == nil { insert(hash: hash, at: CardLocation(note: position, card: c)) }
            }
        }
    }

    /// Moves every card place in notes from `first` on by `delta` notes.
    mutating func shiftNotes(from first: Int, by delta: Int) {
        slots.withUnsafeMutableBufferPointer { table in
            for i in table.indices where table[i].hash != 0 && Int(table[i].note) >= first {
                table[i].note = UInt32(truncatingIfNeeded: Int(table[i].note) + delta)
            }
        }
    }
}
