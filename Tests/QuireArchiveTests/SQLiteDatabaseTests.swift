@testable import QuireArchive
import Testing
@testable import QuireTestSupport

/// SQLite databases as another program writes them (Python's own sqlite3 module), and as an
/// attacker would.
@Suite struct SQLiteDatabaseTests {
    @Test func tablesRowsAndTypes() throws {
        try withTempDir { dir in
            _ = try runPython("""
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("create table notes (id integer primary key, flds text, data blob, score real)")
                c.execute("insert into notes values (1, 'front\\x1fback', x'00ff10', 2.5)")
                c.execute("insert into notes values (2, NULL, NULL, NULL)")
                c.execute("create view v as select * from notes")
                c.commit()
                """, [dir.full("c.db")])
            let db = try SQLiteDatabase(bytes: dir.read("c.db"), name: "c.db")
            #expect(try db.tableNames() == ["notes"])
            #expect(try db.columnNames(of: "notes") == ["id", "flds", "data", "score"])
            var rows: [String] = []
            try db.query("SELECT id, flds, data, score FROM notes ORDER BY id") { row in
                rows.append("\(row.int(0)) \(row.text(1) ?? "nil") \(row.bytes(2)) \(row.double(3)) \(row.isNull(1))")
            }
            #expect(rows == ["1 front\u{1F}back [0, 255, 16] 2.5 false", "2 nil [] 0.0 true"])
        }
    }

    @Test func notADatabase() {
        #expect(throws: ArchiveError.self) { try SQLiteDatabase(bytes: Array("not sqlite at all, just text".utf8), name: "x") }
        #expect(throws: ArchiveError.self) { try SQLiteDatabase(bytes: [], name: "x") }
    }

    /// A view whose query never ends is interrupted, not run forever.
    @Test func aRunawayViewIsStopped() throws {
        try withTempDir { dir in
            _ = try runPython("""
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("create view notes as with recursive r(n) as (select 1 union all select n + 1 from r) select n from r")
                c.commit()
                """, [dir.full("c.db")])
            let db = try SQLiteDatabase(bytes: dir.read("c.db"), name: "c.db")
            #expect(try db.tableNames().isEmpty)
            #expect(throws: ArchiveError.invalidDatabase(name: "c.db", reason: "a statement ran too long")) {
                try db.query("SELECT count(*) FROM notes") { _ in }
            }
        }
    }

    /// A damaged page is an error of the query, not a crash.
    @Test func aDamagedDatabase() throws {
        try withTempDir { dir in
            _ = try runPython("""
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("create table t (x text)")
                c.executemany("insert into t values (?)", [("row %d " % i * 20,) for i in range(2000)])
                c.commit()
                """, [dir.full("c.db")])
            var bytes = try dir.read("c.db")
            for i in stride(from: 4096 * 3, to: min(bytes.count, 4096 * 6), by: 7) { bytes[i] = 0xA5 }
            do {
                let db = try SQLiteDatabase(bytes: bytes, name: "c.db")
                var n = 0
                try db.query("SELECT x FROM t") { _ in n += 1 }
                Issue.record("read \(n) rows of a damaged table")
            } catch {
                #expect("\(error)".hasPrefix("c.db: not a readable SQLite database"))
            }
        }
    }
}
