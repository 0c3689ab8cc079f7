import Foundation
import Testing

/// `quire import anki` through the real binary, on packages Anki's own library made.
@Suite struct AnkiImportEndToEndTests {
    static let script = QuireRunner.repositoryRoot.appendingPathComponent("Tests/QuireInterchangeTests/Tools/anki-package.py")

    /// A fresh, empty vault beside the sample one, with the fixture packages made in `packages`.
    static func setUp(_ q: QuireRunner) throws -> (vault: URL, packages: URL) {
        let base = q.vault.deletingLastPathComponent()
        let packages = base.appendingPathComponent("packages"), vault = base.appendingPathComponent("fresh")
        for dir in [packages, vault] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, packages.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try q.run(["init"], workingDirectory: vault).status == 0)
        return (vault, packages)
    }

    @Test(arguments: ["current.apkg", "legacy.apkg"])
    func anAnkiCollectionWithItsHistory(_ file: String) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let package = packages.appendingPathComponent(file).path
        let dry = try q.run(["import", "anki", package, "--dry-run"], workingDirectory: vault)
        #expect(dry.status == 0 && dry.stdout.hasSuffix("Would import 12 cards in 8 notes, 16 reviews, 2 media files. Nothing written (--dry-run).\n"), "\(dry)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.isEmpty)
        let imported = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(imported.status == 0 && imported.stdout == "Imported 12 cards in 8 notes, 16 reviews, 2 media files.\n", "\(imported)")
        #expect(imported.stderr.contains("note type 'Hanzi' (1 note) is not one Quire knows"))
        // The notes agree with the log: replaying it gives every card's state.
        let replay = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(replay.status == 0 && (replay.stdout + replay.stderr).contains(", 0 differ"), "\(replay)")
        #expect(try q.run(["check"], workingDirectory: vault).status == 0)
        #expect(try q.run(["list", "--count"], workingDirectory: vault).stdout == "12\n")
        let stats = try q.run(["stats", "--json"], workingDirectory: vault)
        #expect(stats.stdout.contains("\"reviews\": 16,"), "\(stats.stdout.prefix(400))")
        // Media copied byte for byte, linked from the notes.
        #expect(try Data(contentsOf: vault.appendingPathComponent("assets/cell.png")) == Data([0x89] + Array("PNG\r\n".utf8) + [0x1A] + Array("\nfake image bytes".utf8)))
        let atp = try String(contentsOf: vault.appendingPathComponent("Biology/Cells/What is ATP.md"), encoding: .utf8)
        #expect(atp.contains("![](assets/cell.png)") && atp.contains("tags: [bio, exam]"))
        // Again: nothing new.
        let again = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(again.stdout == "Imported 0 cards in 0 notes, 0 reviews, 0 media files; 8 notes already in the vault skipped.\n", "\(again)")
    }

    /// A package whose media names and deck names point outside the vault.
    @Test func aHostilePackage() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let edit = """
            import sqlite3, sys, zipfile, json, shutil
            src, out, deck = sys.argv[1], sys.argv[2], sys.argv[3]
            z = zipfile.ZipFile(src)
            db = out + '.db'
            open(db, 'wb').write(z.read('collection.anki21'))
            c = sqlite3.connect(db)
            models = c.execute('select decks from col').fetchone()[0]
            decks = json.loads(models)
            for d in decks.values():
                if d['name'] == 'Biology::Cells': d['name'] = deck
            c.execute('update col set decks = ?', (json.dumps(decks),))
            c.execute("update notes set flds = replace(flds, 'cell.png', '../../../evil.png')")
            c.execute("update notes set flds = replace(flds, 'What is', '\\x1b]0;pwned\\x07What is')")
            c.commit(); c.close()
            with zipfile.ZipFile(out, 'w') as w:
                w.writestr('collection.anki21', open(db, 'rb').read())
                w.writestr('media', json.dumps({'0': '../../../evil.png', '1': 'hola.mp3'}))
                w.writestr('0', z.read('0') if '0' in z.namelist() else b'x')
                w.writestr('1', b'sound')
            """
        let hostile = packages.appendingPathComponent("hostile.apkg").path
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["python3", "-c", edit, packages.appendingPathComponent("legacy.apkg").path, hostile, "Biology::Cells"])
        #expect(made.status == 0, "\(made.stderr)")
        let imported = try q.run(["import", "anki", hostile], workingDirectory: vault)
        #expect(imported.status == 0, "\(imported)")
        // The file lands in assets/ under its last name part; nothing outside the vault.
        #expect(FileManager.default.fileExists(atPath: vault.appendingPathComponent("assets/evil.png").path))
        #expect(!FileManager.default.fileExists(atPath: vault.deletingLastPathComponent().appendingPathComponent("evil.png").path))
        #expect(!imported.stdout.contains("\u{1B}") && !imported.stderr.contains("\u{1B}"))
        // A deck that climbs out: refused, nothing written.
        let climbing = packages.appendingPathComponent("climbing.apkg").path
        let made2 = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", "-c", edit, packages.appendingPathComponent("legacy.apkg").path, climbing, "..::..::outside"])
        #expect(made2.status == 0)
        let other = vault.deletingLastPathComponent().appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: other).status == 0)
        let refused = try q.run(["import", "anki", climbing], workingDirectory: other)
        #expect(refused.status == 1 && refused.stderr.contains("cannot be a folder of the vault"), "\(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).filter { !$0.hasPrefix(".") }.isEmpty)
        // A FIFO is not read (it would block), nor a folder.
        let fifo = packages.appendingPathComponent("pipe.apkg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try q.run(["import", "anki", fifo], workingDirectory: other)
        #expect(piped.status == 1 && piped.stderr.contains("not a regular file"), "\(piped)")
        // Not a package at all.
        let text = packages.appendingPathComponent("notes.apkg")
        try Data("not a zip".utf8).write(to: text)
        let bad = try q.run(["import", "anki", text.path], workingDirectory: other)
        #expect(bad.status == 1 && bad.stderr.contains("notes.apkg: not a readable zip archive"), "\(bad)")
    }
}
