import Foundation
import Testing

/// `quire generate --llm` against an HTTP server this test runs on loopback: a reply with good and
/// invented cards (only the good kept, the rules filling in), a malformed reply, a slow one and an
/// HTTP error (each the rules' cards alone, with a warning), and a remote endpoint refused.
@Suite(.serialized) struct GenerateModelTests {
    static let good = """
        {"cards": [{"format": "qa", "front": "What does an enzyme speed up?", "back": "A chemical reaction", "sentence": 1},
                   {"format": "definition", "front": "Enzyme", "back": "a protein made in the liver by ribosomes", "sentence": 1}]}
        """

    @Test func modelCardsCheckedAndRulesFillIn() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        let record = q.vault.deletingLastPathComponent().appendingPathComponent("request.json")
        let rules = try q.run(["generate", "Biology/Enzymes.md"]).stdout
        let server = try ChatServer(content: Self.good, record: record)
        defer { server.stop() }
        let r = try q.run(["generate", "Biology/Enzymes.md", "--llm", server.url])
        #expect(r.status == 0 && r.stdout.contains("[qa] What does an enzyme speed up? :: A chemical reaction"), "\(r)")
        #expect(!r.stdout.contains("liver") && r.stdout.contains("[definition] Cofactor :: a non-protein helper molecule"), "\(r)")
        #expect(r.stderr.contains("1 of the model's cards left out (card 2: its answer says what the note does not (liver, ribosomes))"), "\(r)")
        let sent = String(decoding: try Data(contentsOf: record), as: UTF8.self)
        #expect(sent.contains("[1] An enzyme is a protein that speeds up a chemical reaction without being used up.") && sent.contains("\"temperature\":0"), "\(sent)")
        #expect(rules.contains("Cofactor"))
    }

    @Test func failuresFallBackToTheRules() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        let record = q.vault.deletingLastPathComponent().appendingPathComponent("request.json")
        let rules = try q.run(["generate", "Biology/Enzymes.md"]).stdout
        let junk = "Sure! Here are some cards: Q: what? A: that."
        for (mode, server, warning) in [("junk", try ChatServer(content: junk, record: record), "no card of the model's reply holds (the reply is not the JSON asked for)"),
                                        ("error", try ChatServer(content: "", record: record, status: 500), "the language model failed"),
                                        ("slow", try ChatServer(content: Self.good, record: record, delay: 5), "the language model failed")] {
            defer { server.stop() }
            let r = try q.run(["generate", "Biology/Enzymes.md", "--llm", server.url, "--llm-timeout", "2"])
            #expect(r.status == 0 && r.stdout == rules && r.stderr.contains(warning), "\(mode): \(r)")
        }
        let remote = try q.run(["generate", "Biology/Enzymes.md", "--llm", "http://192.0.2.10:8080"])
        #expect(remote.status != 0 && remote.stderr.contains("is not on this machine"), "\(remote)")
    }
}

/// With the search model installed, a proposal saying what a card of the vault says (by meaning,
/// not by text) is left out, and said.
@Suite struct GenerateMeaningTests {
    @Test func nearDuplicatesByMeaningAreLeftOut() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Old.md", Data("# Old\n\nThe pressure of water pushing the cell membrane against the cell wall is called {{c1::turgor pressure}}.\n".utf8))
        try q.write("Water.md", Data(("# Water\n\n**Turgor pressure** is the pressure of water pushing the cell membrane against the cell wall. "
                                      + "**Plasmolysis** is the shrinking of a cell's contents away from its wall when it loses water.\n").utf8))
        let before = try q.run(["generate", "Water.md"])
        #expect(before.stdout.contains("Turgor pressure :: the pressure of water pushing"), "\(before)")
        #expect(try q.run(["model", "install", "--from", try SemanticSearchTests.wheel()]).status == 0)
        #expect(try q.run(["index"]).status == 0)
        let after = try q.run(["generate", "Water.md"])
        #expect(!after.stdout.contains("Turgor pressure ::") && after.stdout.contains("Plasmolysis :: the shrinking"), "\(after)")
        #expect(after.stderr.contains("1 card left out as saying what another card says (by meaning): Turgor pressure :: the pressure of water pushing the cell membrane against the cell wall ≈ Old.md:3"),
                "\(after)")
    }
}
