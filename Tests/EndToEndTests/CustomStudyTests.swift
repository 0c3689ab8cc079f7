import Foundation
import Testing

/// Studying beyond today's plan through the real binary (`quire review --plain`): a session the
/// daily limits left empty says why and how to study more; custom counts go past the limits; and
/// Anki's custom study: cards due ahead, failed today, forgotten lately, crammed.
@Suite struct CustomStudyTests {
    let now = ["--now", QuireRunner.now]

    /// The sample vault with a note of three new cards and a new-card limit of 2 a day.
    private func vault() throws -> QuireRunner {
        let q = try QuireRunner()
        // Without the sample's review history: today's counts are this test's alone.
        try FileManager.default.removeItem(at: q.vault.appendingPathComponent(".quire/log"))
        try q.write(".quire/device", Data("custom\n".utf8))
        try q.write("Custom/c.md", Data("One :: 1\n\nTwo :: 2\n\nThree :: 3\n".utf8))
        let config = String(decoding: try q.read(".quire/config.yaml"), as: UTF8.self)
        try q.write(".quire/config.yaml", Data((config + "new_per_day: 2\n").utf8))
        return q
    }

    private func grades(_ q: QuireRunner) throws -> Int {
        let log = (try? q.read(".quire/log/custom.log")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return log.split(separator: "\n").filter { $0.contains(" grade ") }.count
    }

    @Test func aSessionTheLimitsEmptiedSaysWhyAndHowToStudyMore() throws {
        let q = try vault()
        defer { q.cleanUp() }
        // Two new cards today (the limit), each answered Easy so they are not due again today.
        let first = try q.run(["review", "--plain", "path:Custom/c.md"] + now, stdin: "4\n4\nq\n")
        #expect(first.stdout.contains("Studying 2 cards"), "\(first)")
        let empty = try q.run(["review", "--plain", "path:Custom/c.md"] + now, stdin: "")
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("Nothing to study now."), "\(empty)")
        #expect(empty.stdout.contains("1 new card waits beyond today's new-card limit (new_per_day: 2; 2 studied today)"), "\(empty)")
        #expect(empty.stdout.contains("--mode custom --new N"))
        // Custom counts go past the limit.
        let more = try q.run(["review", "--plain", "--mode", "custom", "--new", "5", "path:Custom/c.md"] + now, stdin: "4\nq\n")
        #expect(more.stdout.contains("Studying 1 card"), "\(more)")
        #expect(try grades(q) == 3)
    }

    @Test func aheadFailedTodayAndForgotten() throws {
        let q = try vault()
        defer { q.cleanUp() }
        // One: Easy (due in days). Two: Again (in a learning step).
        _ = try q.run(["review", "--plain", "--mode", "custom", "--new", "2", "path:Custom/c.md"] + now,
                      stdin: "4\n1\nq\n")
        let ahead = try q.run(["review", "--plain", "--ahead", "30", "path:Custom/c.md"] + now, stdin: "q\n")
        #expect(ahead.stdout.contains("Studying 1 card"), "\(ahead)")
        #expect(ahead.stdout.contains("Q: One"))
        let aheadShort = try q.run(["review", "--plain", "--ahead", "1", "path:Custom/c.md"] + now, stdin: "q\n")
        #expect(aheadShort.stdout.contains("Nothing to study: no card is due in the next day"), "\(aheadShort)")

        let failed = try q.run(["review", "--plain", "--failed-today", "path:Custom/c.md"] + now, stdin: "q\n")
        #expect(failed.stdout.contains("Studying 1 card"), "\(failed)")
        #expect(failed.stdout.contains("Q: Two"))
        let forgotten = try q.run(["review", "--plain", "--forgotten", "7", "path:Custom/c.md"] + now, stdin: "q\n")
        #expect(forgotten.stdout.contains("Q: Two"), "\(forgotten)")
        // The next day, nothing was failed that day; the last week still holds the failure.
        let tomorrow = ["--now", "2026-11-23T12:00:00Z"]
        let none = try q.run(["review", "--plain", "--failed-today", "path:Custom/c.md"] + tomorrow, stdin: "")
        #expect(none.stdout.contains("Nothing to study: no card was answered Again today."), "\(none)")
        #expect(try q.run(["review", "--plain", "--forgotten", "2", "path:Custom/c.md"] + tomorrow, stdin: "q\n").stdout.contains("Q: Two"))
        #expect(try q.run(["review", "--plain", "--forgotten", "7", "--ahead", "3"] + now, stdin: "").status != 0)
    }

    @Test func crammingLeavesTheScheduleAloneUnlessAsked() throws {
        let q = try vault()
        defer { q.cleanUp() }
        let before = try q.read("Custom/c.md")
        let cram = try q.run(["review", "--plain", "--cram", "path:Custom/c.md"] + now, stdin: "3\n3\n1\nb\nq\n")
        #expect(cram.stdout.contains("Studying 3 cards"), "\(cram)")
        #expect(cram.stdout.contains("cramming leaves the cards' schedules alone"))
        // What an answer says: nothing recorded, no learning step, no --failed-today to suggest.
        #expect(cram.stdout.contains("→ again: not recorded (a cram without --reschedule changes no schedule); it comes back in this session"), "\(cram)")
        #expect(!cram.stdout.contains("learning, due") && !cram.stdout.contains("--failed-today"), "\(cram)")
        #expect(try q.read("Custom/c.md") == before)
        #expect(try grades(q) == 0)
        #expect(try q.run(["review", "--plain", "--cram"] + now, stdin: "").status != 0, "--cram needs a query")
        let rescheduled = try q.run(["review", "--plain", "--cram", "--reschedule", "path:Custom/c.md"] + now, stdin: "3\nq\n")
        #expect(rescheduled.status == 0)
        #expect(try grades(q) == 1)
        #expect(try q.read("Custom/c.md") != before)
        #expect(try q.run(["replay", "--check"] + now).status == 0)
    }
}
