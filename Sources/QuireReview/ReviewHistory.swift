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
        // A log is written in time order: only several devices' logs, or a clock set back, need the
        // (stable) sort, made on positions rather than on the events.
        var order = Array(all.indices)
        if !zip(all, all.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
            order.sort { all[$0].time != all[$1].time ? all[$0].time < all[$1].time : $0 < $1 }
        }
        // Each card's list, found once per event by a slot number: the lists are made with the
        // room they need, and the undo pass works on them without hashing again.
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
        var lists: [[ReviewEvent]] = counts.map { count in
            var list: [ReviewEvent] = []
            list.reserveCapacity(count)
            return list
        }
        var present = [Bool](repeating: false, count: counts.count)
        for position in order {
            let event = all[position]
            let slot = slots[position]
            if case .undo(let target) = event.action {
                let targetID = event.field("of-id")
                if present[slot],
                   let i = lists[slot].lastIndex(where: { candidate in
                       if let targetID { return candidate.field("id") == targetID }
                       return candidate.time == target && !Self.isUndo(candidate)
                   }) {
                    lists[slot].remove(at: i)
                } else {
                    danglingUndos.append(event)
                }
                continue
            }
            lists[slot].append(event)
            present[slot] = true
        }
        events.reserveCapacity(cards.count)
        for (slot, card) in cards.enumerated() where present[slot] {
            events[card] = lists[slot]
        }
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
                                           settings: settings(event))
        }
        return state
    }

    /// The last `path=` a card's events name, for finding a card that is no longer in the vault.
    public func lastPath(of card: CardID) -> String? {
        events[card]?.reversed().lazy.compactMap { $0.field("path") }.first
    }
}
