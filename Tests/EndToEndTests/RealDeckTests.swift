import Foundation
import Testing

/// Real decks that nobody on this project made (Fixtures/RealDecks, MIT): each imports with the card
/// count Anki's own library gives, checks and replays clean, and goes back to Anki and into a
/// fresh vault again with the same cards.
@Suite struct RealDeckTests {
    static let decks = ["french-words.apkg", "uber-go.apkg", "sanskrit.apkg", "japanese-literature.apkg"]

    /// The notes and cards Anki's own library imports from a package into an empty collection.
    static func ankiCounts(_ package: String) throws -> (notes: Int, cards: Int) {
        let script = """
            import os, sys, tempfile
            from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
            col = Collection(os.path.join(tempfile.mkdtemp(), "t.anki2"))
            col.import_anki_package(ImportAnkiPackageRequest(package_path=sys.argv[1], options=ImportAnkiPackageOptions(with_scheduling=True)))
            print(col.note_count(), col.card_count())
            """
        let result = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, package])
        #expect(result.status == 0, "\(result.stderr)")
        let numbers = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        return (numbers.first ?? -1, numbers.dropFirst().first ?? -1)
    }

    /// Every card's kind and sides, sorted.
    static func cards(_ q: QuireRunner, in dir: URL) throws -> [String] {
        let listed = try q.run(["list", "--json"], workingDirectory: dir)
        let all = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return all.map { "\($0["kind"] ?? "") | \($0["front"] ?? "") | \($0["back"] ?? "")" }.sorted()
    }

    @Test(arguments: decks)
    func importsAsAnkiDoesAndGoesBack(_ deck: String) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let package = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/RealDecks/" + deck).path
        let base = q.vault.deletingLastPathComponent()
        let vault = base.appendingPathComponent("imported"), back = base.appendingPathComponent("back")
        for dir in [vault, back] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            #expect(try q.run(["init"], workingDirectory: dir).status == 0)
        }
        let imported = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(imported.status == 0, "\(imported)")
        let anki = try Self.ankiCounts(package)
        #expect(try q.run(["list", "--count"], workingDirectory: vault).stdout == "\(anki.cards)\n")
        #expect(try q.run(["list", "--notes", "--count"], workingDirectory: vault).stdout == "\(anki.notes)\n")
        let check = try q.run(["check"], workingDirectory: vault)
        #expect(check.status == 0 && (check.stdout + check.stderr).contains(": 0 errors, 0 warnings"), "\(check)")
        let replay = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(replay.status == 0 && (replay.stdout + replay.stderr).contains(", 0 differ"), "\(replay)")
        // A second import adds nothing.
        let again = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(again.stdout.hasPrefix("Imported 0 cards in 0 notes, 0 reviews, 0 media files; \(anki.notes) notes already"), "\(again)")
        // To Anki and back: Anki's library opens the export with every card, and a fresh vault
        // imports the very same cards.
        let exported = base.appendingPathComponent("exported.apkg").path
        #expect(try q.run(["export", "anki", exported], workingDirectory: vault).status == 0)
        #expect(try Self.ankiCounts(exported).cards == anki.cards)
        #expect(try q.run(["import", "anki", exported], workingDirectory: back).status == 0)
        #expect(try Self.cards(q, in: vault) == Self.cards(q, in: back))
    }

    /// A line break in an Anki field (`<br>`) stays one in Quire: the note keeps it as a line,
    /// the card shows it as a line break (not a space, as Markdown's soft breaks would), and the
    /// export gives Anki its `<br>` back.
    @Test func aFieldsLineBreaksShowAsAnkiShowsThem() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let package = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/RealDecks/japanese-literature.apkg").path
        let vault = q.vault.deletingLastPathComponent().appendingPathComponent("imported")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: vault).status == 0)
        #expect(try q.run(["import", "anki", package], workingDirectory: vault).status == 0)
        let id = try q.run(["list", "path:日本語/八級文学知識/古事記*"], workingDirectory: vault).stdout.prefix { $0 != "\t" }
        let shown = try q.run(["show", String(id)], workingDirectory: vault)
        #expect(shown.stdout.contains("Back\n日本現存最古の書籍である。\n年代：712年\n"), "\(shown)")
        let plain = try q.run(["review", "--plain", "path:日本語/八級文学知識/古事記*"], stdin: "\nq\n", workingDirectory: vault)
        #expect(plain.stdout.contains("日本現存最古の書籍である。\n   年代：712年") || plain.stdout.contains("日本現存最古の書籍である。\n    年代：712年"), "\(plain)")
    }
}
