import Foundation
import Testing
import QuireTestSupport

/// `quire export anki` through the real binary, proven by Anki's own importer (the `anki` package
/// from PyPI), and a round trip Quire → Anki → Quire.
@Suite(.requires(.anki)) struct AnkiExportTests {
    /// Imports `package` into a fresh collection with Anki's library; returns what Anki then holds.
    static func ankiImport(_ package: String) throws -> [String: Any] {
        let script = """
            import json, os, sys, tempfile, time
            from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
            col = Collection(os.path.join(tempfile.mkdtemp(), "t.anki2"))
            col.import_anki_package(ImportAnkiPackageRequest(package_path=sys.argv[1], options=ImportAnkiPackageOptions(with_scheduling=True)))
            cards = []
            for cid in col.find_cards(""):
                c = col.get_card(cid)
                n = c.note()
                cards.append({"type": c.type, "queue": c.queue, "due": c.due, "ivl": c.ivl, "reps": c.reps, "lapses": c.lapses,
                              "deck": col.decks.name(c.did), "notetype": n.note_type()["type"], "fields": n.fields, "tags": n.tags,
                              "memory": [c.memory_state.stability, c.memory_state.difficulty] if c.memory_state else None,
                              "guid": n.guid, "ord": c.ord, "notetypeName": n.note_type()["name"], "nid": n.id})
            print(json.dumps({"notes": col.note_count(), "cards": cards, "today": col.sched.today,
                              "revlog": col.db.scalar("select count() from revlog"),
                              "media": sorted(os.listdir(col.media.dir())), "now": time.time()}))
            """
        let result = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, package])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    @Test func ankiOpensWhatQuireWrites() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        // An image in a card, to travel as media.
        try q.write("Biology/Cells/cell.png", Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
        try q.write("Biology/Cells/seen.md", Data("What does a cell look like? :: ![a cell](cell.png)\n".utf8))
        let package = q.vault.deletingLastPathComponent().appendingPathComponent("out.apkg").path
        let exported = try q.run(["export", "anki", package])
        #expect(exported.status == 0 && exported.stdout.hasPrefix("Exported 162 cards in 124 notes, 414 reviews, 1 media file"), "\(exported)")
        let listed = try q.run(["list", "--json"])
        let quireCards = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        let anki = try Self.ankiImport(package)
        let cards = try #require(anki["cards"] as? [[String: Any]])
        #expect(anki["notes"] as? Int == 124 && cards.count == 162 && anki["revlog"] as? Int == 414)
        #expect(anki["media"] as? [String] == ["cell.png"])
        // Decks, note types and tags as Quire has them.
        #expect(Set(cards.compactMap { $0["deck"] as? String }) == Set(quireCards.compactMap { ($0["deck"] as? String)?.replacingOccurrences(of: "/", with: "::") }))
        #expect(cards.filter { $0["notetype"] as? Int == 1 }.count == quireCards.filter { $0["kind"] as? String == "cloze" }.count)
        // Fields are HTML, each with its Markdown stashed after it in a comment.
        let seen = try #require(cards.first { ($0["fields"] as? [String])?.first?.hasPrefix("What does a cell look like?<!--quire:") == true })
        #expect((seen["fields"] as? [String])?.last?.hasPrefix("<img src=\"cell.png\" alt=\"a cell\" /><!--quire:") == true)
        // Scheduling: the same FSRS memory, states and suspension; due days as far from today.
        for qc in quireCards {
            // Single cards: their note's GUID is their ID.
            guard ["basic", "definition"].contains(qc["kind"] as? String ?? ""), let id = qc["id"] as? String,
                  let ac = cards.first(where: { $0["guid"] as? String == id }) else { continue }
            if let stability = qc["stability"] as? Double, qc["state"] as? String == "review" {
                let memory = try #require(ac["memory"] as? [Double])
                #expect(abs(memory[0] - stability) < 0.01)
                let due = try #require(ISO8601DateFormatter().date(from: qc["due"] as? String ?? ""))
                let now = Date(timeIntervalSince1970: anki["now"] as? Double ?? 0)
                let days = Int((due.timeIntervalSince1970 / 86_400).rounded(.down)) - Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
                let ankiDays = (ac["due"] as? Int ?? 0) - (anki["today"] as? Int ?? 0)
                #expect(abs(days - ankiDays) <= 1, "\(id): Quire \(days) days, Anki \(ankiDays)")
                #expect(ac["ivl"] as? Int == qc["interval"] as? Int && ac["reps"] as? Int == qc["reps"] as? Int)
            }
        }
        #expect(cards.filter { $0["queue"] as? Int == -1 }.count == quireCards.filter { $0["suspended"] as? Bool == true }.count)
    }

    /// Quire → Anki → Quire keeps every card, its text and its state.
    @Test func roundTripThroughAnki() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let package = base.appendingPathComponent("out.apkg").path
        #expect(try q.run(["export", "anki", package]).status == 0)
        let fresh = base.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: fresh).status == 0)
        let imported = try q.run(["import", "anki", package], workingDirectory: fresh)
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 161 cards in 123 notes, 414 reviews"), "\(imported)")
        let replay = try q.run(["replay", "--check"], workingDirectory: fresh)
        #expect(replay.status == 0 && (replay.stdout + replay.stderr).contains(", 0 differ"), "\(replay)")
        // Every card's kind, text and schedule as before.
        func cards(_ dir: URL?) throws -> [String] {
            let listed = try q.run(["list", "--json"], workingDirectory: dir)
            let all = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            // A review card's due is a day in Anki: its day is compared. A card scheduled by SM-2
            // (an ease, no memory) comes back with a memory state derived from its answers, as
            // from any Anki collection without FSRS: its memory is compared only when it had one.
            return all.map { c in
                let due = (c["due"] as? String).map { c["state"] as? String == "review" ? String($0.prefix(10)) : $0 }
                let sm2 = c["ease"] is Double && c["ease"] as? Double != 2.5
                let memory: [Any?] = sm2 ? ["sm2"] : [c["stability"], c["difficulty"], c["ease"]]
                return ([c["deck"], c["kind"], c["front"], c["back"], c["state"], due, c["reps"], c["lapses"], c["suspended"]] + memory)
                    .map { "\($0 ?? "nil")" }.joined(separator: " | ")
            }.sorted()
        }
        let before = try cards(nil), after = try cards(fresh)
        #expect(before.count == after.count)
        let missing = Set(before).subtracting(after)
        #expect(missing.isEmpty, "\(missing.sorted().prefix(5))")
    }

    /// Cards only the fenced form holds, and math, go to Anki as Anki shows them and come back
    /// identical; notes are dated by their creation; note types keep Quire's names.
    @Test func fencedCardsAndMathRoundTrip() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let base = q.vault.deletingLastPathComponent()
        let vault = base.appendingPathComponent("math")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: vault).status == 0)
        let note = """
            ---
            title: Sets
            created: 2023-05-17T10:20:30Z
            ---

            ```question
            Which set is $\\{x \\mid x > 0\\}$?

            - over $\\mathbb{R}$
            ```
            ```answer
            The positive reals, $a\\,b$ apart:

            $$
            \\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}
            $$

            A: not a marker
            ```

            ```question
            What is shown?
            ```
            ```answer
            ```

            ```cloze
            First {{c1::one}}.

            Then {{c2::two}}, in $\\{1, 2\\}$.
            ```

            Term ending with a question? :: no

            Q: Which two lines?
            A: first line
            second line

            """
        try Data(note.utf8).write(to: vault.appendingPathComponent("Sets.md"))
        #expect(try q.run(["check"], workingDirectory: vault).status == 0)
        let package = base.appendingPathComponent("math.apkg").path
        let exported = try q.run(["export", "anki", package], workingDirectory: vault)
        #expect(exported.status == 0, "\(exported)")
        let anki = try Self.ankiImport(package)
        let cards = try #require(anki["cards"] as? [[String: Any]])
        #expect(cards.count == 6)
        let fields = cards.flatMap { $0["fields"] as? [String] ?? [] }.map { $0.components(separatedBy: "<!--quire:").first ?? "" }
        // A side's line break is Anki's, as the side shows it.
        #expect(fields.contains { $0.hasPrefix("first line<br />") && $0.hasSuffix("second line") }, "\(fields)")
        #expect(fields.contains { $0.contains("\\(\\{x \\mid x &gt; 0\\}\\)") }, "\(fields)")
        #expect(fields.contains { $0.contains("\\(a\\,b\\)") }, "\(fields)")
        #expect(fields.contains { $0.contains("\\[\n\\begin{pmatrix} a &amp; b \\\\ c &amp; d \\end{pmatrix}\n\\]") }, "\(fields)")
        #expect(!fields.joined().contains("$"), "\(fields)")
        // Note IDs are the note's creation time; note types Quire's own names.
        let created = Int(Date(timeIntervalSince1970: 1_684_318_830).timeIntervalSince1970 * 1000)
        #expect(cards.allSatisfy { (($0["nid"] as? Int) ?? 0) - created < 1000 && (($0["nid"] as? Int) ?? 0) >= created }, "\(cards.map { $0["nid"] ?? 0 })")
        #expect(cards.allSatisfy { ($0["notetypeName"] as? String)?.hasPrefix("Quire ") == true && !(($0["notetypeName"] as? String) ?? "").hasSuffix("+") })
        // Back into a fresh vault: the same cards, side for side.
        let fresh = base.appendingPathComponent("again")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: fresh).status == 0)
        let imported = try q.run(["import", "anki", package], workingDirectory: fresh)
        #expect(imported.status == 0, "\(imported)")
        #expect(try q.run(["check"], workingDirectory: fresh).status == 0)
        func sides(_ dir: URL) throws -> [String] {
            let listed = try q.run(["list", "--json"], workingDirectory: dir)
            let all = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            return all.map { "\($0["kind"] ?? "") | \($0["front"] ?? "") | \($0["back"] ?? "")" }.sorted()
        }
        #expect(try sides(vault) == sides(fresh))
    }
}
