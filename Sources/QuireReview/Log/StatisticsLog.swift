import QuireModel
import QuireSupport
import QuireSystem
import QuireVault

/// The review log as statistics read it: each card's remaining events — ordered, undone ones
/// taken out by ``ReviewHistory``'s rules — as plain values, with nothing to count or free per
/// event. A log of a million events is read, checked and cleaned in a few hundred milliseconds.
///
/// It takes and refuses the same lines as ``ReviewLog`` (one line checker serves both), skips
/// events whose `path=` is not a plain path to a note as ``Vault/reviewLog()`` does, and keeps
/// of each event what the figures need: its time, action, `ms=`, and its settings (`cfg=` and
/// `sched=`) as a number standing for one of the log's few distinct pairs.
public struct StatisticsLog: Sendable {
    /// One remaining event of a card.
    public struct Event: Sendable {
        public var time: Timestamp
        public var action: ReviewAction
        /// `ms=` as a whole number (`Int32.min` when there is none or it is out of range).
        private var ms: Int32
        /// Its settings, an index into ``settingsEvents``.
        private var settingsNumber: Int32
        /// A `set` event's state: an index into ``StatisticsLog/setStates``, else −1.
        private var setNumber: Int32 = -1

        init(time: Timestamp, action: ReviewAction, milliseconds: Int?, settings: Int) {
            self.time = time
            self.action = action
            ms = milliseconds.flatMap { Int32(exactly: $0) } ?? .min
            settingsNumber = Int32(truncatingIfNeeded: settings)
        }

        /// The `ms=` field as a whole number, when it is one that fits 32 bits (a longer answer
        /// is not a time anyway).
        public var milliseconds: Int? { ms == .min ? nil : Int(ms) }
        /// Its settings: an index into ``StatisticsLog/settingsEvents``.
        public var settings: Int {
            get { Int(settingsNumber) }
            set { settingsNumber = Int32(truncatingIfNeeded: newValue) }
        }
        /// A `set` event's state: an index into ``StatisticsLog/setStates``; nil for other events.
        public var setState: Int? {
            get { setNumber < 0 ? nil : Int(setNumber) }
            set { setNumber = newValue.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
        }
    }

    /// The cards with events, in ID order.
    public let cards: [CardID]
    /// All cards' events, card after card.
    private let all: [Event]
    /// Where each card's events start in `all`, and the end.
    private let starts: [Int]
    /// For each settings number, an event of the log carrying that `cfg=` and `sched=` (and no
    /// other field): what ``SettingsResolver`` reads.
    public let settingsEvents: [ReviewEvent]
    /// The states `set` events give (``ReviewEvent/setState``), by ``Event/setState``.
    public let setStates: [SchedulingState]

    /// The events of `cards[k]`, in order.
    public func events(ofCard k: Int) -> ArraySlice<Event> { all[starts[k]..<starts[k + 1]] }

    /// Reads log files given as their bytes, in the order ``ReviewHistory`` is given events (by
    /// device, each file in line order). Bad lines and unsafe paths are skipped
    /// (``Vault/reviewLog()`` reports them).
    public init(files: [[UInt8]]) {
        var parsed: [[Part]] = []
        for file in files {
            parsed.append(file.withUnsafeBufferPointer { bytes in
                ReviewLog.inParts(bytes) { range in Part(bytes, range) }
            })
        }
        let tables = Self.tables(parsed)
        // Each card's events together, in the order read: one counting pass, straight from the parts.
        var starts = [0]
        starts.reserveCapacity(tables.counts.count + 1)
        for n in tables.counts { starts.append(starts[starts.count - 1] + n) }
        var grouped = Self.grouped(parsed, maps: tables.maps, starts: starts)
        parsed = []
        let cardIDs = tables.cardIDs
        let order = cardIDs.indices.sorted { cardIDs[$0] < cardIDs[$1] }
        var all: [Event] = []
        all.reserveCapacity(grouped.count)
        var cards: [CardID] = []
        var cardStarts: [Int] = [0]
        for slot in order {
            let cleaned = ReviewHistory.clean(&grouped, starts[slot]..<starts[slot + 1], time: { $0.event.time },
                                              isUndo: { if case .undo = $0.event.action { true } else { false } }) { undo, candidate in
                guard case .undo(let target) = undo.event.action else { return false }
                if let targetID = undo.ofID {
                    guard let id = candidate.id else { return false }
                    return Self.sameValue(files[Int(undo.file)][targetID], files[Int(candidate.file)][id])
                }
                return candidate.event.time == target
            }
            guard cleaned.present else { continue }
            for k in starts[slot]..<cleaned.end { all.append(grouped[k].event) }
            cards.append(cardIDs[slot])
            cardStarts.append(all.count)
        }
        self.cards = cards
        self.all = all
        self.starts = cardStarts
        self.settingsEvents = tables.settingsEvents
        self.setStates = tables.setStates
    }

