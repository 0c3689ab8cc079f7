import Foundation
import Testing

/// `quire generate`: proposals shown and nothing written by default, written at the end of their
/// sections with --write (under ## Cards with --place cards; not proposed again), into another
/// note with --to, as JSON, by query.
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
        #expect(dry.stdout.contains("[qa] Why do enzymes work best at one temperature? :: Because heat changes their shape"), "\(dry.stdout)")
        #expect(dry.stdout.contains("[qa] What are the three types of enzyme inhibition? :: Competitive, noncompetitive, and uncompetitive"), "\(dry.stdout)")
        #expect(dry.stdout.contains("[definition] Cofactor :: a non-protein helper molecule"), "\(dry.stdout)")
        #expect(!dry.stdout.contains("\u{1B}[31m"), "\(dry.stdout)")
        #expect(try q.read("Biology/Enzymes.md") == before)
        let json = try q.run(["generate", "Biology/Enzymes.md", "--json", "--formats", "definition"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(parsed.count == 3 && parsed.allSatisfy { $0["format"] as? String == "definition" && $0["line"] is Int && $0["path"] as? String == "Biology/Enzymes.md" },
                "\(json.stdout)")
        // Written at the end of their section (the note has one); the vault reads them as cards;
        // not proposed again.
        let written = try q.run(["generate", "Biology/Enzymes.md", "--write"])
        #expect(written.status == 0 && written.stdout.contains("wrote 5 cards to Biology/Enzymes.md"), "\(written)")
        let text = String(decoding: try q.read("Biology/Enzymes.md"), as: UTF8.self)
        #expect(text.hasPrefix(Self.note + "\n<!-- generated from line 6 (definition, definition.copula) -->\nActive site :: the region")
                && !text.contains("## Cards"), "\(text)")
        #expect(try q.run(["check"]).status == 0)
        let listed = try q.run(["list", "path:Biology/Enzymes.md"])
        #expect(listed.stdout.split(separator: "\n").count == 5, "\(listed)")
        #expect(try q.run(["generate", "Biology/Enzymes.md"]).stdout.contains("No cards to propose."))
    }

    @Test func cardsKeepTheirSectionsOrGoUnderCards() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let note = """
            # Cell biology

            ## Organelles

            The **mitochondrion** is the organelle that produces most of the cell's supply of ATP.

            ## Transport

            **Phagocytosis** is the process by which a cell engulfs large particles.

            """
        try q.write("Cells.md", Data(note.utf8))
        let written = try q.run(["generate", "Cells.md", "--write", "--formats", "definition"])
        #expect(written.status == 0 && written.stdout.contains("wrote 2 cards to Cells.md"), "\(written)")
        let text = String(decoding: try q.read("Cells.md"), as: UTF8.self)
        #expect(text.contains("ATP.\n\n<!-- generated from line 5 (definition, definition.copula) -->\nMitochondrion :: the organelle that "
                              + "produces most of the cell's supply of ATP\n\n## Transport\n"), "\(text)")
        let shown = try q.run(["list", "path:Cells.md", "--json"])
        #expect(shown.stdout.contains("Organelles") && shown.stdout.contains("Transport") && !shown.stdout.contains("\"Cards\""), "\(shown)")
        let other = "# Plants\n\n## Leaves\n\nThe **xylem** is the tissue that carries water from the roots to the leaves.\n\n## Roots\n\nWater.\n"
        try q.write("Plants.md", Data(other.utf8))
        let under = try q.run(["generate", "Plants.md", "--write", "--formats", "definition", "--place", "cards"])
        #expect(under.status == 0 && under.stdout.contains("wrote 1 card to Plants.md"), "\(under)")
        let again = String(decoding: try q.read("Plants.md"), as: UTF8.self)
        #expect(again.hasPrefix(other + "\n## Cards\n\n<!-- generated from line 5 (definition"), "\(again)")
        let bad = try q.run(["generate", "Cells.md", "--place", "cards"])
        #expect(bad.status != 0 && bad.stderr.contains("--place says where --write puts the cards"), "\(bad)")
        #expect(try q.run(["check"]).status == 0)
    }

    @Test func pickKeepsDropsAndEditsEachCard() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(Self.note.utf8))
        // Keep the first, drop the second, edit the third (the editor a script: sed), stop.
        let r = try q.run(["generate", "Biology/Enzymes.md", "--write", "--pick"], stdin: "y\nn\ne\nq\n",
                          environment: ["EDITOR": "sed -i s/heat/HEAT/", "VISUAL": "sed -i s/heat/HEAT/"])
        #expect(r.status == 0 && r.stdout.contains("[1/5] Biology/Enzymes.md:6 definition · Active site ::") && r.stdout.contains("wrote 2 cards"), "\(r)")
        let text = String(decoding: try q.read("Biology/Enzymes.md"), as: UTF8.self)
        #expect(text.contains("Active site :: the region") && !text.contains("Enzyme :: a protein") && text.contains("Because HEAT changes their shape")
                && !text.contains("Cofactor ::"), "\(text)")
        #expect(try q.run(["check"]).status == 0)
        let none = try q.run(["generate", "Biology/Enzymes.md", "--write", "--pick"], stdin: "n\nn\nn\n")
        #expect(none.status == 0 && none.stdout.contains("No card kept; nothing written."), "\(none)")
        let bad = try q.run(["generate", "Biology/Enzymes.md", "--pick"])
        #expect(bad.status != 0 && bad.stderr.contains("--pick chooses what --write or --to writes"), "\(bad)")
    }

    @Test func csvNotesWithGeneratedCards() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("notes.csv")
        try Data(("Note,Context\n\"Enzymes\n\nAn **enzyme** is a protein that speeds up a chemical reaction.\",Biology\n"
                  + "\"Rome\n\nThe **Senate** was the governing council of the Roman Republic.\",History\n").utf8).write(to: csv)
        let r = try q.run(["import", "csv", csv.path, "--generate"])
        #expect(r.status == 0 && r.stdout.contains("wrote notes/Enzymes.md (1 card)") && r.stdout.contains("Imported 2 cards in 2 notes."), "\(r)")
        let text = String(decoding: try q.read("notes/Enzymes.md"), as: UTF8.self)
        #expect(text.contains("reaction.\n\n<!-- generated from line ") && text.contains("Enzyme :: a protein that speeds up a chemical reaction"), "\(text)")
        #expect(try q.run(["check"]).status == 0)
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

