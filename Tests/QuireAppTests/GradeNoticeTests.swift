import Testing
import QuireModel
import QuireScheduling
import QuireStudy
@testable import QuireApp
@testable import QuireTestSupport

/// A grade as every front end says it, on a real vault: the clock read once, the new state in
/// words, the leech notice when the grade made a leech; a cram records nothing and says so.
@Suite struct GradeNoticeTests {
    static func controller(_ g: GradingVault, recording: Bool = true) throws -> (ReviewController, StudySession.Entry) {
        let index = g.vault.index(concurrency: 1)
        let note = try #require(index.notes.first)
        let entries = note.cards.map { StudySession.Entry(card: $0.id, path: note.path, section: .new) }
        var controller = ReviewController(writer: try g.writer(), index: index, entries: entries, dayEnd: at(23), recordsAnswers: recording)
        let next = controller.next(at: at(22))
        return (controller, try #require(next))
    }

    @Test func aGradeIsSaidOnceForEveryFrontEnd() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var (controller, entry) = try Self.controller(g)
            let clock = StudyClock(fixed: at(22, 10))
            let notice = try controller.grade(entry, .good, shownAt: at(22, 9, 59), clock: clock)
            #expect(notice.state != nil && notice.leech == nil && notice.promotion == nil)
            #expect(notice.line.hasPrefix("Good: ") && notice.line == "Good: " + notice.answered)
            #expect(try g.logLines().count == 1)
            // The undo says what it took back, once for every front end; then there is nothing.
            let undone = try controller.undoLast(clock: clock)
            #expect(undone.message == "Undid the answer to \(entry.card).")
            #expect(try controller.undoLast(clock: clock).message == "Nothing to undo in this session.")
        }
    }

    @Test func aCramSaysNothingWasRecorded() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var (controller, entry) = try Self.controller(g, recording: false)
            let notice = try controller.grade(entry, .again, shownAt: at(22), clock: StudyClock(fixed: at(22, 10)))
            #expect(notice.line.hasPrefix("Again: not recorded") && notice.line.hasSuffix("it comes back in this session"))
            #expect(try g.logLines().isEmpty)
        }
    }
}
