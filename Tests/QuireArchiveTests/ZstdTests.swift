@testable import QuireArchive
import Testing
@testable import QuireTestSupport

/// zstd frames as the zstd tool writes them, and bombs.
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
