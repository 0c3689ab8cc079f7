import QuireModel
import QuireScheduling
import Testing

/// Golden transitions of StudyFlow: every branch of grading and of the manual moves.
@Suite struct StudyFlowSchedulerTests {
    static let t0 = Timestamp(year: 2026, month: 11, day: 22, hour: 9)
    static let card = CardID("flowcard") ?? CardID("x")!
    static let flow = StudyFlowScheduler()

    static func state(_ flow: FlowState, streak: Int = 0, attempts: Int = 0) -> SchedulingState {
        var s = SchedulingState()
        s.flow = flow
        s.streak = streak
        s.attempts = attempts
        return s
    }

    static func days(_ s: SchedulingState) -> Int? {
        s.due.map { Int(($0.milliseconds - t0.milliseconds) / 86_400_000) }
    }

    @Test func newCardStartsLearningAndIsDueTomorrow() {
        let r = Self.flow.review(nil, rating: .good, at: Self.t0, card: Self.card)
        #expect(r.state.flow == .learning && r.state.streak == 1 && r.state.attempts == 1)
        #expect(r.state.reps == 1 && r.state.state == .review && r.state.lastReview == Self.t0)
        #expect(Self.days(r.state) == 1 && !r.promotionOffered)
    }

    @Test(arguments: [Rating.hard, .good, .easy])
    func passesExtendTheStreak(_ rating: Rating) {
        let r = Self.flow.review(Self.state(.learning, streak: 2, attempts: 7), rating: rating, at: Self.t0, card: Self.card)
        #expect(r.state.streak == 3 && r.state.attempts == 8)
    }

    @Test(arguments: [FlowState.learning, .reviewing, .mastered])
    func againResetsStreakKeepsFlowAndComesBackTomorrow(_ flow: FlowState) {
        let r = Self.flow.review(Self.state(flow, streak: 9, attempts: 20), rating: .again, at: Self.t0, card: Self.card)
        #expect(r.state.flow == flow && r.state.streak == 0 && r.state.attempts == 21)
        #expect(Self.days(r.state) == 1 && !r.promotionOffered)
    }

    @Test func rhythmsPerFlow() {
        var reviewing = Set<Int>(), mastered = Set<Int>()
        for i in 0..<64 {
            let card = CardID("c\(i)") ?? Self.card
            let a = Self.flow.next(Self.state(.reviewing, attempts: i), rating: .good, at: Self.t0, card: card)
            let b = Self.flow.next(Self.state(.mastered, attempts: i), rating: .good, at: Self.t0, card: card)
            reviewing.insert(Self.days(a) ?? -1)
            mastered.insert(Self.days(b) ?? -1)
            #expect(a == Self.flow.next(Self.state(.reviewing, attempts: i), rating: .good, at: Self.t0, card: card))
        }
        #expect(reviewing == [2, 3])
        #expect(mastered == [6, 7])
        #expect(StudyFlowScheduler.intervalDays(for: .learning, card: Self.card, attempts: 3) == 1)
        #expect(StudyFlowScheduler.intervalDays(for: .inactive, card: Self.card, attempts: 3) == nil)
    }

    @Test func inactiveCardsAreNeverDueEvenWhenGraded() {
        let r = Self.flow.review(Self.state(.inactive, attempts: 2), rating: .good, at: Self.t0, card: Self.card)
        #expect(r.state.flow == .inactive && r.state.due == nil && r.state.attempts == 3)
        let again = Self.flow.review(Self.state(.inactive), rating: .again, at: Self.t0, card: Self.card)
        #expect(again.state.due == nil)
        #expect(!Day.isDue(r.state, now: Self.t0.adding(days: 100), utcOffsetSeconds: 0, rolloverHour: 4))
    }

    @Test func promotionIsOfferedAfterFiveCorrectNeverTaken() {
        var state: SchedulingState?
        var offers: [Bool] = []
        var t = Self.t0
        for _ in 0..<7 {
            let r = Self.flow.review(state, rating: .good, at: t, card: Self.card)
            offers.append(r.promotionOffered)
            state = r.state
            t = r.state.due ?? t
        }
        #expect(offers == [false, false, false, false, true, true, true])
        #expect(state?.flow == .learning)  // never automatic
        let mastered = Self.flow.review(Self.state(.mastered, streak: 10), rating: .good, at: Self.t0, card: Self.card)
        #expect(!mastered.promotionOffered)  // nowhere higher to go
        #expect(StudyFlowScheduler.offersPromotion(Self.state(.reviewing, streak: 5)))
    }

    @Test func promoteClimbsTheLadder() {
        let cases: [(FlowState?, FlowState)] = [(nil, .reviewing), (.learning, .reviewing), (.reviewing, .mastered),
                                                (.mastered, .mastered), (.inactive, .learning)]
        for (from, to) in cases {
            let start = from.map { Self.state($0, streak: 6, attempts: 9) }
            let out = Self.flow.promote(start, at: Self.t0, card: Self.card)
            #expect(out.flow == to && out.streak == 0, "\(String(describing: from))")
            #expect(out.attempts == start?.attempts)
            let expected = StudyFlowScheduler.intervalDays(for: to, card: Self.card, attempts: start?.attempts ?? 0)
            #expect(Self.days(out) == expected)
        }
    }

    @Test func demoteStepsDown() {
        let cases: [(FlowState, FlowState)] = [(.mastered, .reviewing), (.reviewing, .learning),
                                               (.learning, .learning), (.inactive, .inactive)]
        for (from, to) in cases {
            let out = Self.flow.demote(Self.state(from, streak: 3), at: Self.t0, card: Self.card)
            #expect(out.flow == to, "\(from)")
            #expect(out.streak == (from == .inactive ? 3 : 0))
            #expect((out.due == nil) == (to == .inactive))
        }
    }

    @Test func deactivateKeepsCounts() {
        var s = Self.state(.mastered, streak: 4, attempts: 12)
        s.due = Self.t0
        let out = Self.flow.deactivate(s)
        #expect(out.flow == .inactive && out.due == nil && out.streak == 4 && out.attempts == 12)
    }
}