    /// The log's cards, settings and `set` states in one table each, for all parts.
    private struct Tables {
        var cardIDs: [CardID] = []
        /// How many events each card has.
        var counts: [Int] = []
        var settingsEvents: [ReviewEvent] = []
        var setStates: [SchedulingState] = []
        /// For each part, in order: its cards' and its settings' numbers in the tables, and the
        /// number of `set` states before its own.
        var maps: [(cards: [Int], settings: [Int], states: Int)] = []
    }

    /// The parts' cards, settings and `set` states in one table each.
    private static func tables(_ parsed: [[Part]]) -> Tables {
        var tables = Tables()
        var cardSlot: [CardID: Int] = [:]
        var settingsSlot: [String: Int] = [:]
        for part in parsed.joined() {
            let cardMap = part.cards.enumerated().map { local, id in
                let slot: Int
                if let known = cardSlot[id] {
                    slot = known
                } else {
                    slot = tables.cardIDs.count
                    cardSlot[id] = slot
                    tables.cardIDs.append(id)
                    tables.counts.append(0)
                }
                tables.counts[slot] += part.counts[local]
                return slot
            }
            let settingsMap = part.settings.map { event in
                if let slot = settingsSlot[event.encodedFields] { return slot }
                settingsSlot[event.encodedFields] = tables.settingsEvents.count
                tables.settingsEvents.append(event)
                return tables.settingsEvents.count - 1
            }
            tables.maps.append((cardMap, settingsMap, tables.setStates.count))
            tables.setStates += part.setStates
        }
        return tables
    }

    /// Every part's records, each card's together (from `starts[slot]`) in the order read, with
    /// their settings and `set` states numbered in the tables (`maps`) and their file noted.
    private static func grouped(_ parsed: [[Part]], maps: [(cards: [Int], settings: [Int], states: Int)], starts: [Int]) -> [Record] {
        var next = starts
        return [Record](unsafeUninitializedCapacity: starts[starts.count - 1]) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            var k = 0
            for (file, parts) in parsed.enumerated() {
                for part in parts {
                    let (cardMap, settingsMap, statesBefore) = maps[k]
                    k += 1
                    for var record in part.records {
                        record.event.settings = settingsMap[record.event.settings]
                        if let k = record.event.setState { record.event.setState = statesBefore + k }
                        record.file = Int32(file)
                        let slot = cardMap[Int(record.card)]
                        (base + next[slot]).initialize(to: record)
                        next[slot] += 1
                    }
                }
            }
            initialized = buffer.count
        }
    }

    /// Reads events, as if they were one log file: for tests, and for events not read from a log.
    public init(_ events: [ReviewEvent]) {
        self.init(files: [Array(events.map { ReviewLog.format($0) + "\n" }.joined().utf8)])
    }

    /// Whether two field values (percent-encoded as the log writes them) are the same text.
    private static func sameValue(_ x: ArraySlice<UInt8>, _ y: ArraySlice<UInt8>) -> Bool {
        if !x.contains(0x25), !y.contains(0x25) { return x.elementsEqual(y) }
        return ReviewEvent.percentDecode(Substring(decoding: x, as: UTF8.self)) == ReviewEvent.percentDecode(Substring(decoding: y, as: UTF8.self))
    }

    /// An event as read, before the undo rules: 64 bytes.
    struct Record {
        var event: Event
        /// The card: an index into its part's cards.
        var card: Int32
        /// The file it was read from.
        var file: Int32 = 0
        /// Where its `id=` and `of-id=` values are in the file.
        private var idStart = 0, ofIDStart = 0
        private var idCount: UInt32 = .max, ofIDCount: UInt32 = .max

        init(event: Event, card: Int, id: Range<Int>?, ofID: Range<Int>?) {
            self.event = event
            self.card = Int32(truncatingIfNeeded: card)
            // A field is shorter than 4 GB: the log is read into memory whole.
            if let id { (idStart, idCount) = (id.lowerBound, UInt32(truncatingIfNeeded: id.count)) }
            if let ofID { (ofIDStart, ofIDCount) = (ofID.lowerBound, UInt32(truncatingIfNeeded: ofID.count)) }
        }

