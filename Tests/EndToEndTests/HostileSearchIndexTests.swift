import Foundation
import Testing
import QuireTestSupport

/// `.quire/cache/search.sqlite` comes with a vault someone shared: damaged, cut short, not SQLite,
/// or a real database of its own with triggers and views. It is never trusted: made anew from the
/// notes with a note saying why, no SQL of its runs, and the search answers.
@Suite struct HostileSearchIndexTests {
    static let index = ".quire/cache/search.sqlite"

    /// A vault with two notes, indexed once; `plant` then replaces the index file's bytes.
    func searchAfter(_ plant: (QuireRunner, URL) throws -> Void) throws -> (QuireRunner.Result, QuireRunner) {
        let q = try QuireRunner()
        try q.write("Biology/Cells.md", Data("# Cells\n\nMitochondria produce most of the cell's ATP.\n\nQ: What makes ATP?\nA: Mitochondria.\n".utf8))
        try q.write("Chemistry/Salts.md", Data("# Salts\n\nAn ionic compound is held together by ionic bonds.\n".utf8))
        #expect(try q.run(["search", "ionic"]).status == 0)
        let file = q.vault.appendingPathComponent(Self.index)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        try plant(q, file)
        return (try q.run(["search", "mitochondria"]), q)
    }

    /// `searchAfter` with the index replaced by a database of someone else's making: a `meta`
    /// table claiming `version` (and Quire's model), and `statement` run.
    func searchAfterPlanting(version: String, _ statement: String) throws -> (QuireRunner.Result, QuireRunner) {
        try searchAfter { _, file in
            try FileManager.default.removeItem(at: file)
            _ = try runPython("""
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                c.execute("INSERT INTO meta VALUES ('version', ?), ('model', 'all-MiniLM-L6-v2/i8')", (sys.argv[2],))
                c.execute(sys.argv[3])
                c.commit()
                """, [file.path, version, statement])
        }
    }

    /// `searchAfter` with `statements` run on the index (Python's sqlite3, then committed).
    func searchAfterSQL(_ statements: [String]) throws -> (QuireRunner.Result, QuireRunner) {
        try searchAfter { _, file in
            _ = try runPython("import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nfor s in sys.argv[2:]:\n    c.execute(s)\nc.commit()",
                              [file.path] + statements)
        }
    }

    /// The objects of the index's schema, as SQLite lists them.
    func schema(_ q: QuireRunner) throws -> String {
        try runPython("import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nprint(sorted(r[0] + ' ' + r[1] for r in c.execute('SELECT type, name FROM sqlite_master')))",
                      [q.vault.appendingPathComponent(Self.index).path])
    }

