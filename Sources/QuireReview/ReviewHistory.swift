import QuireModel
import QuireScheduling

/// The review log put in order and cleaned of undone events: what ``quire replay`` folds into
/// each card's state (FORMAT.md §6).
///
/// Events are ordered by time; events with the same time keep the order they were given in (the
/// caller passes log files sorted by device, each in line order). An undo names the one event it
/// takes back: `undo of=T of-id=E` for card C removes C's event whose `id=` is E, if it came
/// before the undo; an undo without `of-id=` (logs written before event IDs) removes C's last
/// event at time T before it. Undo events themselves change nothing else.
public struct ReviewHistory: Sendable {
    /// Each card's remaining events, in order.
    public private(set) var events: [CardID: [ReviewEvent]] = [:]
    /// Undo events whose target was not found (already undone, or never logged).
    public private(set) var danglingUndos: [ReviewEvent] = []

    /// Orders and cleans events.
    public init(_ all: [ReviewEvent]) {
        // Each card's events together, in the order given: a slot number per card, found once per
        // event, then one counting pass.
        var slotOf: [CardID: Int] = [:]
        var slots = [Int](repeating: 0, count: all.count)
        var counts: [Int] = []
        var cards: [CardID] = []
        for (position, event) in all.enumerated() {
            if let slot = slotOf[event.card] {
                slots[position] = slot
                counts[slot] += 1
            } else {
                slotOf[event.card] = counts.count
                slots[position] = counts.count
                counts.append(1)
                cards.append(event.card)
            }
        }
        var (grouped, starts) = Self.group(all, slots: slots, counts: counts)
        var dangling: [ReviewEvent] = []
        events.reserveCapacity(cards.count)
        for (slot, card) in cards.enumerated() {
            let cleaned = Self.clean(&grouped, starts[slot]..<starts[slot + 1], time: { $0.time }, isUndo: Self.isUndo) { undo, candidate in
                guard case .undo(let target) = undo.action else { return false }
                if let targetID = undo.field("of-id") { return candidate.field("id") == targetID }
                return candidate.time == target
            }
            dangling += cleaned.dangling
            if cleaned.present { events[card] = Array(grouped[starts[slot]..<cleaned.end]) }
        }
        danglingUndos = dangling.sorted { $0.time < $1.time }
    }

    /// Events grouped by card: `slots[k]` is the card of `all[k]`, and `counts[slot]` the number of
    /// events of card `slot`. Returns the events card after card, each card's in the order
    /// given, and where each card's start (and the end).
    static func group<E>(_ all: [E], slots: [Int], counts: [Int]) -> (events: [E], starts: [Int]) {
        var starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for n in counts { starts.append(starts[starts.count - 1] + n) }
        guard let first = all.first else { return ([], starts) }
        var next = starts
        var grouped = [E](repeating: first, count: all.count)
        for (position, event) in all.enumerated() {
            grouped[next[slots[position]]] = event
            next[slots[position]] += 1
        }
        return (grouped, starts)
    }

    /// The undo rules (FORMAT.md §6) on one card's events, `events[range]`, in place, for any kind
    /// of event: the events put in order of time (a stable sort, made only when they are out of
    /// order); each undo takes out the last event before it that it `undoes` (never an undo) and
    /// goes itself. Returns where the remaining events end, whether the card had an event other
    /// than an undo, and the undos that found no target.
    ///
    /// One card's undos only touch that card's events, so cleaning card by card gives what
    /// cleaning the whole log in time order gives.
    static func clean<E>(_ events: inout [E], _ range: Range<Int>, time: (E) -> Timestamp, isUndo: (E) -> Bool,
                         undoes: (_ undo: E, _ candidate: E) -> Bool) -> (end: Int, present: Bool, dangling: [E]) {
        var sorted = true
        for k in range.dropFirst() where time(events[k - 1]) > time(events[k]) {
            sorted = false
            break
        }
        if !sorted { events[range].sort { time($0) < time($1) } }
        var end = range.lowerBound
        var present = false
        var dangling: [E] = []
        for k in range {
            let event = events[k]
            guard isUndo(event) else {
                events[end] = event
                end += 1
                present = true
                continue
            }
            if let target = (range.lowerBound..<end).last(where: { undoes(event, events[$0]) }) {
                for m in target..<end - 1 { events[m] = events[m + 1] }
                end -= 1
            } else {
                dangling.append(event)
            }
        }
        return (end, present, dangling)
    }

    /// Keeps only the events of the cards `include` admits.
    public mutating func keep(_ include: (CardID) -> Bool) {
        events = events.filter { include($0.key) }
    }

    /// Whether two events are the same logged event: the same `id=` when both have one, else the
    /// same time and action.
    static func same(_ a: ReviewEvent, _ b: ReviewEvent) -> Bool {
        if let x = a.field("id"), let y = b.field("id") { return x == y && a.card == b.card }
        return a.time == b.time && a.action == b.action && a.card == b.card
    }

    private static func isUndo(_ e: ReviewEvent) -> Bool {
        if case .undo = e.action { return true }
        return false
    }

    /// The state the remaining events give a card, or nil when it has no events or they leave it
    /// without a scheduling line.
    ///
    /// - Parameters:
    ///   - card: the card.
    ///   - settings: the settings in force for each event (``SettingsSnapshot`` resolves `cfg=`).
    public func state(of card: CardID, settings: (ReviewEvent) -> SchedulerSettings) -> SchedulingState? {
        var state: SchedulingState?
        for event in events[card] ?? [] {
            state = ReviewTransition.apply(event.action, to: state, at: event.time, card: card,
                                           settings: settings(event), set: event.setState)
        }
        return state
    }

    /// The last `path=` a card's events name, for finding a card that is no longer in the vault.
    public func lastPath(of card: CardID) -> String? {
        events[card]?.reversed().lazy.compactMap { $0.field("path") }.first
    }
}
