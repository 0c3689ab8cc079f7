import Foundation
import QuireModel

/// FSRS-6, computed exactly as py-fsrs 6 (`fsrs` on PyPI) does, plus Anki's interval ordering and a
/// deterministic fuzz.
///
/// - **Memory**: initial stability `w[G−1]` and difficulty `w4 − e^{w5(G−1)} + 1`; retrievability
///   `(1 + F·t/S)^{−w20}` with `F = 0.9^{−1/w20} − 1` and `t` the whole days since the last review
///   (`floor(elapsed / 24 h)`, as py-fsrs's `timedelta.days`); a review less than a day after the
///   last one uses the short-term update `S·e^{w17(G−3+w18)}·S^{−w19}` (at least `S` for a pass);
///   otherwise stability after recall or forgetting; difficulty moves by `−w6(G−3)` with linear
///   damping `(10 − D)/9` and mean reversion `w7` toward `D0(Easy)`, clamped to 1…10; stability is
///   at least 0.001 (and, like py-fsrs, not clamped above).
/// - **Steps**: a new card starts at learning step 0. In (re)learning, Again returns to step 0;
///   Hard repeats the step (on step 0 it waits 1.5 × the only step, or the mean of the first two);
///   Good moves to the next step or graduates after the last; Easy graduates. With no steps, or a
///   step index beyond the list (the steps were shortened), every pass graduates. In review, Again
///   goes to relearning step 0 (or stays in review when there are no relearning steps) and counts
///   a lapse.
/// - **Intervals**: `S/F·(r^{−1/w20} − 1)` rounded half to even, clamped to 1…maximum. With
///   ``SchedulerSettings/intervalOrdering`` (Anki's rule) a review's hard ≥ 1, good ≥ hard + 1 and
///   easy ≥ good + 1, and a graduating Easy is at least one day longer than Good's graduating
///   interval would be; with it off the intervals are py-fsrs's, one button at a time.
/// - **Fuzz**: review intervals are spread with ``IntervalFuzz`` using
///   ``IntervalFuzz/factor(card:reviews:)`` of the card and its new review count.
///
/// A card in review or relearning with no FSRS memory (it was scheduled with SM-2) starts from the
/// memory fsrs-rs's `memory_state_from_sm2` derives from its ease and interval (retention 0.9), or
/// from the initial memory when it has neither.
public struct FSRSScheduler: Scheduler {
    /// Stability and difficulty: FSRS's memory state of a card.
    public struct MemoryState: Equatable, Sendable {
        /// Days until retrievability falls to 90 %.
        public var stability: Double
        /// 1 (easiest) to 10.
        public var difficulty: Double

        /// Wraps the two values.
        public init(stability: Double, difficulty: Double) {
            self.stability = stability
            self.difficulty = difficulty
        }
    }

    /// The settings the scheduler was built with.
    public let settings: SchedulerSettings
    private let w: [Double]
    /// `−w20`.
    private let decay: Double
    /// `0.9^{1/decay} − 1`.
    private let factor: Double
    /// `r^{1/decay} − 1` for the desired retention `r`.
    private let retentionTerm: Double

    /// The smallest stability py-fsrs allows.
    public static let minimumStability = 0.001

    /// A scheduler with the given settings (``SchedulerSettings/kind`` is not consulted).
    public init(settings: SchedulerSettings = SchedulerSettings()) {
        self.settings = settings
        w = settings.parameters.values
        decay = -w[20]
        factor = pow(0.9, 1 / decay) - 1
        retentionTerm = pow(settings.desiredRetention, 1 / decay) - 1
    }

    // MARK: - The memory model

    /// Stability after a card's first review.
    public func initialStability(_ rating: Rating) -> Double {
        max(w[rating.rawValue - 1], Self.minimumStability)
    }

    /// Difficulty after a card's first review, clamped to 1…10 unless `clamp` is false.
    public func initialDifficulty(_ rating: Rating, clamp: Bool = true) -> Double {
        let d = w[4] - exp(w[5] * Double(rating.rawValue - 1)) + 1
        return clamp ? min(max(d, 1), 10) : d
    }

    /// The probability of recall `elapsedDays` whole days after a review that left `stability`.
    public func retrievability(stability: Double, elapsedDays: Int) -> Double {
        pow(1 + factor * Double(max(elapsedDays, 0)) / stability, decay)
    }

    /// Stability after a review on the same day as the previous one.
    public func shortTermStability(_ s: Double, rating: Rating) -> Double {
        var increase = exp(w[17] * (Double(rating.rawValue) - 3 + w[18])) * pow(s, -w[19])
        if rating != .again { increase = max(increase, 1) }
        return max(s * increase, Self.minimumStability)
    }

