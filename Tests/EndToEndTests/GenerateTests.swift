import Foundation
import Testing

/// `quire generate`: proposals shown and nothing written by default, written under ## Cards with
/// --write (and then not proposed again), into another note with --to, as JSON, by query.
@Suite struct GenerateTests {
    static let note = """
        ---
        title: Enzymes
        ---
        # Enzymes

        An **enzyme** is a protein that speeds up a chemical reaction without being used up. The **active site** is the \
        region of an enzyme where the substrate binds. Enzymes work best at one temperature because heat changes their shape.

        There are three types of enzyme inhibition: competitive, noncompetitive, and uncompetitive.

        A **cofactor**, a non-protein helper molecule, binds to some enzymes. Escape \u{1B}[31m**red**\u{1B}[0m text is never printed raw here.

        """

    @Test func proposeWriteAndNotAgain() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(Self.note.utf8))
        let before = try q.read("Biology/Enzymes.md")
        let dry = try q.run(["generate", "Biology/Enzymes.md"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout.contains("[definition] Enzyme :: a protein that speeds up a chemical reaction without being used up"), "\(dry.stdout)")
        #expect(dry.stdout.contains("[definition] Active site :: the region of an enzyme where the substrate binds"), "\(dry.stdout)")
        #expect(dry.stdout.contains("[qa] Why is it that enzymes work best at one temperature? :: Because heat changes their shape"), "\(dry.stdout)")
        #expect(dry.stdout.contains("[qa] What are the three types of enzyme inhibition? :: Competitive, noncompetitive, and uncompetitive"), "\(dry.stdout)")
        #expect(dry.stdout.contains("[definition] Cofactor :: a non-protein helper molecule"), "\(dry.stdout)")
        #expect(!dry.stdout.contains("\u{1B}[31m"), "\(dry.stdout)")
        #expect(try q.read("Biology/Enzymes.md") == before)
        let json = try q.run(["generate", "Biology/Enzymes.md", "--json", "--formats", "definition"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(parsed.count == 3 && parsed.allSatisfy { $0["format"] as? String == "definition" && $0["line"] is Int && $0["path"] as? String == "Biology/Enzymes.md" },
                "\(json.stdout)")
        // Written under ## Cards; the vault reads them as cards; not proposed again.
        let written = try q.run(["generate", "Biology/Enzymes.md", "--write"])
        #expect(written.status == 0 && written.stdout.contains("wrote 5 cards to Biology/Enzymes.md"), "\(written)")
        let text = String(decoding: try q.read("Biology/Enzymes.md"), as: UTF8.self)
        #expect(text.hasPrefix(Self.note) && text.contains("\n## Cards\n\n<!-- generated from line 6 (definition, definition.copula) -->\nActive site :: the region"),
                "\(text)")
        #expect(try q.run(["check"]).status == 0)
        let listed = try q.run(["list", "path:Biology/Enzymes.md"])
        #expect(listed.stdout.split(separator: "\n").count == 5, "\(listed)")
        #expect(try q.run(["generate", "Biology/Enzymes.md"]).stdout.contains("No cards to propose."))
    }

    @Test func intoAnotherNoteAndByQuery() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(Self.note.utf8))
        let r = try q.run(["generate", "path:Biology/Enzymes.md", "--to", "Biology/Generated", "--formats", "definition,qa"])
        #expect(r.status == 0 && r.stdout.contains("wrote 5 cards to Biology/Generated.md"), "\(r)")
        let text = String(decoding: try q.read("Biology/Generated.md"), as: UTF8.self)
        #expect(text.contains("# Generated\n") && text.contains("<!-- generated from Biology/Enzymes.md line 6 (definition, definition.copula) -->"), "\(text)")
        #expect(try q.run(["check"]).status == 0)
        let missing = try q.run(["generate", "No/Such.md"])
        #expect(missing.status != 0 && missing.stderr.contains("no note is 'No/Such.md'"), "\(missing)")
        let bad = try q.run(["generate", "Biology/Enzymes.md", "--formats", "essay"])
        #expect(bad.status != 0 && bad.stderr.contains("--formats takes qa, cloze and definition"), "\(bad)")
    }
}
