import QuireModel
import QuireSystem
import QuireSupport

/// The cards that can come due, as of the index cache they were written with: a section of the
/// cache file (`due`) small enough that counting the cards due now costs a read of one part of one
/// file — what `quire due --prompt` does at every shell prompt.
///
/// It holds every card of a note that is not archived, except suspended cards, new cards (outside
/// StudyFlow) and StudyFlow's inactive cards, which no time makes due. For each: when it is due,
/// whether that is a time of day (a learning step) or a study day, and until when it is buried. It
/// is as old as the cache: a note edited outside Quire counts as it was at the last index (any
/// command that reads the vault, a watch or a serve brings it up to date).
public struct DueSummary: Sendable, Equatable {
    /// One card: what ``SchedulingState/isDue(at:dayEnd:)`` reads.
    struct Item: Sendable, Equatable {
        /// A learning step outside StudyFlow: due at its time, not on its day.
        var intraday: Bool
        var due: Timestamp?
        var buriedUntil: Timestamp?

        init(intraday: Bool, due: Timestamp?, buriedUntil: Timestamp?) {
            self.intraday = intraday
            self.due = due
            self.buriedUntil = buriedUntil
        }

        /// The item of a card's state, or nil when no time makes the card due.
        init?(_ s: SchedulingState) {
            guard !s.suspended, s.state != .new || s.flow != nil, s.flow != .inactive else { return nil }
            self.init(intraday: (s.state == .learning || s.state == .relearning) && s.flow == nil,
                      due: s.due, buriedUntil: s.buriedUntil)
        }

        /// Whether the card is due: the time part of the one rule (``SchedulingState/isDue(due:intraday:buriedUntil:at:dayEnd:)``).
        func isDue(at now: Timestamp, dayEnd: Timestamp) -> Bool {
            SchedulingState.isDue(due: due, intraday: intraday, buriedUntil: buriedUntil, at: now, dayEnd: dayEnd)
        }
    }

    var items: [Item] = []

    init(items: [Item] = []) { self.items = items }

    /// Adds the cards of one file's entry.
    mutating func add(_ entry: IndexCache.Entry) {
        guard entry.noteRange != nil, !entry.archived else { return }
        for s in entry.schedules { if let item = Item(s) { items.append(item) } }
    }

    /// How many cards are due at `now`, on the study day that ends at `dayEnd`.
    public func dueCount(at now: Timestamp, dayEnd: Timestamp) -> Int {
        items.reduce(0) { $0 + ($1.isDue(at: now, dayEnd: dayEnd) ? 1 : 0) }
    }

    /// The section's bytes: a count, then per card a flag byte (bit 0 intraday, bit 1 has a due
    /// time, bit 2 buried) and the times it has, in milliseconds.
    func encoded() -> [UInt8] {
        var w = BinaryWriter(capacity: 8 + items.count * 9)
        w.varint(items.count)
        for item in items {
            w.u8((item.intraday ? 1 : 0) | (item.due != nil ? 2 : 0) | (item.buriedUntil != nil ? 4 : 0))
            if let due = item.due { w.i64(due.milliseconds) }
            if let buried = item.buriedUntil { w.i64(buried.milliseconds) }
        }
        return w.bytes
    }

    /// Reads the section's items one by one, checking its layout, each handed to `body`.
    private static func forEachItem(in raw: UnsafeRawBufferPointer, _ body: (Item) -> Void) throws(IndexCacheError) {
        var r = BinaryReader(raw)
        for _ in 0..<(try r.count()) {
            let flags = try r.u8()
            guard flags < 8 else { throw .malformed("due item flags") }
            let due = flags & 2 != 0 ? Timestamp(milliseconds: try r.i64()) : nil
            let buried = flags & 4 != 0 ? Timestamp(milliseconds: try r.i64()) : nil
            body(Item(intraday: flags & 1 != 0, due: due, buriedUntil: buried))
        }
        guard r.isAtEnd else { throw .malformed("due section has trailing bytes") }
    }

    static func decode(_ raw: UnsafeRawBufferPointer) throws(IndexCacheError) -> DueSummary {
        var items: [Item] = []
        try forEachItem(in: raw) { items.append($0) }
        return DueSummary(items: items)
    }

    /// How many cards `cache`'s section says are due, counted as the section is read (no item
    /// kept: a prompt's count of 60,000 cards); nil where ``load(from:)`` gives nil.
    public static func dueCount(in cache: IndexCache, at now: Timestamp, dayEnd: Timestamp) -> Int? {
        guard let bytes = sectionBytes(cache) else { return nil }
        return bytes.withUnsafeBytes { raw -> Int? in
            var count = 0
            do throws(IndexCacheError) {
                try forEachItem(in: raw) { if $0.isDue(at: now, dayEnd: dayEnd) { count += 1 } }
            } catch {
                return nil
            }
            return count
        }
    }

    /// The due section's bytes, its checksum checked; nil when there is none to read.
    private static func sectionBytes(_ cache: IndexCache) -> [UInt8]? {
        guard case .success(let opened) = cache.openSections(),
              let section = opened.sections[IndexCache.SectionName.due], let checksum = section.checksum,
              let bytes = try? IndexCache.read(opened.file, offset: Int64(section.offset), count: section.length),
              bytes.withUnsafeBytes({ Checksum64.of($0) }) == checksum else {
            return nil
        }
        return bytes
    }

    /// The summary in `cache`'s file, checked (trailer, section table, the section's checksum);
    /// nil when there is no cache, it is damaged or of another version, or it was written before
    /// caches had this section. Reads no note and no folder.
    public static func load(from cache: IndexCache) -> DueSummary? {
        sectionBytes(cache).flatMap { bytes in bytes.withUnsafeBytes { raw in try? decode(raw) } }
    }
}

extension IndexCache {
    /// The entries section as it is written, with the due summary gathered from the same entries.
    struct EntryWriter {
        var bytes: BinaryWriter
        var due = DueSummary()

        init(capacity: Int) { bytes = BinaryWriter(capacity: capacity) }

        /// Writes one file's entry.
        mutating func add(_ e: Entry) {
            IndexCache.encodeEntry(e, into: &bytes)
            due.add(e)
        }
    }
}