    /// Difficulty after a review.
    public func nextDifficulty(_ d: Double, rating: Rating) -> Double {
        let target = initialDifficulty(.easy, clamp: false)
        let delta = -(w[6] * Double(rating.rawValue - 3))
        let damped = d + (10 - d) * delta / 9
        return min(max(w[7] * target + (1 - w[7]) * damped, 1), 10)
    }

    /// Stability after a review at least a day after the previous one.
    public func nextStability(_ s: Double, difficulty d: Double, retrievability r: Double, rating: Rating) -> Double {
        let next: Double
        if rating == .again {
            let longTerm = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14])
            let shortTerm = s / exp(w[17] * w[18])
            next = min(longTerm, shortTerm)
        } else {
            let hardPenalty = rating == .hard ? w[15] : 1
            let easyBonus = rating == .easy ? w[16] : 1
            next = s * (1 + exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1)
                * hardPenalty * easyBonus)
        }
        return max(next, Self.minimumStability)
    }

    /// The interval in days for `stability` at the desired retention: rounded half to even (as
    /// Python's `round`), at least 1, at most the maximum interval.
    public func nextInterval(stability: Double) -> Int {
        let raw = (stability / factor) * retentionTerm
        let rounded = raw.rounded(.toNearestOrEven)
        guard rounded < Double(settings.maximumInterval) else { return settings.maximumInterval }
        return max(Int(rounded), 1)
    }

    /// The memory fsrs-rs derives for a card scheduled with SM-2 (`memory_state_from_sm2`).
    public func memoryState(fromEase ease: Double, interval: Int, retention: Double = 0.9) -> MemoryState {
        let s = max(Double(interval), Self.minimumStability) * factor / (pow(retention, 1 / decay) - 1)
        let d = 11 - (ease - 1) / (exp(w[8]) * pow(s, -w[9]) * expm1((1 - retention) * w[10]))
        return MemoryState(stability: s, difficulty: d.isFinite ? min(max(d, 1), 10) : 5)
    }

    /// The card's probability of recall at `now`; nil when it has no FSRS memory yet.
    public func retrievability(of state: SchedulingState, at now: Timestamp) -> Double? {
        guard let s = state.stability, let last = state.lastReview else { return nil }
        return retrievability(stability: s, elapsedDays: Self.elapsedDays(from: last, to: now))
    }

    /// Whole days between two times, rounded down (py-fsrs's `timedelta.days`).
    static func elapsedDays(from last: Timestamp, to now: Timestamp) -> Int {
        let ms = now.milliseconds - last.milliseconds
        let days = ms / millisecondsPerDay
        return Int(ms % millisecondsPerDay < 0 ? days - 1 : days)
    }

    // MARK: - Scheduling

    /// What the memory update needs to know about the card before the review.
    private struct Prior {
        var memory: MemoryState?
        /// Whole days since the last review; nil when there was none.
        var elapsedDays: Int?
    }

    private func prior(_ state: SchedulingState, at now: Timestamp) -> Prior {
        var memory: MemoryState?
        if let s = state.stability, let d = state.difficulty {
            memory = MemoryState(stability: s, difficulty: d)
        } else if state.state == .review || state.state == .relearning, let ease = state.ease,
                  let interval = state.interval, interval > 0 {
            memory = memoryState(fromEase: ease, interval: interval)
        }
        return Prior(memory: memory, elapsedDays: state.lastReview.map { Self.elapsedDays(from: $0, to: now) })
    }

    private func update(_ prior: Prior, _ rating: Rating) -> MemoryState {
        guard let m = prior.memory else {
            return MemoryState(stability: initialStability(rating), difficulty: initialDifficulty(rating))
        }
        let s: Double
        if let days = prior.elapsedDays, days < 1 {
            s = shortTermStability(m.stability, rating: rating)
        } else {
            // py-fsrs: no last review means retrievability 0.
            let r = prior.elapsedDays.map { retrievability(stability: m.stability, elapsedDays: $0) } ?? 0
            s = nextStability(m.stability, difficulty: m.difficulty, retrievability: r, rating: rating)
        }
        return MemoryState(stability: s, difficulty: nextDifficulty(m.difficulty, rating: rating))
    }

    /// The FSRS state after answering `rating` at `now` (see the type's documentation).
    public func next(_ state: SchedulingState?, rating: Rating, at now: Timestamp, card: CardID) -> SchedulingState {
        let old = state ?? SchedulingState()
        let before = prior(old, at: now)
        let memory = update(before, rating)
        var new = old
        new.stability = memory.stability
        new.difficulty = memory.difficulty
        new.lastReview = now
        new.reps = old.reps + 1
        var answer = Answer(new: new, now: now, maximumInterval: settings.maximumInterval,
                            fuzzFactor: settings.fuzz ? IntervalFuzz.factor(card: card, reviews: new.reps) : nil)
        switch old.state {
        case .review where before.memory != nil:
            if rating == .again {
                answer.new.lapses = old.lapses + 1
                if let first = settings.relearningSteps.first {
                    return answer.stay(.relearning, step: 0, delaySeconds: Double(first))
                }
                return answer.graduate(answer.constrain(nextInterval(stability: memory.stability), minimum: 1))
            }
            return reviewed(answer, before: before, memory: memory, rating: rating)

        case .new, .learning, .relearning, .review:
            return stepped(answer, old: old, before: before, memory: memory, rating: rating)
        }
    }

    /// A review card with memory answered hard, good or easy: with ordered intervals, each
    /// button's interval is longer than the one before it.
    private func reviewed(_ answer: Answer, before: Prior, memory: MemoryState, rating: Rating) -> SchedulingState {
        guard settings.intervalOrdering else {
            return answer.graduate(answer.constrain(nextInterval(stability: memory.stability), minimum: 1))
        }
        let hard = answer.constrain(nextInterval(stability: rating == .hard ? memory.stability
                                                 : update(before, .hard).stability), minimum: 1)
        if rating == .hard { return answer.graduate(hard) }
        let good = answer.constrain(nextInterval(stability: rating == .good ? memory.stability
                                                 : update(before, .good).stability), minimum: hard + 1)
        if rating == .good { return answer.graduate(good) }
        return answer.graduate(answer.constrain(nextInterval(stability: memory.stability), minimum: good + 1))
    }

    /// A card in its learning or relearning steps (a new card, or a review card without memory,
    /// relearned from its first review like a new one): the next step, or graduation.
    private func stepped(_ answer: Answer, old: SchedulingState, before: Prior, memory: MemoryState,
                         rating: Rating) -> SchedulingState {
        let relearning = old.state == .relearning
        let steps = relearning ? settings.relearningSteps : settings.learningSteps
        let phase: CardState = relearning ? .relearning : .learning
        let step = old.state == .new || old.state == .review ? 0 : max(old.step ?? 0, 0)
        func graduateFromSteps() -> SchedulingState {
            let days = nextInterval(stability: memory.stability)
            guard rating == .easy, settings.intervalOrdering else { return answer.graduate(answer.constrain(days, minimum: 1)) }
            let good = answer.constrain(nextInterval(stability: update(before, .good).stability), minimum: 1)
            return answer.graduate(answer.constrain(days, minimum: good + 1))
        }
        if steps.isEmpty || (step >= steps.count && rating != .again) { return graduateFromSteps() }
        switch rating {
        case .again:
            return answer.stay(phase, step: 0, delaySeconds: Double(steps[0]))
        case .hard:
            if step == 0 {
                let delay = steps.count == 1 ? Double(steps[0]) * 1.5 : Double(steps[0] + steps[1]) / 2
                return answer.stay(phase, step: 0, delaySeconds: delay)
            }
            return answer.stay(phase, step: step, delaySeconds: Double(steps[step]))
        case .good:
            if step + 1 >= steps.count { return graduateFromSteps() }
            return answer.stay(phase, step: step + 1, delaySeconds: Double(steps[step + 1]))
        case .easy:
            return graduateFromSteps()
        }
    }

    /// One answer's new state being made: the card's new memory and review count, and the
    /// limits and fuzz of its interval.
    private struct Answer {
        /// The state after the answer, before its phase, step, interval and due time are set.
        var new: SchedulingState
        /// When the card was answered.
        let now: Timestamp
        /// The longest interval, in days.
        let maximumInterval: Int
        /// The card's fuzz factor for this review, or nil without fuzz.
        let fuzzFactor: Double?

        /// An interval of `days` fuzzed (when fuzz is on) and kept between `minimum` and the maximum.
        func constrain(_ days: Int, minimum: Int) -> Int {
            if let fuzzFactor {
                return IntervalFuzz.apply(days, factor: fuzzFactor, minimum: minimum, maximum: maximumInterval)
            }
            return min(max(days, minimum), maximumInterval)
        }

        /// The card in review, due in `days` days.
        func graduate(_ days: Int) -> SchedulingState {
            var out = new
            out.state = .review
            out.step = nil
            out.interval = days
            out.due = now.adding(days: days)
            return out
        }

        /// The card in `phase` at `step`, due after `delaySeconds`.
        func stay(_ phase: CardState, step: Int, delaySeconds: Double) -> SchedulingState {
            var out = new
            out.state = phase
            out.step = step
            out.interval = nil
            out.due = now.adding(seconds: delaySeconds)
            return out
        }
    }
}
