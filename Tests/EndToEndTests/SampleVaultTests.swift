import Foundation
import Testing

/// The built `quire` on temporary copies of `SampleVault/`, compared with golden transcripts.
@Suite struct SampleVaultTests {
    let now = ["--now", QuireRunner.now]

    @Test func decks() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Golden.check(q.run(["decks"] + now).description, "decks")
        try Golden.check(q.run(["decks", "--json"] + now).description, "decks-json")
    }

    @Test func tags() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Golden.check(q.run(["tags"]).description, "tags")
    }

    @Test func listEveryCard() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Golden.check(q.run(["list"] + now).description, "list")
        try Golden.check(q.run(["list", "--json"] + now).description, "list-json")
    }

    @Test func listNotes() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Golden.check(q.run(["list", "--notes"] + now).description, "list-notes")
        try Golden.check(q.run(["list", "--notes", "--json", "cycle:weekly or cycle:monthly"] + now).description,
                         "list-notes-cycle-json")
    }

    @Test(arguments: [
        ("deck:Biology/Cells", "deck-biology-cells"),
        ("is:due", "is-due"),
        ("is:learning or is:suspended", "learning-or-suspended"),
        ("type:cloze -deck:Biology", "cloze-not-biology"),
        ("tag:exam (type:reversed or type:definition)", "tag-exam-grouped"),
        ("path:**/Spanish/** mesa", "path-glob-word"),
        ("\"ides of march\"", "phrase"),
    ])
    func queries(query: String, golden: String) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Golden.check(q.run(["list", query] + now).description, "query-" + golden)
    }

    @Test func countAgreesWithList() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let all = try q.run(["list"] + now).stdout.split(separator: "\n").count
        let count = try q.run(["list", "--count"] + now).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(count == String(all))
        #expect(all > 140)
        let negated = try q.run(["list", "--count", "-type:basic"] + now).stdout
        let basic = try q.run(["list", "--count", "type:basic"] + now).stdout
        let n = Int(negated.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let b = Int(basic.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(n + b == all)
        let separated = try q.run(["list", "--count"] + now + ["--", "-type:basic"]).stdout
        #expect(separated == negated)
    }

    @Test func showCards() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        // One card of each kind, found through the JSON listing.
        let json = try q.run(["list", "--json"] + now).stdout
        let cards = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        var transcript = ""
        for kind in ["basic", "definition", "reversed", "cloze"] {
            let card = try #require(cards.first { ($0["kind"] as? String) == kind && ($0["reps"] as? Int ?? 0) > 0 }
                                    ?? cards.first { ($0["kind"] as? String) == kind })
            let id = try #require(card["id"] as? String)
            transcript += try q.run(["show", id] + now).description
        }
        try Golden.check(transcript, "show")
        let prefix = try q.run(["show", "zzzz"] + now)
        #expect(prefix.status != 0)
        #expect(prefix.stderr.contains("no card 'zzzz'"))
    }

    @Test func checkIsClean() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let r = try q.run(["check"])
        try Golden.check(r.description, "check")
        #expect(r.status == 0)
    }

    @Test func vaultFoundFromSubfolderAndGlobalOption() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let fromRoot = try q.run(["list", "--count"] + now)
        let fromSub = try q.run(["list", "--count"] + now, workingDirectory: q.vault.appendingPathComponent("Biology/Cells"))
        #expect(fromRoot == fromSub)
        let gitStyle = try q.run(["-C", q.vault.path, "list", "--count"] + now, workingDirectory: URL(fileURLWithPath: "/"))
        #expect(gitStyle == fromRoot)
        let longStyle = try q.run(["list", "--vault", q.vault.path, "--count"] + now, workingDirectory: URL(fileURLWithPath: "/"))
        #expect(longStyle == fromRoot)
    }

    @Test func badQueryIsAnErrorWithColumn() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let r = try q.run(["list", "deck:Bio is:soon"] + now)
        #expect(r.status != 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("query:1:13: error: unknown status 'soon'"))
    }

    @Test func closedPipeExitsQuietly() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(QuireRunner.executable.path)' list --json | head -c 10 > /dev/null; echo ${PIPESTATUS:-0}"]
        process.currentDirectoryURL = q.vault
        let err = Pipe()
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.isEmpty)
    }
}
