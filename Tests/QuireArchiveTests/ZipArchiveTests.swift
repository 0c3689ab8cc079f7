@testable import QuireArchive
import Testing
@testable import QuireTestSupport

/// Zip archives as Python's zipfile module writes them, and as an attacker would.
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
