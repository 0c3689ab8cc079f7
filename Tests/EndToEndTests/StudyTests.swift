import Foundation
import Testing

/// Studying through the real binary: `quire today`, `quire due` and `quire review --plain`.
@Suite struct StudyTests {
    let now = ["--now", QuireRunner.now]

    @Test func todayAndDueTranscript() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        var transcript = ""
        for args in [["today"], ["today", "--json"], ["due"], ["due", "--json"]] {
            transcript += try q.run(args + now).description + "\n"
        }
        try Golden.check(transcript, "today-due")
    }

    /// A whole plain session: grade, undo, skip, bury, suspend, fail a card, see it come back after
    /// its learning step, quit, and see the results; the log and the notes agree afterwards.
    @Test func plainSessionTranscript() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write(".quire/device", Data("e2eplain\n".utf8))
        let input = ["", "3", "", "u", "", "4", "s", "b", "!", "", "1", "", "3", "", "?", "2", "q", "r"]
            .joined(separator: "\n") + "\n"
        let session = try q.run(["review", "--plain", "--mode", "custom", "--new", "4", "--reviews", "2"] + now, stdin: input)
        #expect(session.status == 0)
        try Golden.check(session.description, "review-plain")
        let log = String(decoding: try q.read(".quire/log/e2eplain.log"), as: UTF8.self)
        let words = log.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: " ")[1]) }
        #expect(words.first == "grade" && words.contains("undo") && words.contains("bury") && words.contains("suspend"))
        // Every grade carries the answer time.
        #expect(log.split(separator: "\n").filter { $0.contains(" grade ") }.allSatisfy { $0.contains(" ms=") })
        #expect(try q.run(["replay", "--check"] + now).status == 0)
    }

    @Test func modesAndLimitsAreValidated() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let bad = try q.run(["review", "--plain", "--mode", "new", "--new", "3"] + now, stdin: "")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--new and --reviews go with --mode custom"))
        let newOnly = try q.run(["review", "--plain", "--mode", "new"] + now, stdin: "q\n")
        // 20 new a day, and one was studied today already.
        #expect(newOnly.stdout.contains("Studying 19 cards (19 new, 0 learning, 0 review)"))
    }
}
