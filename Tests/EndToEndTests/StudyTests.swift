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

    /// One definition of "due" (FORMAT.md §7.1), shared by `due`, `decks`, `list is:due` and
    /// `today`: a review card due any time today is due; a learning step only once its time has
    /// come. `today` says how many of them it takes, and when the learning steps still to come
    /// today are due.
    @Test func everyCommandCountsTheSameDueCards() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let vault = q.vault.deletingLastPathComponent().appendingPathComponent("due")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: vault).status == 0)
        let note = """
            ---
            quire:
              r1: {state: review, due: 2026-11-26T18:00:00Z, last: 2026-11-20T12:00:00Z, stability: 6, difficulty: 5, interval: 6, reps: 2, lapses: 0}
              r2: {state: review, due: 2026-11-27T05:00:00Z, last: 2026-11-20T12:00:00Z, stability: 7, difficulty: 5, interval: 7, reps: 2, lapses: 0}
              l1: {state: learning, step: 1, due: 2026-11-26T11:55:00Z, last: 2026-11-26T11:45:00Z, stability: 1, difficulty: 6, reps: 1, lapses: 0}
              l2: {state: learning, step: 1, due: 2026-11-26T12:08:00Z, last: 2026-11-26T11:58:00Z, stability: 1, difficulty: 6, reps: 1, lapses: 0}
            ---

            Later today? :: yes ^r1
            Tomorrow? :: yes ^r2
            Stepped before? :: yes ^l1
            Stepped soon? :: yes ^l2
            New? :: yes

            """
        try Data(note.utf8).write(to: vault.appendingPathComponent("cards.md"))
        let at = ["--now", "2026-11-26T12:00:00Z"], utc = ["TZ": "UTC"]
        #expect(try q.run(["due"] + at, environment: utc, workingDirectory: vault).stdout == "2\n")
        #expect(try q.run(["list", "is:due", "--count"] + at, environment: utc, workingDirectory: vault).stdout == "2\n")
        let decks = try q.run(["decks"] + at, environment: utc, workingDirectory: vault)
        #expect(decks.stdout.contains("Default      1      5    1         2    2          0"), "\(decks.stdout)")
        let today = try q.run(["today"] + at, environment: utc, workingDirectory: vault)
        #expect(today.stdout.hasPrefix("Today, 2026-11-26: 3 cards (2 due, 1 new)"), "\(today)")
        #expect(today.stdout.contains("1 learning card comes back later today, the next in 8m"), "\(today)")
        // The prompt's count reads the cache's due section (the commands above wrote the cache).
        #expect(try q.run(["due", "--prompt"] + at, environment: utc, workingDirectory: vault).stdout == "2\n")
        let later = ["--now", "2026-11-26T12:10:00Z"]
        #expect(try q.run(["due", "--prompt"] + later, environment: utc, workingDirectory: vault).stdout == "3\n")
        #expect(try q.run(["due"] + later, environment: utc, workingDirectory: vault).stdout == "3\n")
    }

    /// `due --prompt`: nothing when none is due, nothing and status 1 outside a vault, no message
    /// about an unreadable file, and a count without a cache (it then writes one).
    @Test func thePromptIsQuiet() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let before = ["--now", "2000-01-01T00:00:00Z"]
        let none = try q.run(["due", "--prompt"] + before)
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty)
        try q.write("broken.md", Data("---\ntitle: [unclosed\n---\nq :: a\n".utf8))
        try? FileManager.default.removeItem(at: q.vault.appendingPathComponent(".quire/cache"))
        let far = ["--now", "2030-01-01T00:00:00Z"]
        let prompt = try q.run(["due", "--prompt"] + far)
        let full = try q.run(["due"] + far)
        #expect(prompt.status == 0 && prompt.stderr.isEmpty && prompt.stdout == full.stdout, "\(prompt) \(full)")
        #expect(FileManager.default.fileExists(atPath: q.vault.appendingPathComponent(".quire/cache/index").path))
        let outside = try q.run(["due", "--prompt"], workingDirectory: FileManager.default.temporaryDirectory)
        #expect(outside.status == 1 && outside.stdout.isEmpty && outside.stderr.isEmpty, "\(outside)")
        #expect(try q.run(["due", "--prompt", "--json"]).status != 0)
    }
}