        var id: Range<Int>? { idCount == .max ? nil : idStart..<idStart + Int(idCount) }
        var ofID: Range<Int>? { ofIDCount == .max ? nil : ofIDStart..<ofIDStart + Int(ofIDCount) }
    }

    /// What one part of a file gives: its events, and the distinct cards and settings they name.
    struct Part: Sendable {
        var records: [Record] = []
        var cards: [CardID] = []
        /// How many events each card has.
        var counts: [Int] = []
        /// Each distinct `cfg=` and `sched=` pair as an event carrying just them.
        var settings: [ReviewEvent] = []
        /// The states of the part's `set` events.
        var setStates: [SchedulingState] = []

        init(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            records.reserveCapacity(range.count / 80)
            var cardSlot: [ByteKey: Int] = [:]
            var settingsSlot: [ByteKey: Int] = [:]
            var pathSafe: [ByteKey: Bool] = [:]
            var fields: [Range<Int>] = []
            fields.reserveCapacity(16)
            var last: (key: ByteKey, slot: Int)?
            var lastSafePath: [Range<Int>?] = []
            _ = ReviewLog.forEachLine(b, range) { line, number in
                guard case .success(let parts) = ReviewLog.LineParts.parse(b, line, number: number, fields: &fields) else { return }
                let (ms, cfg, sched, path, id, ofID) = Self.read(b, parts, fields)
                let cardKey = ByteKey(b, parts.card)
                let card: Int
                if let slot = cardSlot[cardKey] {
                    card = slot
                } else {
                    guard let id = CardID(String(decoding: UnsafeBufferPointer(rebasing: b[parts.card]), as: UTF8.self)) else { return }
                    card = cards.count
                    cardSlot[cardKey] = card
                    cards.append(id)
                    counts.append(0)
                    lastSafePath.append(nil)
                }
                // The path: most events name their card's previous safe one, compared at once;
                // each other path is judged once.
                if let path, !(lastSafePath[card].map { ByteKey(b, $0) == ByteKey(b, path) } ?? false) {
                    let key = ByteKey(b, path)
                    let safe: Bool
                    if let known = pathSafe[key] {
                        safe = known
                    } else {
                        let text = Self.decoded(b, path) ?? ""
                        safe = Vault.unsafeReason(text) == nil
                        pathSafe[key] = safe
                    }
                    guard safe else { return }
                    lastSafePath[card] = path
                }
                let settingsNumber = numbered(settings: ByteKey(b, cfg, sched), b, cfg: cfg, sched: sched, parts: parts, card: card,
                                                 slots: &settingsSlot, last: &last)
                var event = Event(time: parts.time, action: parts.action, milliseconds: ms.flatMap { Self.integer(b, $0) },
                                  settings: settingsNumber)
                if parts.action == .set {
                    guard let state = Self.setState(b, parts, fields) else { return }
                    event.setState = setStates.count
                    setStates.append(state)
                }
                records.append(Record(event: event, card: card, id: id, ofID: ofID))
                counts[card] += 1
            }
        }

        /// The values of the fields the figures read — `ms=`, `cfg=`, `sched=`, `path=`, `id=`,
        /// `of-id=` — as byte ranges; the first of a key counts.
        private static func read(_ b: UnsafeBufferPointer<UInt8>, _ parts: ReviewLog.LineParts, _ fields: [Range<Int>])
            -> (ms: Range<Int>?, cfg: Range<Int>?, sched: Range<Int>?, path: Range<Int>?, id: Range<Int>?, ofID: Range<Int>?) {
            var ms: Range<Int>?, cfg: Range<Int>?, sched: Range<Int>?, path: Range<Int>?, id: Range<Int>?, ofID: Range<Int>?
            for k in parts.rest..<parts.count where k != parts.skipped {
                let f = fields[k]
                var eq = f.lowerBound
                while b[eq] != 0x3D { eq += 1 }
                let value = eq + 1..<f.upperBound
                switch eq - f.lowerBound {
                case 2 where b[f.lowerBound] == 0x6D && b[f.lowerBound + 1] == 0x73: if ms == nil { ms = value }
                case 2 where b[f.lowerBound] == 0x69 && b[f.lowerBound + 1] == 0x64: if id == nil { id = value }
                case 3 where Self.equals(b, f.lowerBound, "cfg"): if cfg == nil { cfg = value }
                case 4 where Self.equals(b, f.lowerBound, "path"): if path == nil { path = value }
                case 5 where Self.equals(b, f.lowerBound, "sched"): if sched == nil { sched = value }
                case 5 where Self.equals(b, f.lowerBound, "of-id"): if ofID == nil { ofID = value }
                default: break
                }
            }
            return (ms, cfg, sched, path, id, ofID)
        }

