import QuireModel
import QuireScheduling

/// How one log event changes a card's scheduling state — the single function both live grading
/// and ``ReviewHistory`` replay use, so the two cannot disagree.
public enum ReviewTransition {
    /// The card's state after `action` at `time`, in its stored form (``SchedulingState/stored``);
    /// nil when the card has no scheduling line any more (a reset card that is neither suspended
    /// nor buried).
    ///
    /// - Parameters:
    ///   - action: the event; `undo` is handled by ``ReviewHistory`` and leaves the state as is.
    ///   - state: the state before, nil for a card never reviewed.
    ///   - time: the event time.
    ///   - card: the card, which seeds the schedulers' deterministic choices.
    ///   - settings: the scheduler settings in force for this event.
    ///   - set: the state a `set` event gives (``ReviewEvent/setState``).
    public static func apply(_ action: ReviewAction, to state: SchedulingState?, at time: Timestamp, card: CardID,
                             settings: SchedulerSettings, set: SchedulingState? = nil) -> SchedulingState? {
        apply(action, to: state, at: time, card: card, settings: settings, scheduler: nil, set: set)
    }

    /// ``apply(_:to:at:card:settings:)`` with the scheduler `settings` make, made once by a caller
    /// that replays many events under the same settings.
    public static func apply(_ action: ReviewAction, to state: SchedulingState?, at time: Timestamp, card: CardID,
                             settings: SchedulerSettings, scheduler: (any Scheduler)?, set: SchedulingState? = nil) -> SchedulingState? {
        var new: SchedulingState?
        switch action {
        case .grade(let rating):
            new = (scheduler ?? settings.makeScheduler()).next(state, rating: rating, at: time, card: card)
        case .undo:
            new = state
        case .suspend:
            new = state ?? SchedulingState()
            new?.suspended = true
        case .unsuspend:
            new = state
            new?.suspended = false
        case .bury(let until):
            new = state ?? SchedulingState()
            new?.buriedUntil = until
        case .reset:
            // History is forgotten; what the user set by hand stays.
            var fresh = SchedulingState()
            fresh.fingerprint = state?.fingerprint
            fresh.suspended = state?.suspended ?? false
            fresh.buriedUntil = state?.buriedUntil
            fresh.unknownFields = state?.unknownFields ?? []
            new = fresh.suspended || fresh.buriedUntil != nil ? fresh : nil
        case .promote:
            new = StudyFlowScheduler(settings: settings).promote(state, at: time, card: card)
        case .demote:
            new = StudyFlowScheduler(settings: settings).demote(state, at: time, card: card)
        case .deactivate:
            new = StudyFlowScheduler(settings: settings).deactivate(state)
        case .set:
            // The state given, for the card as it is: its fingerprint and unknown fields stay. A
            // set without a readable state (refused by the log reader) changes nothing.
            guard var given = set else {
                new = state
                break
            }
            given.fingerprint = state?.fingerprint
            given.unknownFields = state?.unknownFields ?? []
            new = given
        }
        return new?.stored
    }
}
