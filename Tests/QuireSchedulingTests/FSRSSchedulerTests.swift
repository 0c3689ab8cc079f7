import QuireModel
import QuireScheduling
import Testing

/// Unit tests of FSRS-6 with values from py-fsrs 6.3 (`Scheduler(enable_fuzzing=False)`).
@Suite struct FSRSSchedulerTests {
    static let t0 = Timestamp(year: 2026, month: 11, day: 22, hour: 9)
    static let card = CardID("7k2m9xq4v1ab") ?? CardID("x")!

    static func scheduler(_ configure: (inout SchedulerSettings) -> Void = { _ in }) -> FSRSScheduler {
        var settings = SchedulerSettings()
        settings.fuzz = false
        configure(&settings)
        return FSRSScheduler(settings: settings)
    }

    static func close(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= 1e-9 * max(1, abs(b))
    }

    // MARK: - First reviews and learning steps

    @Test func firstReviewOfEveryRating() {
        let p = Self.scheduler().preview(nil, at: Self.t0, card: Self.card)
        let expected: [(Rating, CardState, Int?, Double, Double, Int64)] = [
            (.again, .learning, 0, 0.212, 6.4133, 60),
            (.hard, .learning, 0, 1.2931, 5.112170705601056, 330),
            (.good, .learning, 1, 2.3065, 2.118103970459016, 600),
            (.easy, .review, nil, 8.2956, 1.0, 8 * 86_400),
        ]
        for (rating, state, step, s, d, seconds) in expected {
            let out = p[rating]
            #expect(out?.state == state, "\(rating)")
            #expect(out?.step == step, "\(rating)")
            #expect(Self.close(out?.stability, s), "\(rating)")
            #expect(Self.close(out?.difficulty, d), "\(rating)")
            #expect(out?.due == Self.t0.adding(seconds: Double(seconds)), "\(rating)")
            #expect(out?.reps == 1 && out?.lastReview == Self.t0)
        }
        #expect(p[.easy]?.interval == 8)
        #expect(p[.good]?.interval == nil)
    }

    @Test func secondAndThirdReviews() throws {
        let s = Self.scheduler()
        let first = s.next(nil, rating: .good, at: Self.t0, card: Self.card)
        let t1 = Self.t0.adding(seconds: 600)
        let p = s.preview(first, at: t1, card: Self.card)
        #expect(Self.close(p[.again]?.stability, 0.7750839828558984))
        #expect(Self.close(p[.again]?.difficulty, 7.394502741279718))
        #expect(p[.again]?.step == 0 && p[.again]?.due == t1.adding(seconds: 60))
        #expect(p[.hard]?.step == 1 && p[.hard]?.due == t1.adding(seconds: 600))
        #expect(Self.close(p[.hard]?.difficulty, 4.752858488532557))
        #expect(p[.good]?.state == .review && p[.good]?.interval == 2)
        #expect(Self.close(p[.easy]?.stability, 3.946054067969477) && p[.easy]?.interval == 4)

        let second = try #require(p[.good])
        let t2 = try #require(second.due)
        let q = s.preview(second, at: t2, card: Self.card)
        #expect(q[.again]?.state == .relearning && q[.again]?.step == 0 && q[.again]?.lapses == 1)
        #expect(Self.close(q[.again]?.stability, 0.6077016626638644))
        #expect(q[.again]?.due == t2.adding(seconds: 600))
        #expect(Self.close(q[.hard]?.stability, 7.517359325415191) && q[.hard]?.interval == 8)
        #expect(Self.close(q[.good]?.stability, 10.971048263078135) && q[.good]?.interval == 11)
        #expect(Self.close(q[.easy]?.stability, 18.534332441919037) && q[.easy]?.interval == 19)
        #expect(q[.good]?.reps == 3 && q[.good]?.lapses == 0)
    }

    @Test func hardOnFirstStepWithOneStepWaitsOneAndAHalfSteps() {
        let s = Self.scheduler { $0 = (try? SchedulerSettings(learningSteps: [600], fuzz: false)) ?? $0 }
        let out = s.next(nil, rating: .hard, at: Self.t0, card: Self.card)
        #expect(out.state == .learning && out.step == 0 && out.due == Self.t0.adding(seconds: 900))
    }

