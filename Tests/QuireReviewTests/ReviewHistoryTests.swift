@testable import QuireReview
import Testing
import QuireModel
import QuireScheduling
@testable import QuireTestSupport

@Suite struct ReviewHistoryTests {
    private let a = CardID("aaaaaaaaaaaa")!
    private let b = CardID("bbbbbbbbbbbb")!

    private func grade(_ card: CardID, _ r: Rating, _ t: Timestamp) -> ReviewEvent {
        ReviewEvent(time: t, card: card, action: .grade(r), fields: [("sched", "fsrs")])
    }

    @Test func eventsAreOrderedByTimeAcrossDevicesAndUndoRemovesItsTarget() {
        let events = [
            grade(a, .good, at(22)),                                   // device 1
            ReviewEvent(time: at(22, 10), card: a, action: .undo(of: at(22))),
            grade(a, .easy, at(20)),                                   // device 2, earlier
            grade(b, .again, at(21)),
            ReviewEvent(time: at(23), card: b, action: .undo(of: at(5))),   // nothing at that time
        ]
        let h = ReviewHistory(events)
        #expect(h.events[a]?.map(\.action) == [.grade(.easy)])
        #expect(h.events[b]?.map(\.action) == [.grade(.again)])
        #expect(h.danglingUndos.count == 1)
    }

    @Test func anUndoOnlyReachesBack() {
        // An undo cannot remove an event logged after it.
        let h = ReviewHistory([ReviewEvent(time: at(20), card: a, action: .undo(of: at(21))), grade(a, .good, at(21))])
        #expect(h.events[a]?.count == 1)
        #expect(h.danglingUndos.count == 1)
    }

    @Test func stateFoldsTheTransitionsAndRoundsBetweenSteps() {
        let events = [grade(a, .good, at(1)), grade(a, .good, at(3)), grade(a, .hard, at(9, 13, 7)),
                      ReviewEvent(time: at(9, 14), card: a, action: .suspend), grade(a, .again, at(20))]
        let state = ReviewHistory(events).state(of: a) { _ in SchedulerSettings() }
        var live: SchedulingState?
        let f = FSRSScheduler()
        live = f.next(live, rating: .good, at: at(1), card: a).stored
        live = f.next(live, rating: .good, at: at(3), card: a).stored
        live = f.next(live, rating: .hard, at: at(9, 13, 7), card: a).stored
        live?.suspended = true
        live = f.next(live, rating: .again, at: at(20), card: a).stored
        #expect(state == live)
        #expect(state?.suspended == true && state?.lapses == 1)
    }

    @Test func resetForgetsEarlierEvents() {
        let events = [grade(a, .good, at(1)), ReviewEvent(time: at(2), card: a, action: .reset), grade(a, .easy, at(3))]
        let state = ReviewHistory(events).state(of: a) { _ in SchedulerSettings() }
        #expect(state == FSRSScheduler().next(nil, rating: .easy, at: at(3), card: a).stored)
        #expect(state?.reps == 1)
    }

    @Test func lastPathIsTheNewestNamed() {
        let events = [ReviewEvent(time: at(1), card: a, action: .grade(.good), fields: [("path", "old.md")]),
                      ReviewEvent(time: at(2), card: a, action: .grade(.good), fields: [("path", "new.md")]),
                      ReviewEvent(time: at(3), card: a, action: .suspend)]
        #expect(ReviewHistory(events).lastPath(of: a) == "new.md")
        #expect(ReviewHistory(events).lastPath(of: b) == nil)
    }

    /// A `set` replaces the state (keeping the card's fingerprint); later answers go on from it,
    /// and a reset forgets it like any history.
    @Test func setEventsInReplay() throws {
        let card = try #require(CardID("abcd"))
        var first = SchedulingState()
        first.fingerprint = Fingerprint(hex: "0123456789abcdef")
        first.state = .review
        let given = try #require(ReviewEvent.state(fields: [("state", "review"), ("due", "2026-12-10T00:00:00Z"),
                                                            ("last", "2026-11-20T00:00:00Z"), ("stability", "30"),
                                                            ("difficulty", "4"), ("interval", "20"), ("reps", "9")]))
        let after = try #require(ReviewTransition.apply(.set, to: first, at: at(22), card: card, settings: SchedulerSettings(), set: given))
        #expect(after.fingerprint == first.fingerprint && after.due == given.due && after.stability == 30 && after.reps == 9)
        let events = [
            ReviewEvent(time: at(21), card: card, action: .grade(.again), fields: [("id", "g1")]),
            ReviewEvent(time: at(22), card: card, action: .set, fields: given.fields.filter { $0.key != "fp" }),
            ReviewEvent(time: at(23), card: card, action: .grade(.good), fields: [("id", "g2")]),
        ]
        let replayed = try #require(ReviewHistory(events).state(of: card) { _ in SchedulerSettings() })
        // A review-state card with 30 days of stability answered Good: review again, one more rep, a longer interval.
        #expect(replayed.state == .review && replayed.reps == 10 && (replayed.interval ?? 0) > 20)
        let reset = ReviewHistory(events + [ReviewEvent(time: at(24), card: card, action: .reset)])
        #expect(reset.state(of: card) { _ in SchedulerSettings() } == nil)
    }
}
