@testable import QuireStudy
import Testing
import QuireModel
import QuireScheduling
@testable import QuireTestSupport

@Suite struct StudySessionTests {
    private func entry(_ id: String, _ section: StudyPlan.Section) -> StudySession.Entry {
        StudySession.Entry(card: CardID(id)!, path: "n.md", section: section)
    }

    @Test func newCardsAreSpreadAmongTheDueOnes() {
        let due = (1...6).map { entry("d\($0)", .reviewing) }
        let new = (1...2).map { entry("n\($0)", .new) }
        let order = StudySession.order(new + due + [entry("l1", .learning)])
        #expect(order.map(\.card.rawValue) == ["l1", "d1", "d2", "n1", "d3", "d4", "d5", "n2", "d6"])
    }

    @Test func failedCardsComeBackAfterTheirStepInTheSameSession() {
        let end = at(23, 4)
        var s = StudySession(entries: [entry("a1", .new), entry("b1", .reviewing)], dayEnd: end)
        let first = s.next(at: at(22, 12))
        #expect(first?.card.rawValue == "a1")
        var learning = SchedulingState()
        learning.state = .learning
        learning.due = at(22, 12, 1)
        s.answer(first!, rating: .again, state: learning, at: at(22, 12), milliseconds: 3000)
        #expect(s.remaining == (0, 1, 1))
        #expect(s.next(at: at(22, 12))?.card.rawValue == "b1")
        var review = SchedulingState()
        review.state = .review
        review.due = at(25)
        s.answer(entry("b1", .reviewing), rating: .good, state: review, at: at(22, 12), milliseconds: 5000)
        // Nothing else left: the learning step is shown early (within 20 minutes).
        #expect(s.next(at: at(22, 12))?.card.rawValue == "a1")
        s.answer(entry("a1", .learning), rating: .good, state: review, at: at(22, 12, 1), milliseconds: 2000)
        #expect(s.next(at: at(22, 12, 2)) == nil)
        let r = s.results
        #expect(r.cardsStudied == 2 && r.answers == 3 && r.correct == 2)
        #expect(r.failed.map(\.rawValue) == ["a1"])
        #expect(r.level == .good)   // 67 %
        #expect(r.milliseconds == 10_000)
    }

    @Test func stepsDueAfterTheDayEndsWaitForAnotherSession() {
        var s = StudySession(entries: [entry("a1", .reviewing)], dayEnd: at(23, 4))
        var relearning = SchedulingState()
        relearning.state = .relearning
        relearning.due = at(23, 5)
        s.answer(entry("a1", .reviewing), rating: .again, state: relearning, at: at(22, 12), milliseconds: 1)
        #expect(s.leftCount == 0)
    }

    @Test func undoSkipAndRemove() {
        var s = StudySession(entries: [entry("a1", .new), entry("b1", .new), entry("c1", .new)], dayEnd: at(23, 4))
        s.skip(entry("a1", .new))
        #expect(s.next(at: at(22))?.card.rawValue == "b1")
        s.answer(entry("b1", .new), rating: .good, state: nil, at: at(22), milliseconds: 1)
        #expect(s.undo()?.card.rawValue == "b1")
        #expect(s.next(at: at(22))?.card.rawValue == "b1")
        #expect(s.answers.isEmpty)
        s.remove(CardID("c1")!)
        #expect(s.remaining.new == 2)
        #expect(s.removed.map(\.rawValue) == ["c1"])
    }

    @Test(arguments: [(0.95, SessionResults.Level.excellent), (0.9, .excellent), (0.89, .great), (0.75, .great),
                      (0.74, .good), (0.6, .good), (0.59, .needsWork), (0, .needsWork)])
    func levels(_ accuracy: Double, _ level: SessionResults.Level) {
        #expect(SessionResults.Level(accuracy: accuracy) == level)
    }
}
