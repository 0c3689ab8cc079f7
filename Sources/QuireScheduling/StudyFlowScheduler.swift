import QuireModel

/// The outcome of a StudyFlow review: the new state, and whether to offer the user a promotion.
public struct StudyFlowResult: Equatable, Sendable {
    /// The card's new state.
    public var state: SchedulingState
    /// True when the card has answered correctly ``StudyFlowScheduler/promotionStreak`` times in a
    /// row and can move up; promotion itself is always the user's choice.
    public var promotionOffered: Bool
}

/// StudyFlow: four states with fixed rhythms, moved between by hand.
///
/// | flow | due after a correct answer |
/// | --- | --- |
/// | `learning` | 1 day |
/// | `reviewing` | 2 or 3 days |
/// | `mastered` | 6 or 7 days |
/// | `inactive` | never |
///
/// - Hard, Good and Easy are correct: `streak` + 1. Again resets `streak` to 0 and brings an active
///   card back after 1 day, whatever its flow; the flow never changes by itself.
/// - Every answer adds one to `attempts` (and `reps`); `last` is the review time; `state` becomes
///   `review` (the card has been seen; StudyFlow does not use learning steps).
/// - After ``promotionStreak`` or more consecutive correct answers on a `learning` or `reviewing`
///   card, ``review(_:rating:at:card:)`` sets ``StudyFlowResult/promotionOffered``.
/// - ``promote(_:at:card:)``, ``demote(_:at:card:)`` and ``deactivate(_:)`` change the flow by hand
///   (log events `promote`, `demote`, `deactivate`; bulk versions apply them to each card a query
///   selects).
///
/// **The 2-or-3 (6-or-7) choice** is deterministic:
///
///     h    = SipHash-2-4(k0 = 0x7175697265666c77 ("quireflw"), k1 = 0,
///                        UTF-8 of "quire-flow-v1" NUL cardID NUL decimal(attempts))
///     days = base + (h & 1)                 // base 2 for reviewing, 6 for mastered
///
/// with `attempts` the count after the review (unchanged by manual moves).
public struct StudyFlowScheduler: Scheduler {
    /// The settings the scheduler was built with.
    public let settings: SchedulerSettings

    /// Consecutive correct answers after which promotion is offered.
    public static let promotionStreak = 5

    /// A scheduler with the given settings (only ``SchedulerSettings/buttons`` is used).
    public init(settings: SchedulerSettings = SchedulerSettings()) {
        self.settings = settings
    }

    /// The days until a card in `flow` is due again; nil for `inactive`.
    public static func intervalDays(for flow: FlowState, card: CardID, attempts: Int) -> Int? {
        switch flow {
        case .learning: 1
        case .reviewing: 2 + coin(card: card, attempts: attempts)
        case .mastered: 6 + coin(card: card, attempts: attempts)
        case .inactive: nil
        }
    }

    /// 0 or 1, from the card and its attempt count (see the type's documentation).
    static func coin(card: CardID, attempts: Int) -> Int {
        Int(deterministicDraw(key: 0x7175_6972_6566_6c77, domain: "quire-flow-v1", card: card, count: attempts) & 1)
    }

    /// Whether a card in this state is offered promotion.
    public static func offersPromotion(_ state: SchedulingState) -> Bool {
        let flow = state.flow ?? .learning
        return (flow == .learning || flow == .reviewing) && (state.streak ?? 0) >= promotionStreak
    }

    /// The state after answering `rating` at `now`, and whether promotion is now offered.
    ///
    /// - Parameters:
    ///   - state: the card's state; nil or without `flow` for a card new to StudyFlow (it starts in
    ///     `learning`).
    ///   - rating: Again is wrong; Hard, Good and Easy are right.
    ///   - now: the review time.
    ///   - card: the card's ID, for the 2-or-3-day choice.
    public func review(_ state: SchedulingState?, rating: Rating, at now: Timestamp, card: CardID) -> StudyFlowResult {
        let old = state ?? SchedulingState()
        var new = old
        let flow = old.flow ?? .learning
        new.flow = flow
        new.state = .review
        new.step = nil
        new.reps = old.reps + 1
        new.attempts = (old.attempts ?? 0) + 1
        new.streak = rating == .again ? 0 : (old.streak ?? 0) + 1
        new.lastReview = now
        let days = rating == .again && flow != .inactive
            ? 1 : Self.intervalDays(for: flow, card: card, attempts: new.attempts ?? 0)
        new.due = days.map { now.adding(days: $0) }
        return StudyFlowResult(state: new, promotionOffered: Self.offersPromotion(new))
    }

    /// The state after answering `rating` at `now` (``review(_:rating:at:card:)`` without the offer).
    public func next(_ state: SchedulingState?, rating: Rating, at now: Timestamp, card: CardID) -> SchedulingState {
        review(state, rating: rating, at: now, card: card).state
    }

    /// Moves the card up by hand: learning → reviewing → mastered (mastered stays); an inactive card
    /// becomes active again in `learning`. The streak restarts and the card is due after the new
    /// flow's interval from `now`.
    public func promote(_ state: SchedulingState?, at now: Timestamp, card: CardID) -> SchedulingState {
        let flow: FlowState = switch state?.flow ?? .learning {
        case .learning: .reviewing
        case .reviewing, .mastered: .mastered
        case .inactive: .learning
        }
        return move(state, to: flow, at: now, card: card)
    }

    /// Moves the card down by hand: mastered → reviewing → learning (learning stays); an inactive
    /// card stays inactive (use ``promote(_:at:card:)`` to bring it back). The streak restarts and
    /// the card is due after the new flow's interval from `now`.
    public func demote(_ state: SchedulingState?, at now: Timestamp, card: CardID) -> SchedulingState {
        let flow: FlowState = switch state?.flow ?? .learning {
        case .mastered: .reviewing
        case .reviewing, .learning: .learning
        case .inactive: .inactive
        }
        return move(state, to: flow, at: now, card: card)
    }

    /// Makes the card inactive: never due, its counts kept.
    public func deactivate(_ state: SchedulingState?) -> SchedulingState {
        var new = state ?? SchedulingState()
        new.flow = .inactive
        new.due = nil
        return new
    }

    private func move(_ state: SchedulingState?, to flow: FlowState, at now: Timestamp, card: CardID) -> SchedulingState {
        var new = state ?? SchedulingState()
        if new.flow == flow, flow == .inactive { return new }
        new.flow = flow
        new.streak = 0
        new.due = Self.intervalDays(for: flow, card: card, attempts: new.attempts ?? 0).map { now.adding(days: $0) }
        return new
    }
}
