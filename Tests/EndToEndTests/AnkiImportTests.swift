import Foundation
import Testing
import QuireTestSupport

/// `quire import anki` through the real binary, on packages Anki's own library made.
@Suite(.requires(.anki)) struct AnkiImportEndToEndTests {
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

    /// Writes the package `out` from the fixture `legacy.apkg` edited by `body`, Python run with `z`
    /// (the fixture's zip), `c` (a connection to a copy of its collection), `out` and `args` (the
    /// further arguments) set; the body ends with `write(entries)`, which closes the collection and
    /// writes it with the (name, bytes) entries into `out`.
    static func editedPackage(_ packages: URL, to out: String, _ body: String, _ args: [String] = []) throws {
        let prologue = """
            import sqlite3, sys, zipfile, json
            src, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
            z = zipfile.ZipFile(src)
            db = out + '.db'
            open(db, 'wb').write(z.read('collection.anki21'))
            c = sqlite3.connect(db)
            def write(entries, compression=zipfile.ZIP_STORED):
                c.commit(); c.close()
                with zipfile.ZipFile(out, 'w', compression) as w:
                    w.writestr('collection.anki21', open(db, 'rb').read())
                    for name, data in entries: w.writestr(name, data)

            """
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["python3", "-c", prologue + body, packages.appendingPathComponent("legacy.apkg").path, out] + args)
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test(arguments: ["current.apkg", "legacy.apkg"])
    func anAnkiCollectionWithItsHistory(_ file: String) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let package = packages.appendingPathComponent(file).path
        let dry = try q.run(["import", "anki", package, "--dry-run"], workingDirectory: vault)
        #expect(dry.status == 0 && dry.stdout.hasSuffix("Would import 14 cards in 9 notes, 24 reviews, 2 media files. Nothing written (--dry-run).\n"), "\(dry)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.isEmpty)
        let imported = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(imported.status == 0 && imported.stdout == "Imported 14 cards in 9 notes, 24 reviews, 2 media files.\n", "\(imported)")
        #expect(imported.stderr.contains("note type 'Hanzi' (1 note) is not one Quire knows"))
        // The notes agree with the log: replaying it gives every card's state.
        let replay = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(replay.status == 0 && (replay.stdout + replay.stderr).contains(", 0 differ"), "\(replay)")
        #expect(try q.run(["check"], workingDirectory: vault).status == 0)
        #expect(try q.run(["list", "--count"], workingDirectory: vault).stdout == "14\n")
        let stats = try q.run(["stats", "--json"], workingDirectory: vault)
        #expect(stats.stdout.contains("\"reviews\": 24,"), "\(stats.stdout.prefix(400))")
        // Media copied byte for byte, linked from the notes.
        #expect(try Data(contentsOf: vault.appendingPathComponent("assets/cell.png")) == Data([0x89] + Array("PNG\r\n".utf8) + [0x1A] + Array("\nfake image bytes".utf8)))
        let atp = try String(contentsOf: vault.appendingPathComponent("Biology/Cells/What is ATP.md"), encoding: .utf8)
        #expect(atp.contains("![](assets/cell.png)") && atp.contains("tags: [bio, exam]"))
        // Again: nothing new.
        let again = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(again.stdout == "Imported 0 cards in 0 notes, 0 reviews, 0 media files; 9 notes already in the vault skipped.\n", "\(again)")
        // Notes are known by their Anki GUID, however edited or moved; media by their bytes.
        let atpURL = vault.appendingPathComponent("Biology/Cells/What is ATP.md")
        try atp.replacing("What is **ATP**?", with: "What is **ATP**, the molecule?").write(to: atpURL, atomically: true, encoding: .utf8)
        try FileManager.default.moveItem(at: atpURL, to: vault.appendingPathComponent("Biology/ATP.md"))
        let perro = vault.appendingPathComponent("Languages/Spanish/el perro.md")
        try FileManager.default.removeItem(at: perro)
        let third = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(third.stdout == "Imported 2 cards in 1 note, 0 reviews, 0 media files; 8 notes already in the vault skipped.\n", "\(third)")
        #expect(try String(contentsOf: perro, encoding: .utf8).contains("[sound:assets/hola.mp3]") || (try String(contentsOf: perro, encoding: .utf8)).contains("assets/hola.mp3"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.appendingPathComponent("assets").path).sorted() == ["cell.png", "hola.mp3"])
    }

    /// A package whose media names and deck names point outside the vault.
    @Test func aHostilePackage() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let edit = """
            deck = args[0]
            decks = json.loads(c.execute('select decks from col').fetchone()[0])
            for d in decks.values():
                if d['name'] == 'Biology::Cells': d['name'] = deck
            c.execute('update col set decks = ?', (json.dumps(decks),))
            c.execute("update notes set flds = replace(flds, 'cell.png', '../../../evil.png')")
            c.execute("update notes set flds = replace(flds, 'What is', '\\x1b]0;pwned\\x07What is')")
            write([('media', json.dumps({'0': '../../../evil.png', '1': 'hola.mp3'})),
                   ('0', z.read('0') if '0' in z.namelist() else b'x'), ('1', b'sound')])
            """
        let hostile = packages.appendingPathComponent("hostile.apkg").path
        try Self.editedPackage(packages, to: hostile, edit, ["Biology::Cells"])
        let imported = try q.run(["import", "anki", hostile], workingDirectory: vault)
        #expect(imported.status == 0, "\(imported)")
        // The file lands in assets/ under its last name part; nothing outside the vault.
        #expect(FileManager.default.fileExists(atPath: vault.appendingPathComponent("assets/evil.png").path))
        #expect(!FileManager.default.fileExists(atPath: vault.deletingLastPathComponent().appendingPathComponent("evil.png").path))
        #expect(!imported.stdout.contains("\u{1B}") && !imported.stderr.contains("\u{1B}"))
        // A deck that climbs out: refused, nothing written.
        let climbing = packages.appendingPathComponent("climbing.apkg").path
        try Self.editedPackage(packages, to: climbing, edit, ["..::..::outside"])
        let other = vault.deletingLastPathComponent().appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: other).status == 0)
        let refused = try q.run(["import", "anki", climbing, "--strict"], workingDirectory: other)
        #expect(refused.status == 1 && refused.stderr.contains("cannot be a folder of the vault"), "\(refused)")
        #expect(refused.stderr.contains("nothing imported: 4 errors"), "\(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).filter { !$0.hasPrefix(".") }.isEmpty)
        // Without --strict the other notes are imported, each refused one listed by its ID.
        let partial = try q.run(["import", "anki", climbing], workingDirectory: other)
        #expect(partial.status == 1 && partial.stderr.contains("4 notes not imported"), "\(partial)")
        #expect(partial.stderr.components(separatedBy: "error: note ").count == 5, "\(partial)")
        #expect(partial.stdout.hasPrefix("Imported 8 cards in 5 notes"), "\(partial)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).filter { !$0.hasPrefix(".") }.sorted() == ["Languages", "assets"])
        #expect(!FileManager.default.fileExists(atPath: other.deletingLastPathComponent().appendingPathComponent("outside").path))
        #expect(try q.run(["replay", "--check"], workingDirectory: other).status == 0)
        // A FIFO is not read (it would block), nor a folder.
        let fifo = packages.appendingPathComponent("pipe.apkg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try q.run(["import", "anki", fifo], workingDirectory: other)
        #expect(piped.status == 1 && piped.stderr.contains("not a regular file"), "\(piped)")
        // Not a package at all.
        let text = packages.appendingPathComponent("notes.apkg")
        try Data("not a zip".utf8).write(to: text)
        let bad = try q.run(["import", "anki", text.path], workingDirectory: other)
        #expect(bad.status == 1 && bad.stderr == "notes.apkg: error: not a readable zip archive: no zip directory at its end: "
                + "the file is cut short, or no zip file\n", "\(bad)")
        try Data().write(to: text)
        let empty = try q.run(["import", "anki", text.path], workingDirectory: other)
        #expect(empty.status == 1 && empty.stderr == "notes.apkg: error: not a readable zip archive: the file is empty\n", "\(empty)")
    }

    /// An empty collection (a profile's first backup) is said as such; nothing is written.
    @Test func anEmptyCollectionIsSaidAsSuch() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let empty = packages.appendingPathComponent("empty.apkg").path
        try Self.editedPackage(packages, to: empty, "c.execute('delete from cards'); c.execute('delete from notes'); c.execute('delete from revlog')\nwrite([])\n")
        let imported = try q.run(["import", "anki", empty], workingDirectory: vault)
        #expect(imported.status == 0 && imported.stdout == "Nothing to import: empty.apkg holds no notes.\n", "\(imported)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    /// Every number read from a package is checked: extreme intervals, due days, eases, counts,
    /// memory states, times and creation dates are said and replaced, never trapped on, and the
    /// log the import writes still replays to the notes — with a 200,000-answer history too.
    @Test func extremeNumbersAndAHugeHistory() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let edit = """
            review = c.execute('select id from cards where type = 2 order by id').fetchall()
            c.execute('update cards set ivl = 1000000000000000, due = 1000000000000, factor = 1000000000, reps = -5, '
                      'lapses = 1000000000000 where id = ?', review[0])
            c.execute('update cards set due = -9000000000000000000, data = ? where id = ?', ('{"s": 1e300, "d": 50}', review[1][0]))
            c.execute("update cards set type = 1, queue = 1, due = 99999999999999 where id = (select min(id) from cards where type = 0)")
            cid = review[-1][0]
            c.execute('insert into revlog values (?, ?, 0, 3, 1, 0, 2500, 5000, 1)', (-5, cid))
            c.execute('insert into revlog values (?, ?, 0, 3, 1, 0, 2500, 5000, 1)', (10 ** 17, cid))
            start = 1500000000000
            c.executemany('insert into revlog values (?, ?, 0, ?, 1, 0, 2500, 3000, 1)',
                          ((start + k * 60000, cid, 1 + k % 4) for k in range(200000)))
            nid = c.execute('select nid from cards where id = ?', (cid,)).fetchone()[0]
            c.execute('update notes set id = ? where id = ?', (10 ** 17, nid))
            c.execute('update cards set nid = ? where nid = ?', (10 ** 17, nid))
            c.execute('update col set crt = ?', (10 ** 15,))
            write((name, z.read(name)) for name in z.namelist() if name != 'collection.anki21')
            """
        let extreme = packages.appendingPathComponent("extreme.apkg").path
        try Self.editedPackage(packages, to: extreme, edit)
        let imported = try q.run(["import", "anki", extreme], workingDirectory: vault)
        #expect(imported.status == 0, "\(imported)")
        for said in ["the collection's creation time (1000000000000000) is out of range", "interval 1000000000000000 is out of range",
                     "reps -5 is out of range", "lapses 1000000000000 is out of range",
                     "FSRS memory (stability 1e+300, difficulty 50.0) is out of range", "due time 99999999999999 is out of range",
                     "2 answer(s) at a time before 1970 or after 9999 not imported", "its ID is not a creation time"] {
            #expect(imported.stderr.contains(said), "\(said): \(imported.stderr)")
        }
        #expect(imported.stdout.contains("200,0") || imported.stdout.contains("2000"), "\(imported)")
        let replay = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(replay.status == 0 && (replay.stdout + replay.stderr).contains(", 0 differ"), "\(replay)")
        #expect(try q.run(["check"], workingDirectory: vault).status == 0)
    }

    /// Packages that would make far more than they hold: a computed column in the notes table
    /// (20 MB a note from a few bytes), media that inflate past the import's budget (40 times the
    /// package, at least 256 MB), and any package past a budget the user sets lower. Each is
    /// refused with its reason and nothing reaches the vault.
    @Test func amplifyingPackagesAreRefusedBeforeAnythingIsWritten() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let edit = """
            kind = args[0]
            media = {}
            if kind == 'generated':
                c.execute('alter table notes rename to n0')
                c.execute("create table notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, "
                          "f0 text, sfld text, csum integer, flags integer, data text, "
                          "flds text generated always as (f0 || printf('%.*c', 20000000, 'x')) virtual)")
                c.execute('insert into notes (id, guid, mid, mod, usn, tags, f0, sfld, csum, flags, data) '
                          'select id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data from n0')
                c.execute('drop table n0')
            else:
                c.execute("update notes set flds = flds || '<img src=a.png><img src=b.png><img src=c.png>'")
                media = {'0': 'a.png', '1': 'b.png', '2': 'c.png'}
            write([('media', json.dumps(media))] + [(k, bytes(100 << 20)) for k in media], zipfile.ZIP_DEFLATED)
            """
        for kind in ["generated", "media"] {
            let package = packages.appendingPathComponent(kind + ".apkg").path
            try Self.editedPackage(packages, to: package, edit, [kind])
            #expect(try FileManager.default.attributesOfItem(atPath: package)[.size] as? Int ?? 0 < 2 << 20)
            for dryRun in [true, false] where kind == "generated" || !dryRun {
                let refused = try q.run(["import", "anki", package] + (dryRun ? ["--dry-run"] : []), workingDirectory: vault)
                #expect(refused.status == 1, "\(refused)")
                #expect(refused.stderr.contains(kind == "generated" ? "has a computed column ('flds')" : "would write more than 256 MB"),
                        "\(refused)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: vault.path).filter { !$0.hasPrefix(".") }.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: vault.appendingPathComponent(".quire/staging").path))
        }
        // A budget the user sets: lower refuses a plain package, higher lets the media through
        // (not written here: 300 MB).
        let plain = packages.appendingPathComponent("legacy.apkg").path
        let low = try q.run(["import", "anki", plain, "--max-size", "20K"], workingDirectory: vault)
        #expect(low.status == 1 && low.stderr.contains("larger than 20 KB once decompressed; refused"), "\(low)")
        let dry = try q.run(["import", "anki", packages.appendingPathComponent("media.apkg").path, "--max-size", "1G", "--dry-run"],
                            workingDirectory: vault)
        #expect(dry.status == 0 && dry.stdout.contains("3 media files"), "\(dry)")
        let bad = try q.run(["import", "anki", plain, "--max-size", "lots"], workingDirectory: vault)
        #expect(bad.status == 64, "\(bad)")
    }

    /// Cards answered, then reset to new in Anki ("Forget", with and without resetting their
    /// counts; one then suspended, one buried), made by Anki's own library in both package
    /// formats: each imports as a new card whose history no longer counts (a `reset` line, or a
    /// `set` line for the suspended and buried ones), so the log replays to the notes and `quire
    /// replay` changes nothing — it had turned such a card back into a review card due long ago.
    @Test(arguments: [false, true])
    func forgottenCardsStayNew(_ legacy: Bool) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try Self.setUp(q)
        let script = """
            import os, sys
            from anki.collection import Collection, ExportAnkiPackageOptions
            from anki.generic_pb2 import Empty
            from anki.import_export_pb2 import ExportLimit
            from anki.scheduler_pb2 import CardAnswer
            out, legacy = sys.argv[1], sys.argv[2] == "1"
            col = Collection(os.path.join(out, "forget.anki2"))
            col.set_config("fsrs", True)
            deck = col.decks.id("Forgot")
            for i in range(4):
                n = col.new_note(col.models.by_name("Basic")); n["Front"] = f"Question {i}?"; n["Back"] = f"Answer {i}"
                col.add_note(n, deck)
            for day in range(3):
                for cid in col.find_cards("deck:Forgot"):
                    card = col.get_card(cid); card.start_timer()
                    states = col._backend.get_scheduling_states(card.id)
                    col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=CardAnswer.GOOD))
                col.db.execute("update cards set due = due - 1 where queue = 2")
                col.db.execute("update cards set due = due - 86400 where queue in (1, 3)")
            cids = col.find_cards("deck:Forgot")
            col.sched.schedule_cards_as_new(cids[:3], restore_position=True, reset_counts=False)
            col.sched.schedule_cards_as_new([cids[1]], restore_position=True, reset_counts=True)
            col.sched.suspend_cards([cids[0]])
            col.sched.bury_cards([cids[2]], manual=True)
            col.export_anki_package(out_path=os.path.join(out, "forget.apkg"),
                                    options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=legacy),
                                    limit=ExportLimit(whole_collection=Empty()))
            """
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, packages.path, legacy ? "1" : "0"])
        #expect(made.status == 0, "\(made.stderr)")
        let imported = try q.run(["import", "anki", packages.appendingPathComponent("forget.apkg").path], workingDirectory: vault)
        #expect(imported.status == 0 && imported.stdout.contains("4 cards in 4 notes, 12 reviews"), "\(imported)")
        let check = try q.run(["replay", "--check"], workingDirectory: vault)
        #expect(check.status == 0 && check.stderr.contains("4 cards replayed, 0 differ"), "\(check)")
        let before = try q.run(["list", "--json"], workingDirectory: vault).stdout
        let replay = try q.run(["replay", "--all"], workingDirectory: vault)
        #expect(replay.status == 0, "\(replay)")
        #expect(try q.run(["list", "--json"], workingDirectory: vault).stdout == before)
        let cards = try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [[String: Any]] ?? []
        let states = cards.map { "\($0["front"] ?? "") \($0["state"] ?? "-") \($0["suspended"] as? Bool == true ? "suspended" : "")" }.sorted()
        #expect(states.filter { $0.contains(" new") }.count == 3, "\(states)")
        #expect(states.filter { $0.hasSuffix(" new suspended") }.count == 1, "\(states)")
        #expect(states.filter { $0.contains(" review") }.count == 1, "\(states)")
        #expect(try q.run(["stats"], workingDirectory: vault).stdout.contains("Reviews: 12 "))
    }
}
