import Foundation
import Testing

/// Grading, undo, replay and the card-state commands through the real binary on SampleVault.
@Suite struct GradingTests {
    let now = ["--now", QuireRunner.now]

    @Test func gradeUndoAndReplayTranscript() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write(".quire/device", Data("e2etest1\n".utf8))
        let original = try q.read("Biology/Cells/mitosis.md")
        var transcript = ""
        for args in [
            ["grade", "y7azfa5y104q", "good", "--at", "2026-11-22T12:00:00Z"],
            ["grade", "y7az", "again", "--at", "2026-11-22T12:05:00Z"],
            ["grade", "y7azfa5y104q", "3", "--at", "2026-11-22T12:16:00Z", "--ms", "4200", "--json"],
            ["undo"] + now,
            ["replay", "--check"] + now,
            ["grade", "y7azfa5y104q", "medium"],
            ["grade", "x27m5m9wtd30", "hard", "--at", "2026-11-22T12:00:00Z"],
            ["grade", "nosuchcard", "good"],
        ] {
            transcript += try q.run(args).description + "\n"
        }
        try Golden.check(transcript, "grade-undo-replay")
        let log = String(decoding: try q.read(".quire/log/e2etest1.log"), as: UTF8.self)
        #expect(log.split(separator: "\n").count == 5)  // header, three grades, one undo
        #expect(try q.run(["undo"] + now).status == 0)
        #expect(try q.run(["undo"] + now).status == 0)
        #expect(try q.read("Biology/Cells/mitosis.md") == original)
        let nothing = try q.run(["undo"] + now)
        #expect(nothing.status == 1)
    }

    @Test func cardStateCommandsAndReplayRepair() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write(".quire/device", Data("e2etest2\n".utf8))
        var transcript = ""
        for args in [
            ["suspend", "--dry-run", "deck:Languages/Spanish/Vocabulary"] + now,
            ["suspend", "deck:Languages/Spanish/Vocabulary", "is:new"] + now,
            ["unsuspend", "0nkf8bfmes1z"] + now,
            ["bury", "tag:cells", "is:due"] + now,
            ["reset", "y7azfa5y104q"] + now,
            ["suspend"] + now,
            ["replay", "--check"] + now,
        ] {
            transcript += try q.run(args).description + "\n"
        }
        try Golden.check(transcript, "card-state-commands")
        // A hand edit of a scheduling line is found by check and repaired by replay from the log.
        let path = "Computer-Science/Algorithms/sorting.md"
        let text = String(decoding: try q.read(path), as: UTF8.self)
        try q.write(path, Data(text.replacingOccurrences(of: "reps: 2,", with: "reps: 9,").utf8))
        let check = try q.run(["check"] + now)
        #expect(check.stdout.contains("sorting.md:36:1: warning: card 5nsb9c0xhqxp: scheduling line differs from the review log (reps 9 → 2)"))
        #expect(try q.run(["replay"] + now).status == 0)
        #expect(try q.read(path) == Data(text.utf8))
        #expect(try q.run(["replay", "--check"] + now).status == 0)
    }

    /// The log names the note a card was last graded in; when the note has moved since, or the
    /// card left it, the grade finds the card through the index instead.
    @Test func gradeFindsAMovedNote() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write(".quire/device", Data("e2etest3\n".utf8))
        #expect(try q.run(["grade", "y7azfa5y104q", "good", "--at", "2026-11-22T12:00:00Z"]).status == 0)
        let from = q.vault.appendingPathComponent("Biology/Cells/mitosis.md")
        let to = q.vault.appendingPathComponent("Biology/mitosis-moved.md")
        try FileManager.default.moveItem(at: from, to: to)
        let moved = try q.run(["grade", "y7azfa5y104q", "good", "--at", "2026-11-22T12:20:00Z"])
        #expect(moved.status == 0, "\(moved)")
        let log = String(decoding: try q.read(".quire/log/e2etest3.log"), as: UTF8.self)
        #expect(log.contains("path=Biology/mitosis-moved.md"))
        #expect(try q.run(["replay", "--check", "--now", QuireRunner.now]).status == 0)
    }
}

/// Regression: the "re-matched to its history" note came back on every command after a card's
/// text was edited; `quire replay` (or the card's next grade) now stores the edited text's
/// fingerprint, and the note stops.
@Suite struct EditedCardNoteTests {
    @Test func theNoteStopsOnceTheFingerprintIsStored() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let now = ["--now", QuireRunner.now]
        let path = "Biology/Cells/organelles.md"
        let text = String(decoding: try q.read(path), as: UTF8.self)
        try q.write(path, Data(text.replacingOccurrences(of: "Chloroplast ::", with: "Chloroplasts ::").utf8))
        #expect(try q.run(["check"] + now).stdout.contains("card re-matched to its history 'h9wx0pmjhph4'"))
        #expect(try q.run(["replay", "--check"] + now).status == 0, "the schedule still agrees with the log")
        let replayed = try q.run(["replay"] + now)
        #expect(replayed.stderr.contains("1 edited since (fingerprint updated); rewrote 1 note"), "\(replayed)")
        let check = try q.run(["check"] + now)
        #expect(!check.stdout.contains("re-matched") && check.status == 0, "\(check)")
        #expect(try q.run(["list", "id:h9wx0pmjhph4"] + now).stdout.contains("Chloroplasts"))
        // A second replay has nothing to do.
        let after = try q.read(path)
        let again = try q.run(["replay"] + now)
        #expect(again.stderr.contains("0 differ\n") && !again.stderr.contains("edited since"), "\(again)")
        #expect(try q.read(path) == after)
    }
}
