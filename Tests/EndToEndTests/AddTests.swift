import Foundation
import Testing

/// `quire add` through the real binary: a card captured in seconds, in the vault's syntax, into
/// the note chosen; refused with nothing written when it would not read back cleanly.
@Suite struct AddTests {
    @Test func cardsFromTheCommandLine() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let basic = try q.run(["add", "What is ATP?", "The cell's energy currency"])
        #expect(basic.status == 0 && basic.stdout.hasPrefix("added ") && basic.stdout.contains("(basic) to Inbox.md:1"), "\(basic)")
        #expect(String(decoding: try q.read("Inbox.md"), as: UTF8.self) == "What is ATP? :: The cell's energy currency\n")
        let cloze = try q.run(["add", "--cloze", "The {{c1::sun}} is a {{c2::star}}", "--deck", "Astronomy"])
        #expect(cloze.stdout.split(separator: "\n").count == 2, "two cards: \(cloze)")
        let reversed = try q.run(["add", "--reversed", "perro", "dog", "--note", "Languages/Spanish/Vocabulary/la-casa.md"])
        #expect(reversed.status == 0, "\(reversed)")
        let casa = String(decoding: try q.read("Languages/Spanish/Vocabulary/la-casa.md"), as: UTF8.self)
        #expect(casa.hasSuffix("\n\nperro ::: dog\n"))
        // Every added card is in the index, and the note's other cards are as they were.
        let listed = try q.run(["list", "--now", QuireRunner.now, "path:Inbox.md or path:Astronomy/** or perro"])
        #expect(listed.stdout.split(separator: "\n").count >= 5, "\(listed)")
        #expect(try q.run(["check", "--now", QuireRunner.now]).status == 0)
    }

    @Test func aNoteKeepsItsLineEndingsAndADryRunWritesNothing() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("w.md", Data("x\r\ny\r\n".utf8))
        let dry = try q.run(["add", "Why?", "Because.", "--note", "w.md", "--dry-run"])
        #expect(dry.stdout.contains("+Why? :: Because."), "\(dry)")
        #expect(try q.read("w.md") == Data("x\r\ny\r\n".utf8))
        #expect(try q.run(["add", "Why?", "Because.", "--note", "w.md"]).status == 0)
        #expect(try q.read("w.md") == Data("x\r\ny\r\n\r\nWhy? :: Because.\r\n".utf8))
    }

    @Test func refusedWithNothingWritten() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        // A card the writer cannot put in any syntax (an empty side), a path outside the vault, a cloze without deletions.
        for args in [["add", "Question?", " "], ["add", "Q?", "A", "--note", "../outside.md"], ["add", "--cloze", "no deletion here"],
                     ["add", "Q?", "A", "--note", "notes.txt"]] {
            let r = try q.run(args)
            #expect(r.status != 0 && r.stderr.contains("error"), "\(args): \(r)")
        }
        #expect(!FileManager.default.fileExists(atPath: q.vault.appendingPathComponent("Inbox.md").path))
        #expect(!FileManager.default.fileExists(atPath: q.vault.deletingLastPathComponent().appendingPathComponent("outside.md").path))
        // A note whose last card's answer ends with ':' would take the added card into its answer.
        try q.write("colon.md", Data("Q: Name them.\nA: In order:\n".utf8))
        let joined = try q.run(["add", "Next?", "Yes", "--note", "colon.md"])
        let colon = String(decoding: try q.read("colon.md"), as: UTF8.self)
        #expect(joined.status != 0 || colon.contains("Next? :: Yes"), "\(joined)")
    }

    @Test func aCardWrittenInTheEditor() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let script = q.vault.deletingLastPathComponent().appendingPathComponent("editor.sh")
        try Data("#!/bin/sh\nprintf 'Term :: its definition\\n' > \"$1\"\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        let added = try q.run(["add", "--note", "Edited.md"], environment: ["VISUAL": script.path])
        #expect(added.status == 0 && added.stdout.contains("(definition) to Edited.md:1"), "\(added)")
        // Left as it was: nothing added.
        let untouched = try q.run(["add"], environment: ["VISUAL": "true"])
        #expect(untouched.status == 0 && untouched.stdout.contains("Nothing added."), "\(untouched)")
        #expect(!FileManager.default.fileExists(atPath: q.vault.appendingPathComponent("Inbox.md").path))
    }
}