    @Test func noLearningStepsGraduatesEveryRating() {
        let s = Self.scheduler { $0 = (try? SchedulerSettings(learningSteps: [], fuzz: false)) ?? $0 }
        let p = s.preview(nil, at: Self.t0, card: Self.card)
        for rating in Rating.allCases { #expect(p[rating]?.state == .review, "\(rating)") }
        #expect(p[.again]?.interval == 1)
        #expect(p[.good]?.interval == 2)
    }

    @Test func stepBeyondShortenedListGraduatesPassesAndRestartsAgain() {
        var state = SchedulingState()
        state.state = .learning
        state.step = 5
        state.stability = 2.3065
        state.difficulty = 2.118103970459016
        state.lastReview = Self.t0
        let p = Self.scheduler().preview(state, at: Self.t0.adding(seconds: 600), card: Self.card)
        #expect(p[.again]?.state == .learning && p[.again]?.step == 0)
        #expect(p[.hard]?.state == .review && p[.good]?.state == .review)
    }

    @Test func reviewAgainWithoutRelearningStepsStaysInReview() {
        let s = Self.scheduler { $0 = (try? SchedulerSettings(relearningSteps: [], fuzz: false)) ?? $0 }
        var state = SchedulingState()
        state.state = .review
        state.stability = 10
        state.difficulty = 5
        state.lastReview = Self.t0
        let out = s.next(state, rating: .again, at: Self.t0.adding(days: 10), card: Self.card)
        #expect(out.state == .review && out.lapses == 1 && (out.interval ?? 0) >= 1)
    }

    // MARK: - Anki's interval ordering

    static func smallReviewCard() -> SchedulingState {
        var state = SchedulingState()
        state.state = .review
        state.stability = 0.6
        state.difficulty = 9
        state.lastReview = t0.adding(days: -1)
        return state
    }

    @Test func orderingSeparatesEqualIntervals() {
        let plain = Self.scheduler { $0.intervalOrdering = false }.preview(Self.smallReviewCard(), at: Self.t0, card: Self.card)
        #expect([plain[.hard]?.interval, plain[.good]?.interval, plain[.easy]?.interval] == [1, 2, 2])
        let ordered = Self.scheduler().preview(Self.smallReviewCard(), at: Self.t0, card: Self.card)
        #expect([ordered[.hard]?.interval, ordered[.good]?.interval, ordered[.easy]?.interval] == [1, 2, 3])
    }

    @Test func orderingHoldsWithFuzzForManyStates() {
        let s = Self.scheduler { $0.fuzz = true }
        for i in 0..<300 {
            var state = Self.smallReviewCard()
            state.stability = 0.2 * Double(i + 1)
            state.reps = i
            let p = s.preview(state, at: Self.t0.adding(days: i % 40), card: CardID("c\(i)") ?? Self.card)
            let h: Int = p[.hard]?.interval ?? 0
            let g: Int = p[.good]?.interval ?? 0
            let e: Int = p[.easy]?.interval ?? 0
            #expect(h >= 1, "stability \(state.stability ?? 0)")
            #expect(h < g, "stability \(state.stability ?? 0)")
            #expect(g < e, "stability \(state.stability ?? 0)")
        }
    }

    @Test func orderingStopsAtTheMaximumInterval() {
        let s = Self.scheduler { $0 = (try? SchedulerSettings(maximumInterval: 5, fuzz: false)) ?? $0 }
        var state = Self.smallReviewCard()
        state.stability = 100
        let p = s.preview(state, at: Self.t0.adding(days: 100), card: Self.card)
        #expect([p[.hard]?.interval, p[.good]?.interval, p[.easy]?.interval] == [5, 5, 5])
    }

    // MARK: - Fuzz in the scheduler

    @Test func fuzzIsDeterministicAndWithinRange() {
        let fuzzed = Self.scheduler { $0.fuzz = true }
        let plain = Self.scheduler()
        var seen = Set<Int>()
        for i in 0..<200 {
            var state = Self.smallReviewCard()
            state.stability = 30
            state.difficulty = 5
            state.lastReview = Self.t0.adding(days: -30)
            let card = CardID("card\(i)") ?? Self.card
            let a = fuzzed.next(state, rating: .good, at: Self.t0, card: card)
            let b = fuzzed.next(state, rating: .good, at: Self.t0, card: card)
            #expect(a == b)
            let raw = plain.next(state, rating: .good, at: Self.t0, card: card).interval ?? 0
            let days = a.interval ?? 0
            #expect(IntervalFuzz.bounds(for: raw, maximum: 36_500).contains(days))
            #expect(a.due == Self.t0.adding(days: days))
            seen.insert(days)
        }
        #expect(seen.count >= 5)
    }

    @Test func fuzzNeverTouchesLearningSteps() {
        let p = Self.scheduler { $0.fuzz = true }.preview(nil, at: Self.t0, card: Self.card)
        #expect(p[.good]?.due == Self.t0.adding(seconds: 600))
    }

    // MARK: - Parameters, other states, preservation

    @Test func nineteenValueSetIsFilledLikeFSRSRS() throws {
        let p19 = [0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575, 0.1192,
                   1.01925, 1.9395, 0.11, 0.29605, 2.2698, 0.2315, 2.9898, 0.51655, 0.6621]
        let p = try FSRSParameters(p19)
        #expect(p.values == p19 + [0, 0.5] && p.sourceCount == 19)
    }

    @Test func seventeenValueSetIsFilledLikeFSRSRS() throws {
        let p17 = [0.4, 0.6, 2.4, 5.8, 4.93, 0.94, 0.86, 0.01, 1.49, 0.14, 0.94, 2.18, 0.05, 0.34, 1.26, 0.29, 2.61]
        let p = try FSRSParameters(p17)
        // fsrs_rs_python.check_and_fill_parameters (f32): 6.81, 0.44675013, 1.36, …, 0, 0, 0, 0.5
        #expect(abs(p[4] - 6.81) < 1e-12 && abs(p[5] - 0.44675013) < 1e-7 && abs(p[6] - 1.36) < 1e-12)
        #expect(Array(p.values[17...]) == [0, 0, 0, 0.5] && p.sourceCount == 17)
        // FSRS-4.5 had no same-day stability change: a same-day Good leaves stability alone.
        let s = FSRSScheduler(settings: try SchedulerSettings(parameters: p17))
        #expect(s.shortTermStability(3.7, rating: .good) == 3.7)
    }

    @Test func badParameterSetsAreRefused() {
        #expect(throws: SchedulingError.parameterCount(20)) { try FSRSParameters(Array(repeating: 1, count: 20)) }
        var w = FSRSParameters.fsrs6Defaults.values
        w[20] = 0.9
        #expect(throws: SchedulingError.parameterOutOfRange(index: 20, value: 0.9, range: 0.1...0.8)) {
            try FSRSParameters(w)
        }
        w[20] = .nan
        #expect(throws: SchedulingError.parameterNotFinite(index: 20)) { try FSRSParameters(w) }
    }

