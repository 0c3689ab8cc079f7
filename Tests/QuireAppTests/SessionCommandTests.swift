import Testing
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
@testable import QuireApp
@testable import QuireTestSupport

/// The session's other commands as every front end asks and says them, on a real vault.
@Suite struct SessionCommandTests {
    @Test func keysAndNamesMeanOneCommand() {
        #expect(SessionCommand.allCases.map(\.key) == ["s", "b", "!", "p", "P"])
        for command in SessionCommand.allCases {
            #expect(SessionCommand(key: command.key) == command && SessionCommand(rawValue: command.rawValue) == command)
        }
        #expect(SessionCommand(key: "u") == nil && SessionCommand(key: "q") == nil && SessionCommand(rawValue: "undo") == nil)
    }

    @Test func eachCommandIsDoneAndSaidOnce() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var (controller, entry) = try GradeNoticeTests.controller(g)
            // A skip records nothing; the card comes back at the end.
            let skipped = try controller.perform(.skip, on: entry, clock: StudyClock(fixed: at(22, 10)))
            #expect(skipped == ActionNotice(command: .skip, done: true, phrase: "skipped", message: "Skipped: the card comes back at the end."))
            #expect(try g.logLines().isEmpty)
            // A bury is recorded until the session's day ends, and said with that time in the plain review.
            let upNext = controller.next(at: at(22, 10))
            let next = try #require(upNext)
            let buried = try controller.perform(.bury, on: next, clock: StudyClock(fixed: at(22, 11)))
            #expect(buried.done && buried.phrase == "buried until \(at(23))" && buried.message == "Buried until tomorrow.")
            #expect(try g.logLines().count == 1 && (try g.logLines().first?.contains("bury") ?? false))
            // Promote and demote are StudyFlow's: refused for an FSRS card, nothing recorded.
            let refused = try controller.perform(.promote, on: entry, clock: StudyClock(fixed: at(22, 12)))
            #expect(!refused.done && refused.phrase == "p and P promote and demote StudyFlow cards; this card's scheduler is fsrs")
            #expect(refused.message == refused.phrase + ".")
            #expect(try g.logLines().count == 1)
            // A suspension, then undo takes it back.
            let suspended = try controller.perform(.suspend, on: entry, clock: StudyClock(fixed: at(22, 13)))
            #expect(suspended.done && suspended.phrase == "suspended" && suspended.message == "Suspended: 'quire unsuspend' brings it back.")
            #expect(try controller.undoLast(clock: StudyClock(fixed: at(22, 14))).message == "Undid the suspension of \(entry.card).")
        }
    }
}
