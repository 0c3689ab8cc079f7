import Testing
import QuireIndex
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
import QuireStudy
@testable import QuireApp
@testable import QuireTestSupport

/// The rules every front end's session follows, on a real vault: a changed card joins when it is
/// due and selected; the end counts a recorded session's answers into the streak, a cram's not.
@Suite struct SessionRulesTests {
    @Test func aChangedCardJoinsWhenDueAndSelected() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var (controller, entry) = try GradeNoticeTests.controller(g)
            _ = try controller.grade(entry, .again, shownAt: at(22, 9, 59), clock: StudyClock(fixed: at(22, 10)))
            let note = try #require(NoteParser.parse(try dir.read("Biology/organelles.md"), path: "Biology/organelles.md").note)
            let card = try #require(note.cards.first { $0.id == entry.card })
            let due = try #require(card.schedule?.due)
            let later = Timestamp(milliseconds: due.milliseconds + 60_000)
            #expect(SessionRules.joining(card, in: note, now: later, dayEnd: at(23), query: nil) == .learning)
            // Not yet due; not selected by the session's query; archived.
            #expect(SessionRules.joining(card, in: note, now: at(22, 10), dayEnd: at(23), query: nil) == nil || due <= at(22, 10))
            #expect(SessionRules.joining(card, in: note, now: later, dayEnd: at(23), query: try Query(arguments: ["deck:Other"])) == nil)
            var archived = note
            archived.archived = true
            #expect(SessionRules.joining(card, in: archived, now: later, dayEnd: at(23), query: nil) == nil)
        }
    }

    @Test func theEndCountsARecordedSessionIntoTheStreakAndACramNot() throws {
        let today = Day(containing: at(22, 10), utcOffsetSeconds: 0, rolloverHour: 4)
        for recording in [true, false] {
            try withTempDir { dir in
                let g = try GradingVault.make(dir)
                var (controller, entry) = try GradeNoticeTests.controller(g, recording: recording)
                _ = try controller.grade(entry, .good, shownAt: at(22, 9, 59), clock: StudyClock(fixed: at(22, 10)))
                let outcome = SessionRules.outcome(of: controller, stats: StudyStats(history: ReviewHistory([]), calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0)),
                                                   today: today)
                #expect(outcome.results.answers == 1 && outcome.streak.current == (recording ? 1 : 0), "\(recording)")
            }
        }
    }
}
