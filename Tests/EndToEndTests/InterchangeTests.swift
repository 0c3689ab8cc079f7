import Foundation
import Testing

/// `quire import csv` and `quire export csv|json|revlog` through the real binary.
@Suite struct InterchangeTests {
    /// The cards of an export, as Python's csv module reads them: deck, kind, variant, sides,
    /// cloze text and tags (sorted), one line each, sorted — what a round trip must keep.
    static func cards(_ csv: URL) throws -> [String] {
        let script = """
            import csv, json, sys
            rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
            print(json.dumps(sorted([r['Deck'], r['Kind'], r['Variant'], r['Front'], r['Back'], r['Text'],
                                     ' '.join(sorted(r['Tags'].split()))] for r in rows)))
            """
        let result = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, csv.path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func csvRoundTripKeepsEveryCard() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let out = q.vault.deletingLastPathComponent()
        let first = out.appendingPathComponent("all.csv"), second = out.appendingPathComponent("again.csv")
        let exported = try q.run(["export", "csv", first.path, "--now", QuireRunner.now])
        #expect(exported.status == 0 && exported.stdout == "Exported 161 cards to \(first.path).\n", "\(exported)")
        // Into an empty vault, and out again.
        let fresh = out.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: fresh).status == 0)
        let imported = try q.run(["import", "csv", first.path, "--now", QuireRunner.now], workingDirectory: fresh)
        #expect(imported.status == 0 && imported.stdout.hasSuffix("Imported 161 cards in 20 notes.\n"), "\(imported)")
        #expect(imported.stderr.contains("warning: columns State, Due, Interval, Stability, Difficulty, Reps, Lapses, Suspended, Path, Line not imported"))
        #expect(try q.run(["check"], workingDirectory: fresh).status == 0)
        #expect(try q.run(["export", "csv", second.path], workingDirectory: fresh).status == 0)
        let before = try Self.cards(first), after = try Self.cards(second)
        #expect(!before.isEmpty && before == after)
        // Again: every card is a duplicate now (a reversed pair or a cloze group counted once), and
        // nothing is written.
        let again = try q.run(["import", "csv", first.path], workingDirectory: fresh)
        #expect(again.status == 0 && again.stdout.hasSuffix("Imported 0 cards in 0 notes, 123 duplicates skipped.\n"), "\(again.stdout)")
    }

    /// A card whose sides a spreadsheet would run as formulas: the export writes them with a
    /// leading `'` (--raw: as they are), and an import of the export gives the sides back.
    @Test func formulaCellsAreNeutralisedAndRoundTrip() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try q.write("Formulas/f.md", Data("=HYPERLINK(\"http://x.org\",\"click\") :: +cmd|' /C calc'!A0\n\n'=quoted :: - a list item\n".utf8))
        let out = q.vault.deletingLastPathComponent()
        let safe = out.appendingPathComponent("safe.csv"), raw = out.appendingPathComponent("raw.csv")
        #expect(try q.run(["export", "csv", safe.path, "deck:Formulas"]).status == 0)
        #expect(try q.run(["export", "csv", raw.path, "deck:Formulas", "--raw"]).status == 0)
        let safeText = try String(contentsOf: safe, encoding: .utf8), rawText = try String(contentsOf: raw, encoding: .utf8)
        #expect(safeText.contains("\"'=HYPERLINK(\"\"http://x.org\"\",\"\"click\"\")\"") && safeText.contains("'+cmd|"), "\(safeText)")
        #expect(safeText.contains(",''=quoted,'- a list item,"), "\(safeText)")
        #expect(rawText.contains("\"=HYPERLINK(") && rawText.contains(",- a list item,") && !rawText.contains("'+cmd"), "\(rawText)")
        let fresh = out.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: fresh).status == 0)
        #expect(try q.run(["import", "csv", safe.path], workingDirectory: fresh).status == 0)
        let again = out.appendingPathComponent("again.csv")
        #expect(try q.run(["export", "csv", again.path, "--raw"], workingDirectory: fresh).status == 0)
        let sides = try Self.cards(again).joined()
        #expect(sides.contains("=HYPERLINK(") && sides.contains("+cmd|' /C calc'!A0") && sides.contains("'=quoted") && sides.contains("- a list item"), "\(sides)")
        #expect(!sides.contains("''=quoted") && !sides.contains("'+cmd"), "\(sides)")
    }

    /// A `Note,Context` file imported twice: the second import finds every note there and writes
    /// nothing (issue 38: it wrote each note again as `TITLE 2.md`).
    @Test func noteRowsImportedAgainAreNotDuplicated() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("reading.csv")
        try Data("Note,Context\n\"Habits compound\nSmall steps add up.\",Atomic Habits p. 12\n\"Identity\nVote for who you want to be.\",p. 40\n".utf8).write(to: csv)
        let first = try q.run(["import", "csv", csv.path, "--deck", "Quotes"])
        #expect(first.status == 0 && first.stdout.hasSuffix("in 2 notes.\n"), "\(first)")
        let again = try q.run(["import", "csv", csv.path, "--deck", "Quotes"])
        #expect(again.status == 0 && again.stdout.hasSuffix("in 0 notes, 2 duplicates skipped.\n"), "\(again)")
        #expect(again.stderr.contains("same note as Quotes/Habits compound.md:1"), "\(again)")
        let files = try FileManager.default.contentsOfDirectory(atPath: q.vault.appendingPathComponent("Quotes").path).sorted()
        #expect(files == ["Habits compound.md", "Identity.md"], "\(files)")
    }

    /// A deck path deeper than the file system takes (3,000 levels): refused before anything is
    /// written — no note, and not one of the folders it would have needed (issue 38: 2,037 empty
    /// folders were left).
    @Test func aPathTooLongWritesNothing() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("deep.csv")
        let deck = (0..<3_000).map { "d\($0 % 10)" }.joined(separator: "::")
        try Data("Question,Answer,Deck\nShallow?,yes,Fine\nDeep?,yes,\(deck)\n".utf8).write(to: csv)
        func entries() throws -> [String] { try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).filter { !$0.hasPrefix(".quire") }.sorted() }
        let before = try entries()
        let result = try q.run(["import", "csv", csv.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("the path is longer than the file system allows (at most 4095 bytes, 255 a name)"), "\(result.stderr.prefix(600))")
        #expect(try entries() == before)
        #expect(!FileManager.default.fileExists(atPath: q.vault.appendingPathComponent("d0").path))
    }

    /// A file that cannot be read writes nothing; a bad row is reported with its line and the
    /// other rows are imported (exit 1), or with --strict nothing is.
    @Test func aBadRowIsReportedAndTheRestImported() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("bad.csv")
        try Data("Question,Answer\nOne?,1\nTwo?\n\"Three?\",\"never closed\n".utf8).write(to: csv)
        func notes() throws -> [String] { try FileManager.default.subpathsOfDirectory(atPath: q.vault.path).filter { !$0.hasPrefix(".quire") }.sorted() }
        let before = try notes()
        let result = try q.run(["import", "csv", csv.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.csv:4:10: error: a quoted field is never closed"), "\(result)")
        #expect(try notes() == before)
        try Data("Question,Answer\nOne?,1\nTwo?\nThree?,\n".utf8).write(to: csv)
        let strict = try q.run(["import", "csv", csv.path, "--strict"])
        #expect(strict.status == 1 && strict.stderr.contains("bad.csv:3:1: error: this row has 1 field; the columns are 2"), "\(strict)")
        #expect(strict.stderr.contains("nothing imported: 1 error"))
        #expect(try notes() == before)
        let dry = try q.run(["import", "csv", csv.path, "--dry-run"])
        #expect(dry.status == 1)
        #expect(try notes() == before)
        let partial = try q.run(["import", "csv", csv.path])
        #expect(partial.status == 1 && partial.stderr.contains("1 row not imported"), "\(partial)")
        // An empty answer is imported, and said.
        #expect(partial.stderr.contains("bad.csv:4: warning: the answer is empty; imported as it is"), "\(partial)")
        #expect(partial.stdout.hasSuffix("Imported 2 cards in 1 note.\n"), "\(partial)")
        let listed = try q.run(["list", "--count"])
        #expect(listed.status == 0)
        #expect(try notes().count == before.count + 2)
    }

    @Test func dryRunShowsTheNotesAndWritesNothing() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("words.csv")
        try Data("Term;Definition;Tags\nel gato;the cat;animals\n".utf8).write(to: csv)
        let dry = try q.run(["import", "csv", csv.path, "--deck", "Languages::Spanish", "--dry-run", "--now", QuireRunner.now])
        #expect(dry.status == 0)
        #expect(dry.stdout.contains("+++ b/Languages/Spanish/words.md\n") && dry.stdout.contains("+el gato :: the cat\n"), "\(dry)")
        #expect(dry.stdout.hasSuffix("Would import 1 card in 1 note. Nothing written (--dry-run).\n"))
        #expect((try? q.read("Languages/Spanish/words.md")) == nil)
        #expect(try q.run(["import", "csv", csv.path, "--deck", "Languages::Spanish"]).status == 0)
        let listed = try q.run(["list", "path:Languages/Spanish/words.md"])
        #expect(listed.stdout.contains("el gato"), "\(listed)")
    }

    @Test func revlogForTheFSRSOptimizer() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let result = try q.run(["export", "revlog", "-", "--now", QuireRunner.now])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "card_id,review_time,review_rating,review_state,review_duration")
        let rows = lines.dropFirst().map { $0.split(separator: ",").compactMap { Int64($0) } }
        #expect(rows.allSatisfy { $0.count == 5 })
        // Every answer of the log, as `quire stats` counts them.
        let stats = try q.run(["stats", "--json", "--now", QuireRunner.now])
        #expect(stats.stdout.contains("\"reviews\": \(rows.count),"), "\(rows.count) rows")
        #expect(rows.allSatisfy { (1...4).contains($0[2]) && (0...3).contains($0[3]) && $0[4] >= 0 && $0[4] < 3_600_000 })
        // Each card's answers in time order, its first one made on a new card.
        var last: [Int64: Int64] = [:]
        for row in rows {
            if let t = last[row[0]] { #expect(row[1] >= t) } else { #expect(row[3] == 0) }
            last[row[0]] = row[1]
        }
        let chemistry = try q.run(["export", "revlog", "-", "deck:Chemistry"])
        #expect(chemistry.stdout.split(separator: "\n").count < lines.count)
    }

    @Test func exportRefusesToWriteThroughALink() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let dir = q.vault.deletingLastPathComponent()
        let target = dir.appendingPathComponent("target.txt"), link = dir.appendingPathComponent("link.csv")
        try Data("keep\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let result = try q.run(["export", "csv", link.path])
        #expect(result.status != 0 && result.stderr.contains("no export written"), "\(result)")
        #expect(try Data(contentsOf: target) == Data("keep\n".utf8))
        let json = try q.run(["export", "json", "-", "deck:Chemistry"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(parsed?["format"] as? String == "quire-export")
        #expect((parsed?["notes"] as? [[String: Any]])?.isEmpty == false)
    }
}