    @Test func sm2CardStartsFromDerivedMemory() {
        var state = SchedulingState()
        state.state = .review
        state.ease = 2.5
        state.interval = 10
        state.lastReview = Self.t0.adding(days: -10)
        let s = Self.scheduler()
        let memory = s.memoryState(fromEase: 2.5, interval: 10)
        #expect(abs(memory.stability - 10) < 1e-9)  // retention 0.9: stability is the interval
        let out = s.next(state, rating: .good, at: Self.t0, card: Self.card)
        #expect(out.state == .review && (out.stability ?? 0) > 10)
        #expect(out.ease == 2.5)  // SM-2's field is left for SM-2
    }

    @Test func unrelatedFieldsAreKept() {
        var state = SchedulingState()
        state.fingerprint = Fingerprint(bits: 0x3c9e_0f51_aa72_d418)
        state.unknownFields = [("note", "kept")]
        state.suspended = true
        let out = Self.scheduler().next(state, rating: .good, at: Self.t0, card: Self.card)
        #expect(out.fingerprint == state.fingerprint && out.suspended)
        #expect(out.unknownFields.map(\.key) == ["note"])
    }

    @Test func threeButtonPreviewHasNoHard() {
        let s = Self.scheduler { $0 = (try? SchedulerSettings(fuzz: false, buttons: 3)) ?? $0 }
        #expect(Set(s.preview(nil, at: Self.t0, card: Self.card).keys) == [.again, .good, .easy])
    }

    @Test func retrievabilityFollowsTheForgettingCurve() {
        let s = Self.scheduler()
        #expect(abs(s.retrievability(stability: 10, elapsedDays: 10) - 0.9) < 1e-12)
        #expect(s.retrievability(stability: 10, elapsedDays: 0) == 1)
        var state = SchedulingState()
        #expect(s.retrievability(of: state, at: Self.t0) == nil)
        state.stability = 10
        state.lastReview = Self.t0
        #expect(abs((s.retrievability(of: state, at: Self.t0.adding(days: 10)) ?? 0) - 0.9) < 1e-12)
    }
}