        /// The settings number of an event whose `cfg=` and `sched=` make `key`: most events carry
        /// the previous line's (`last`); a pair not seen before gets the next number, and an event
        /// carrying just it in ``settings``.
        private mutating func numbered(settings key: ByteKey, _ b: UnsafeBufferPointer<UInt8>, cfg: Range<Int>?, sched: Range<Int>?,
                                     parts: ReviewLog.LineParts, card: Int, slots: inout [ByteKey: Int],
                                     last: inout (key: ByteKey, slot: Int)?) -> Int {
            let settingsNumber: Int
            if let last, last.key == key {
                settingsNumber = last.slot
            } else if let slot = slots[key] {
                settingsNumber = slot
            } else {
                settingsNumber = settings.count
                slots[key] = settingsNumber
                let text = [("cfg", cfg), ("sched", sched)].compactMap { name, r in
                    r.map { name + "=" + String(decoding: UnsafeBufferPointer(rebasing: b[$0]), as: UTF8.self) }
                }.joined(separator: " ")
                settings.append(ReviewEvent(time: parts.time, card: cards[card], action: parts.action, encodedFields: text))
            }
            last = (key, settingsNumber)
            return settingsNumber
        }

        /// A `set` event's state, its fields decoded as the event reader decodes them (rare).
        private static func setState(_ b: UnsafeBufferPointer<UInt8>, _ parts: ReviewLog.LineParts, _ fields: [Range<Int>]) -> SchedulingState? {
            let pairs: [(key: String, value: String)] = (parts.rest..<parts.count).compactMap { k in
                guard k != parts.skipped, let eq = fields[k].first(where: { b[$0] == 0x3D }) else { return nil }
                let key = String(decoding: UnsafeBufferPointer(rebasing: b[fields[k].lowerBound..<eq]), as: UTF8.self)
                return (key, Self.decoded(b, eq + 1..<fields[k].upperBound) ?? "")
            }
            return ReviewEvent.state(fields: pairs)
        }

        private static func equals(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ word: StaticString) -> Bool {
            let w = word.utf8Start
            for k in 0..<word.utf8CodeUnitCount where b[at + k] != w[k] { return false }
            return true
        }

        /// A value's text, escapes decoded.
        private static func decoded(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String? {
            ReviewEvent.percentDecode(UnsafeBufferPointer(rebasing: b[r]))
        }

        /// A value as `Int(String)` reads it: digits (up to 18) at a glance, anything else decoded.
        private static func integer(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int? {
            if r.count > 0, r.count <= 18 {
                var v = 0
                for i in r {
                    let d = Int(b[i]) - 48
                    guard d >= 0, d <= 9 else { return decoded(b, r).flatMap { Int($0) } }
                    v = v * 10 + d
                }
                return v
            }
            return decoded(b, r).flatMap { Int($0) }
        }
    }
}

/// Bytes of a log part, or two runs of them, as a dictionary key: the part's buffer outlives the
/// dictionaries. A missing run differs from an empty one.
private struct ByteKey: Hashable {
    let x: UnsafeBufferPointer<UInt8>?, y: UnsafeBufferPointer<UInt8>?

    init(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) {
        x = UnsafeBufferPointer(rebasing: b[r])
        y = nil
    }

    init(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>?, _ s: Range<Int>?) {
        x = r.map { UnsafeBufferPointer(rebasing: b[$0]) }
        y = s.map { UnsafeBufferPointer(rebasing: b[$0]) }
    }

    static func == (a: ByteKey, b: ByteKey) -> Bool { same(a.x, b.x) && same(a.y, b.y) }

    private static func same(_ a: UnsafeBufferPointer<UInt8>?, _ b: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        guard let p = a.baseAddress, let q = b.baseAddress else { return true }
        return RawBytes.equal(p, q, count: a.count)
    }

    func hash(into h: inout Hasher) {
        Self.hash(x, into: &h)
        Self.hash(y, into: &h)
    }

    /// A run of up to 16 bytes (a card ID) as two words, a longer one as bytes.
    private static func hash(_ run: UnsafeBufferPointer<UInt8>?, into h: inout Hasher) {
        guard let run else { return h.combine(-1) }
        h.combine(run.count)
        guard let base = run.baseAddress else { return }
        if run.count <= 16 {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base, count: run.count)) }
            h.combine(words.0)
            h.combine(words.1)
        } else {
            h.combine(bytes: UnsafeRawBufferPointer(run))
        }
    }
}
