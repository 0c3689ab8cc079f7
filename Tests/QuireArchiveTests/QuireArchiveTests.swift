@testable import QuireArchive
import Testing
@testable import QuireTestSupport

/// SQLite databases, zip archives and zstd frames as other programs write them (Python's own
/// sqlite3 and zipfile modules, the zstd tool), and as attackers would.
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

@Suite struct ZstdTests {
    @Test func framesFromTheZstdTool() throws {
        try withTempDir { dir in
            let text = String(repeating: "Quire reads Anki's packages. ", count: 5000)
            try dir.write("t.txt", text)
            _ = try runPython("import subprocess, sys; subprocess.run(['zstd', '-q', '-19', sys.argv[1], '-o', sys.argv[2]], check=True)",
                              [dir.full("t.txt"), dir.full("t.zst")])
            let frame = try dir.read("t.zst")
            #expect(Zstd.isFrame(frame) && frame.count < text.utf8.count / 20)
            #expect(try Zstd.decompress(frame, limit: 1 << 20, name: "t") == Array(text.utf8))
            // Past the limit: refused. Cut short: an error.
            #expect(throws: ArchiveError.tooLarge(name: "t", limit: 1000)) { try Zstd.decompress(frame, limit: 1000, name: "t") }
            #expect(throws: ArchiveError.self) { try Zstd.decompress(Array(frame.prefix(frame.count / 2)), limit: 1 << 20, name: "t") }
            #expect(throws: ArchiveError.self) { try Zstd.decompress(Array("plain".utf8), limit: 1 << 20, name: "t") }
        }
    }

    /// A few kilobytes that would become a gigabyte stop at the limit.
    @Test func aBombStopsAtTheLimit() throws {
        try withTempDir { dir in
            _ = try runPython("""
                import subprocess, sys
                p = subprocess.Popen(['zstd', '-q', '-19', '-', '-o', sys.argv[1]], stdin=subprocess.PIPE)
                block = bytes(1 << 20)
                for _ in range(1024): p.stdin.write(block)
                p.stdin.close(); p.wait()
                """, [dir.full("bomb.zst")])
            let frame = try dir.read("bomb.zst")
            #expect(frame.count < 200_000)
            #expect(throws: ArchiveError.tooLarge(name: "bomb", limit: 8 << 20)) { try Zstd.decompress(frame, limit: 8 << 20, name: "bomb") }
        }
    }
}

@Suite struct ZipArchiveTests {
    @Test func entriesReadIntoMemory() throws {
        try withTempDir { dir in
            _ = try runPython("""
                import zipfile, sys, os
                with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                    z.writestr('collection.anki2', b'SQLite format 3\\x00' + bytes(100))
                    z.writestr('media', '{"0": "cat.jpg"}')
                    z.writestr('0', bytes(range(256)) * 10)
                    z.writestr('../../escape.txt', 'x')
                    info = zipfile.ZipInfo('link')
                    info.external_attr = (0o120777 << 16)
                    z.writestr(info, '/etc/passwd')
                """, [dir.full("p.apkg")])
            let zip = try ZipArchive(path: dir.full("p.apkg"), name: "p.apkg")
            #expect(zip.entries.map(\.path) == ["collection.anki2", "media", "0", "../../escape.txt", "link"])
            #expect(try zip.read("media", limit: 1000) == Array("{\"0\": \"cat.jpg\"}".utf8))
            #expect(try zip.read("0", limit: 10_000)?.count == 2560)
            #expect(try zip.read("missing", limit: 10) == nil)
            // A link is not a file: never read as one.
            #expect(zip.entries.last?.isFile == false)
            #expect(try zip.read("link", limit: 100) == nil)
            #expect(throws: ArchiveError.tooLarge(name: "p.apkg: 0", limit: 100)) { try zip.read("0", limit: 100) }
            // Nothing was written beside the archive.
            #expect(try dir.entries("") == ["p.apkg"])
        }
    }

    @Test func notAnArchive() throws {
        try withTempDir { dir in
            try dir.write("x.apkg", "just text")
            #expect(throws: ArchiveError.self) { try ZipArchive(path: dir.full("x.apkg"), name: "x.apkg") }
        }
    }

    /// An entry that lies about its size is stopped by what it really inflates to.
    @Test func aLyingBombIsStopped() throws {
        try withTempDir { dir in
            _ = try runPython("""
                import zipfile, sys, struct
                with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                    z.writestr('collection.anki2', bytes(64 << 20))
                data = bytearray(open(sys.argv[1], 'rb').read())
                # Make both headers claim 1000 bytes.
                i = data.find(b'PK\\x03\\x04'); data[i+22:i+26] = struct.pack('<I', 1000)
                j = data.find(b'PK\\x01\\x02'); data[j+24:j+28] = struct.pack('<I', 1000)
                open(sys.argv[1], 'wb').write(data)
                """, [dir.full("bomb.apkg")])
            let zip = try ZipArchive(path: dir.full("bomb.apkg"), name: "bomb.apkg")
            #expect(throws: ArchiveError.self) { _ = try zip.read("collection.anki2", limit: 1 << 20) }
        }
    }
}