/// `quire summarize`, `quire explain` and `quire suggest-tags` on a small vault.
@Suite struct SummarizeExplainSuggestTests {
    @Test func summarizeAndStore() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        let shown = try q.run(["summarize", "Biology/Enzymes.md", "--sentences", "2"])
        #expect(shown.status == 0 && shown.stdout.split(separator: "\n").count == 2 && shown.stdout.hasPrefix("6: "), "\(shown)")
        let json = try q.run(["summarize", "Biology/Enzymes.md", "--json"])
        #expect(json.stdout.contains("\"summary\"") && json.stdout.contains("\"line\""), "\(json)")
        let stored = try q.run(["summarize", "Biology/Enzymes.md", "--write", "--sentences", "1"])
        #expect(stored.status == 0, "\(stored)")
        let text = String(decoding: try q.read("Biology/Enzymes.md"), as: UTF8.self)
        #expect(text.hasPrefix("---\ntitle: Enzymes\nsummary: ") && text.hasSuffix(GenerateTests.note.components(separatedBy: "---\n").last ?? "x"), "\(text)")
        #expect(try q.run(["check"]).status == 0)
    }

    @Test func explainShowsTheSourceOfAGeneratedCard() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        _ = try q.run(["generate", "Biology/Enzymes.md", "--write", "--formats", "definition"])
        let listed = try q.run(["list", "path:Biology/Enzymes.md"])
        let id = String(listed.stdout.split(separator: "\n").first { $0.contains("Cofactor") }?.split(separator: "\t").first ?? "")
        let explained = try q.run(["explain", id])
        #expect(explained.status == 0 && explained.stdout.contains("Q: Cofactor") && explained.stdout.contains("From line 10:")
                && explained.stdout.contains("A **cofactor**, a non-protein helper molecule"), "\(explained)")
        #expect(explained.stdout.contains("Related:"), "\(explained)")
        let missing = try q.run(["explain", "zzzzzzzz"])
        #expect(missing.status != 0 && missing.stderr.contains("no card"), "\(missing)")
    }

    @Test func suggestTagsFromTheVaultsTags() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Biology/Enzymes.md", Data(GenerateTests.note.utf8))
        try q.write("Biology/Other.md", Data("---\ntags: [enzyme, history]\n---\n# Other\n\nText about enzymes.\n".utf8))
        let shown = try q.run(["suggest-tags", "path:Biology/Enzymes.md"])
        #expect(shown.status == 0 && shown.stdout.contains("Biology/Enzymes.md: #enzyme ("), "\(shown)")
        #expect(!shown.stdout.contains("#history"), "\(shown)")
        let before = try q.read("Biology/Enzymes.md")
        let dry = try q.run(["suggest-tags", "path:Biology/Enzymes.md", "--apply", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("+tags: [enzyme]"), "\(dry)")
        #expect(try q.read("Biology/Enzymes.md") == before)
        let applied = try q.run(["suggest-tags", "path:Biology/Enzymes.md", "--apply"])
        #expect(applied.status == 0, "\(applied)")
        #expect(String(decoding: try q.read("Biology/Enzymes.md"), as: UTF8.self).contains("tags:"), "\(applied)")
        #expect(try q.run(["suggest-tags", "path:Biology/Enzymes.md"]).stdout.contains("No tags to propose."))
    }
}
