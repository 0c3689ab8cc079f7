import QuireModel

/// A validated scheduler configuration: which scheduler, and everything it needs
/// (FORMAT.md §7; `.quire/config.yaml`, overridable per deck prefix).
///
/// Build it once from the configuration with ``init(kind:desiredRetention:learningSteps:relearningSteps:maximumInterval:fuzz:buttons:parameters:dayRolloverHour:intervalOrdering:)``,
/// which checks every value; the schedulers then never fail.
public struct SchedulerSettings: Sendable, Hashable {
    /// Which scheduler decides when cards are due. The raw values are the names used in the
    /// configuration and the log (`sched=`).
    public enum Kind: String, CaseIterable, Sendable {
        /// FSRS-6, the default.
        case fsrs
        /// SM-2 as Quire's users' original app specified it.
        case sm2
        /// StudyFlow's four fixed-rhythm states.
        case flow
    }

    /// The scheduler.
    public var kind: Kind
    /// FSRS: the probability of recall the intervals aim for (default 0.9).
    public private(set) var desiredRetention: Double
    /// FSRS: learning steps in seconds (default 1 minute, 10 minutes); may be empty.
    public private(set) var learningSteps: [Int]
    /// FSRS: relearning steps in seconds (default 10 minutes); may be empty.
    public private(set) var relearningSteps: [Int]
    /// FSRS and SM-2: the longest interval in days (default 36,500).
    public private(set) var maximumInterval: Int
    /// FSRS: whether review intervals are spread with Anki's fuzz (default on).
    public var fuzz: Bool
    /// 3 (Again/Good/Easy) or 4 (Again/Hard/Good/Easy) answer buttons (default 4).
    public private(set) var buttons: Int
    /// FSRS weights (default FSRS-6's).
    public var parameters: FSRSParameters
    /// The local hour at which a new study day begins (default 4), see ``Day``.
    public private(set) var dayRolloverHour: Int
    /// FSRS: enforce Anki's hard < good < easy interval ordering (default on). Off reproduces
    /// py-fsrs's intervals exactly, each button computed on its own.
    public var intervalOrdering: Bool

    /// The defaults: FSRS-6, retention 0.9, steps 1m 10m / 10m, 36,500 days, fuzz on, 4 buttons,
    /// rollover at 4 am, ordering on.
    public init() {
        kind = .fsrs
        desiredRetention = 0.9
        learningSteps = [60, 600]
        relearningSteps = [600]
        maximumInterval = 36_500
        fuzz = true
        buttons = 4
        parameters = .fsrs6Defaults
        dayRolloverHour = 4
        intervalOrdering = true
    }

    /// Validated settings.
    ///
    /// - Parameters:
    ///   - kind: the scheduler.
    ///   - desiredRetention: strictly between 0 and 1.
    ///   - learningSteps: positive durations in seconds; empty for none.
    ///   - relearningSteps: positive durations in seconds; empty for none.
    ///   - maximumInterval: 1…36,500 days.
    ///   - fuzz: spread FSRS review intervals.
    ///   - buttons: 3 or 4.
    ///   - parameters: 17, 19 or 21 FSRS weights (filled to 21, see ``FSRSParameters``).
    ///   - dayRolloverHour: 0…23.
    ///   - intervalOrdering: Anki's hard < good < easy rule for FSRS.
    /// - Throws: ``SchedulingError`` naming the first invalid value.
    public init(kind: Kind = .fsrs, desiredRetention: Double = 0.9, learningSteps: [Int] = [60, 600],
                relearningSteps: [Int] = [600], maximumInterval: Int = 36_500, fuzz: Bool = true,
                buttons: Int = 4, parameters: [Double] = FSRSParameters.fsrs6Defaults.values,
                dayRolloverHour: Int = 4, intervalOrdering: Bool = true) throws(SchedulingError) {
        guard desiredRetention > 0, desiredRetention < 1 else { throw .desiredRetention(desiredRetention) }
        for (i, s) in learningSteps.enumerated() where s <= 0 {
            throw .step(relearning: false, index: i, seconds: s)
        }
        for (i, s) in relearningSteps.enumerated() where s <= 0 {
            throw .step(relearning: true, index: i, seconds: s)
        }
        guard (1...36_500).contains(maximumInterval) else { throw .maximumInterval(maximumInterval) }
        guard buttons == 3 || buttons == 4 else { throw .buttons(buttons) }
        guard (0...23).contains(dayRolloverHour) else { throw .dayRollover(dayRolloverHour) }
        self.kind = kind
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
        self.fuzz = fuzz
        self.buttons = buttons
        self.parameters = try FSRSParameters(parameters)
        self.dayRolloverHour = dayRolloverHour
        self.intervalOrdering = intervalOrdering
    }

    /// The ratings the user can give: Again/Good/Easy with 3 buttons, all four with 4.
    public var ratings: [Rating] { buttons == 3 ? [.again, .good, .easy] : Rating.allCases }

    /// The same settings with arrays of their own: threads that replay at once, each with its own
    /// copy, do not contend for the same reference counts (a shared array's count is written by
    /// every copy and every call that passes the settings).
    public func unshared() -> SchedulerSettings {
        var copy = self
        copy.learningSteps = learningSteps.map { $0 }
        copy.relearningSteps = relearningSteps.map { $0 }
        copy.parameters = parameters.unshared()
        return copy
    }

    /// The scheduler these settings select.
    public func makeScheduler() -> any Scheduler {
        switch kind {
        case .fsrs: FSRSScheduler(settings: self)
        case .sm2: SM2Scheduler(settings: self)
        case .flow: StudyFlowScheduler(settings: self)
        }
    }
}