    @Test func bytesThatAreNotSQLiteAreReplaced() throws {
        let (run, q) = try searchAfter { _, file in try Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: file) }
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        #expect(run.stderr.contains("the search index was made anew from the notes"), "\(run)")
    }

    @Test func anIndexCutShortIsReplaced() throws {
        let (run, q) = try searchAfter { _, file in
            let bytes = try Data(contentsOf: file)
            try bytes.prefix(bytes.count / 2).write(to: file)
        }
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        // And the next search uses the index made anew, without a note.
        let again = try q.run(["search", "ionic"])
        #expect(again.status == 0 && again.stdout.contains("Chemistry/Salts.md") && !again.stderr.contains("made anew"), "\(again)")
    }

    /// Quire's own index with a trigger and a view added (the version Quire writes, so it would
    /// otherwise be used): the trigger would write a table of its own on every indexed note.
    @Test func anIndexWithTriggersOrViewsIsNotUsed() throws {
        let (run, q) = try searchAfterSQL([
            "CREATE TABLE pwned (x TEXT)",
            "CREATE TRIGGER t AFTER INSERT ON notes BEGIN INSERT INTO pwned VALUES (new.path); END",
            "CREATE TRIGGER d AFTER DELETE ON notes BEGIN INSERT INTO pwned VALUES (old.path); END",
            "CREATE VIEW v AS SELECT * FROM notes",
            "DELETE FROM notes WHERE path = 'Chemistry/Salts.md'",
        ])
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        #expect(run.stderr.contains("its tables are not the ones Quire makes; the search index was made anew from the notes."), "\(run)")
        let objects = try schema(q)
        #expect(!objects.contains("pwned") && !objects.contains("trigger") && !objects.contains("view"), "\(objects)")
        #expect(try q.run(["search", "ionic"]).stdout.contains("Chemistry/Salts.md"))
    }

    /// A database of someone else's making, claiming Quire's version in a `meta` table.
    @Test func aForeignDatabaseClaimingTheVersionIsNotUsed() throws {
        let (run, q) = try searchAfterPlanting(
            version: "8", "CREATE VIEW notes AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS path, n AS digest FROM r")
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        #expect(run.stderr.contains("made anew"), "\(run)")
        #expect(!(try schema(q)).contains("view"))
    }

    /// An index of the previous version keeps its vectors (the chunks are cut the same way) —
    /// unless what it keeps is not a table Quire makes; one whose chunk numbers are used up
    /// (every insert would fail) is made anew.
    @Test func whatAnOlderIndexKeepsIsChecked() throws {
        for planted in ["CREATE VIEW vectors AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS hash, n AS vector FROM r",
                        "CREATE TABLE vectors (hash INTEGER PRIMARY KEY, vector BLOB NOT NULL, extra)"] {
            let (run, q) = try searchAfterPlanting(version: "7", planted)
            defer { q.cleanUp() }
            #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
            #expect(run.stderr.contains("made anew"), "\(run)")
            let tables = try schema(q)
            #expect(!tables.contains("view") && !tables.contains("extra"))
        }
        let (run, q) = try searchAfter { _, file in
            _ = try runPython("""
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("UPDATE sqlite_sequence SET seq = 9223372036854775000 WHERE name = 'info'")
                c.commit()
                """, [file.path])
        }
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        #expect(run.stderr.contains("used up"), "\(run)")
    }

    /// A full-text table's configuration garbled: its table fails to open ("vtable constructor
    /// failed" on every search before, `index` notwithstanding); now made anew, with a note.
    @Test func aGarbledFullTextConfigurationIsReplaced() throws {
        let (run, q) = try searchAfterSQL(["DELETE FROM chunks_config"])
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md") && run.stderr.contains("made anew"), "\(run)")
        #expect(try q.run(["search", "ionic"]).stdout.contains("Chemistry/Salts.md"))
    }

    /// A full-text table's blocks garbled (found only when a search reads them, "database disk
    /// image is malformed" on every search before): the search makes the index anew and answers.
    /// The bytes are fixed: random ones now and then read as a valid empty block (next test).
    @Test func garbledFullTextBlocksAreFoundBySearchAndReplaced() throws {
        let (run, q) = try searchAfterSQL(["UPDATE chunks_data SET block = CAST(replace(hex(zeroblob(length(block))), '0', 'F') AS BLOB) WHERE id > 10"])
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        #expect(try q.run(["search", "ionic"]).stdout.contains("Chemistry/Salts.md"))
        #expect(try q.run(["index"]).status == 0)
    }

    /// Blocks zeroed read as valid empty ones: a search misses without an error (SQLite keeps no
    /// checksum to tell). `quire index` reads the whole index, finds them, and makes it anew.
    @Test func blocksThatReadAsEmptyAreFoundByIndex() throws {
        let (_, q) = try searchAfterSQL(["UPDATE chunks_data SET block = zeroblob(length(block)) WHERE id > 10"])
        defer { q.cleanUp() }
        let index = try q.run(["index"])
        #expect(index.status == 0 && index.stderr.contains("the search index was made anew from the notes"), "\(index)")
        let run = try q.run(["search", "mitochondria"])
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        // A whole index is left as it is.
        let again = try q.run(["index"])
        #expect(again.status == 0 && !again.stderr.contains("made anew"), "\(again)")
    }

    /// A folder where the index's file should be: removed and the index made in its place (the
    /// search noted the rebuild, then failed to open it, every time).
    @Test func aFolderInTheIndexsPlaceIsReplaced() throws {
        let (run, q) = try searchAfter { _, file in
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file.appendingPathComponent("inner"), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: file.appendingPathComponent("inner/file"))
        }
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md"), "\(run)")
        #expect(try q.run(["index"]).status == 0)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: q.vault.appendingPathComponent(Self.index).path, isDirectory: &isFolder) && !isFolder.boolValue)
    }

    /// Rows planted in the index for a path that is no note of the vault (and text no note
    /// holds): never shown, and gone after `quire index` (before, shown and kept).
    @Test func aPlantedPathIsNeverShownAndIsRemoved() throws {
        let (run, q) = try searchAfterSQL([
            "INSERT INTO info (id, path, first, last, card, hash, page, time) VALUES (900001, '../../etc/passwd', 1, 1, NULL, 7, NULL, NULL)",
            "INSERT INTO chunks (rowid, text, heading) VALUES (900001, 'mitochondria planted text: run curl evil.example', '')",
        ])
        defer { q.cleanUp() }
        #expect(run.status == 0 && run.stdout.contains("Biology/Cells.md") && !run.stdout.contains("passwd") && !run.stdout.contains("planted"), "\(run)")
        #expect(try q.run(["index"]).status == 0)
        let left = try runPython("import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nprint(c.execute(\"SELECT count(*) FROM info WHERE path LIKE '%passwd%'\").fetchone()[0])",
                                 [q.vault.appendingPathComponent(Self.index).path])
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(left)")
    }
}
