import QuireModel
import QuireScheduling
import Testing

/// Golden transitions of SM-2, one per branch, and the ease bounds.
@Suite struct SM2SchedulerTests {
    static let t0 = Timestamp(year: 2026, month: 11, day: 22, hour: 9)
    static let card = CardID("sm2card") ?? CardID("x")!
    static let sm2 = SM2Scheduler()

    static func reviewed(interval: Int, ease: Double, reps: Int = 3) -> SchedulingState {
        var s = SchedulingState()
        s.state = .review
        s.interval = interval
        s.ease = ease
        s.reps = reps
        s.lastReview = t0.adding(seconds: Double(-interval * 86_400))
        return s
    }

    struct Golden: CustomTestStringConvertible, Sendable {
        var start: (interval: Int, ease: Double)?
        var rating: Rating
        var interval: Int
        var ease: Double
        var state: CardState
        var testDescription: String { "\(start.map { "\($0.interval)d @\($0.ease)" } ?? "new") \(rating)" }
    }

    static let goldens: [Golden] = [
        Golden(start: nil, rating: .good, interval: 1, ease: 2.5, state: .review),
        Golden(start: (1, 2.5), rating: .good, interval: 6, ease: 2.5, state: .review),
        Golden(start: (6, 2.5), rating: .good, interval: 15, ease: 2.5, state: .review),
        Golden(start: (10, 2.3), rating: .good, interval: 23, ease: 2.3, state: .review),  // not 24
        Golden(start: (0, 2.3), rating: .good, interval: 1, ease: 2.3, state: .review),    // after Again
        Golden(start: nil, rating: .easy, interval: 4, ease: 2.65, state: .review),
        Golden(start: (0, 2.1), rating: .easy, interval: 4, ease: 2.25, state: .review),
        Golden(start: (6, 2.5), rating: .easy, interval: 20, ease: 2.65, state: .review),  // ⌈19.5⌉
        Golden(start: (10, 2.95), rating: .easy, interval: 39, ease: 3.0, state: .review), // ⌈38.35⌉, cap
        Golden(start: (10, 3.0), rating: .easy, interval: 39, ease: 3.0, state: .review),
        Golden(start: (6, 2.5), rating: .again, interval: 0, ease: 2.3, state: .relearning),
        Golden(start: (6, 1.4), rating: .again, interval: 0, ease: 1.3, state: .relearning), // floor
        Golden(start: (6, 1.3), rating: .again, interval: 0, ease: 1.3, state: .relearning),
        Golden(start: nil, rating: .again, interval: 0, ease: 2.3, state: .learning),
        Golden(start: nil, rating: .hard, interval: 1, ease: 2.35, state: .review),
        Golden(start: (1, 2.5), rating: .hard, interval: 2, ease: 2.35, state: .review),
        Golden(start: (10, 2.5), rating: .hard, interval: 12, ease: 2.35, state: .review),
        Golden(start: (10, 1.35), rating: .hard, interval: 12, ease: 1.3, state: .review),
    ]

    @Test(arguments: goldens)
    func transition(_ g: Golden) {
        let start = g.start.map { Self.reviewed(interval: $0.interval, ease: $0.ease) }
        let out = Self.sm2.next(start, rating: g.rating, at: Self.t0, card: Self.card)
        #expect(out.interval == g.interval)
        #expect(out.ease == g.ease)
        #expect(out.state == g.state)
        #expect(out.reps == (start?.reps ?? 0) + 1)
        #expect(out.lastReview == Self.t0)
        let due = g.rating == .again ? Self.t0.adding(seconds: 600) : Self.t0.adding(seconds: Double(g.interval * 86_400))
        #expect(out.due == due)
    }

    @Test func lapsesCountOnlyForLearnedCards() {
        let forgotten = Self.sm2.next(Self.reviewed(interval: 6, ease: 2.5), rating: .again, at: Self.t0, card: Self.card)
        #expect(forgotten.lapses == 1)
        let again = Self.sm2.next(forgotten, rating: .again, at: Self.t0.adding(seconds: 600), card: Self.card)
        #expect(again.lapses == 1 && again.ease == 2.1 && again.state == .relearning)
        #expect(Self.sm2.next(nil, rating: .again, at: Self.t0, card: Self.card).lapses == 0)
    }

    @Test func fullSequenceFromNew() {
        var state: SchedulingState?
        var intervals: [Int] = []
        var t = Self.t0
        for rating in [Rating.good, .good, .good, .easy, .again, .good, .good] {
            let next = Self.sm2.next(state, rating: rating, at: t, card: Self.card)
            intervals.append(next.interval ?? -1)
            t = next.due ?? t
            state = next
        }
        // 1, 6, ⌈6×2.5⌉ = 15, ⌈15×2.5×1.3⌉ = 49 (ease → 2.65), 0 (ease → 2.45), 1, 6
        #expect(intervals == [1, 6, 15, 49, 0, 1, 6])
        #expect(state?.ease == 2.45 && state?.reps == 7 && state?.lapses == 1)
    }

    @Test func maximumIntervalCaps() throws {
        let sm2 = SM2Scheduler(settings: try SchedulerSettings(kind: .sm2, maximumInterval: 30))
        let out = sm2.next(Self.reviewed(interval: 25, ease: 2.5), rating: .good, at: Self.t0, card: Self.card)
        #expect(out.interval == 30)
    }

    @Test func previewFollowsButtons() throws {
        let three = SM2Scheduler(settings: try SchedulerSettings(kind: .sm2, buttons: 3))
        #expect(Set(three.preview(nil, at: Self.t0, card: Self.card).keys) == [.again, .good, .easy])
        #expect(Self.sm2.preview(nil, at: Self.t0, card: Self.card).count == 4)
    }

    @Test func easeStaysWithinBoundsOverLongRuns() {
        var state: SchedulingState?
        var t = Self.t0
        for i in 0..<60 {
            let rating: Rating = i < 20 ? .easy : (i < 45 ? .again : .hard)
            state = Self.sm2.next(state, rating: rating, at: t, card: Self.card)
            t = state?.due ?? t
            let ease = state?.ease ?? 0
            #expect(ease >= 1.3 && ease <= 3.0)
        }
        #expect(state?.ease == 1.3)
    }
}
