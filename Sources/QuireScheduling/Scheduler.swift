import QuireModel

/// A pure scheduler: a card's state, a rating and the review time in; the card's new state out.
///
/// No clock, randomness or I/O inside (STYLE.md habit 4): the command reads the clock once and
/// passes the time down; wherever a scheduler needs a "random" choice (FSRS fuzz, StudyFlow's
/// 2-or-3 days) it derives it from the card ID and the review count with SipHash-2-4, so every
/// machine computes the same state and replaying the log reproduces live grading.
///
/// Fields a scheduler does not own (fingerprint, suspension, burial, unknown fields, other
/// schedulers' fields) are carried over unchanged.
public protocol Scheduler: Sendable {
    /// The settings the scheduler was built with.
    var settings: SchedulerSettings { get }

    /// The state after answering `rating` at `now`.
    ///
    /// - Parameters:
    ///   - state: the card's current state; nil (or state `new`) for a card never reviewed.
    ///   - rating: the answer.
    ///   - now: the review time.
    ///   - card: the card's ID, which seeds the deterministic choices.
    /// - Returns: the new state, with `reps`, `last` and `due` updated.
    func next(_ state: SchedulingState?, rating: Rating, at now: Timestamp, card: CardID) -> SchedulingState

    /// Every button's outcome at once, so the UI can show each button's next interval.
    ///
    /// - Returns: one state per rating in ``SchedulerSettings/ratings``; each equals what
    ///   ``next(_:rating:at:card:)`` returns for that rating.
    func preview(_ state: SchedulingState?, at now: Timestamp, card: CardID) -> [Rating: SchedulingState]
}

extension Scheduler {
    /// Every button's outcome, computed with ``next(_:rating:at:card:)``.
    public func preview(_ state: SchedulingState?, at now: Timestamp, card: CardID) -> [Rating: SchedulingState] {
        var out: [Rating: SchedulingState] = [:]
        for rating in settings.ratings { out[rating] = next(state, rating: rating, at: now, card: card) }
        return out
    }
}

/// Milliseconds in one day.
let millisecondsPerDay: Int64 = 86_400_000

extension Timestamp {
    /// This time moved by whole days.
    func adding(days: Int) -> Timestamp {
        Timestamp(milliseconds: milliseconds + Int64(days) * millisecondsPerDay)
    }
}
