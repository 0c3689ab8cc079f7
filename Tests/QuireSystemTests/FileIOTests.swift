@testable import QuireSystem
import Foundation
import Testing
@testable import QuireTestSupport

/// Atomic replacement and appending through injected ``SystemCalls`` failures.
@Suite struct FileIOTests {
    /// A staged file: made new, never over a file or through a link, then flushed with its file system.
    @Test func createNewNeverReplaces() throws {
        try withTempDir { dir in
            let io = FileIO()
            try io.createNew(dir.full("a"), with: [1, 2, 3])
            #expect(try dir.read("a") == [1, 2, 3])
            #expect(throws: FileIOError.changedOnDisk(path: dir.full("a"))) { try io.createNew(dir.full("a"), with: [9]) }
            #expect(try dir.read("a") == [1, 2, 3])
            try dir.write("target", "keep")
            try dir.link("link", to: dir.full("target"))
            #expect(throws: FileIOError.self) { try io.createNew(dir.full("link"), with: [9]) }
            #expect(try dir.text("target") == "keep")
            try io.syncFileSystem(containing: dir.path)
            #expect(throws: FileIOError.self) { try io.syncFileSystem(containing: dir.full("missing")) }
        }
    }

    /// Counts calls and remembers state across the `@Sendable` closures.
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var _count = 0
        func next() -> Int { lock.lock(); defer { lock.unlock() }; _count += 1; return _count }
    }

    let original = Array("---\ntitle: Original\n---\nx :: y\n".utf8)
    let edited = Array("---\ntitle: Edited\n---\nx :: y\n".utf8)

    private func failing(_ change: (inout SystemCalls) -> Void) -> FileIO {
        var sys = SystemCalls.live
        change(&sys)
        return FileIO(sys: sys)
    }

    /// Runs a replace that must fail, and checks the original is byte-identical and no temp file is left.
    private func expectUntouched(_ io: FileIO, operation: String, code: Int32,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withTempDir { dir in
            try dir.write("note.md", bytes: original)
            let path = dir.full("note.md")
            #expect(throws: FileIOError.system(path: path, operation: operation, code: code),
                    sourceLocation: sourceLocation) {
                try io.replace(path, with: edited, expected: original)
            }
            #expect(try dir.read("note.md") == original, sourceLocation: sourceLocation)
            #expect(try dir.entries() == ["note.md"], sourceLocation: sourceLocation)
        }
    }

    @Test func diskFullOnWrite() throws {
        try expectUntouched(failing { $0.write = { _, _, _ in errno = ENOSPC; return -1 } }, operation: "write", code: ENOSPC)
    }

    @Test func diskFullAfterAPartialWrite() throws {
        let calls = Box()
        let io = failing { sys in
            sys.write = { fd, buf, n in
                if calls.next() == 1 { return Glibc.write(fd, buf, min(n, 5)) }
                errno = ENOSPC
                return -1
            }
        }
        try expectUntouched(io, operation: "write", code: ENOSPC)
    }

    @Test func interruptedWriteIsRetried() throws {
        let calls = Box()
        let io = failing { sys in
            sys.write = { fd, buf, n in
                if calls.next() == 1 { errno = EINTR; return -1 }
                return Glibc.write(fd, buf, n)
            }
        }
        try withTempDir { dir in
            try dir.write("note.md", bytes: original)
            try io.replace(dir.full("note.md"), with: edited, expected: original)
            #expect(try dir.read("note.md") == edited)
        }
    }

    @Test func writeReturningZeroIsAnError() throws {
        try expectUntouched(failing { $0.write = { _, _, _ in 0 } }, operation: "write", code: EIO)
    }

    @Test func fsyncFails() throws {
        try expectUntouched(failing { $0.fsync = { _ in errno = EIO; return -1 } }, operation: "fsync", code: EIO)
    }

    @Test func renameFails() throws {
        try expectUntouched(failing {
            $0.rename = { _, _ in errno = EXDEV; return -1 }
            $0.renameWithFlags = { _, _, _ in errno = EXDEV; return -1 }
        }, operation: "rename", code: EXDEV)
    }

    @Test func closeFails() throws {
        let io = failing { sys in sys.close = { fd in _ = Glibc.close(fd); errno = EIO; return -1 } }
        try expectUntouched(io, operation: "close", code: EIO)
    }

    @Test func chmodFails() throws {
        try expectUntouched(failing { $0.fchmod = { _, _ in errno = EPERM; return -1 } }, operation: "chmod", code: EPERM)
    }

    @Test func temporaryFileCannotBeCreated() throws {
        let io = failing { sys in
            sys.open = { path, flags, mode in
                if flags & O_CREAT != 0 { errno = EACCES; return -1 }
                return Glibc.open(path, flags | O_CLOEXEC, mode)
            }
        }
        try expectUntouched(io, operation: "create temporary file", code: EACCES)
    }

    @Test func fileChangedBeforeReplace() throws {
        try withTempDir { dir in
            try dir.write("note.md", bytes: original)
            let external = Array("someone else's edit\n".utf8)
            try dir.write("note.md", bytes: external)
            let path = dir.full("note.md")
            #expect(throws: FileIOError.changedOnDisk(path: path)) {
                try FileIO().replace(path, with: edited, expected: original)
            }
            #expect(try dir.read("note.md") == external)
            #expect(try dir.entries() == ["note.md"])
        }
    }

    @Test func fileChangedWhileTheTemporaryFileIsWritten() throws {
        try withTempDir { dir in
            try dir.write("note.md", bytes: original)
            let path = dir.full("note.md")
            let external = Array("edited in another editor meanwhile\n".utf8)
            let calls = Box()
            let io = failing { sys in
                sys.write = { fd, buf, n in
                    if calls.next() == 1 {
                        // An editor saves the note between Quire's check and its rename.
                        let f = Glibc.open(path, O_WRONLY | O_TRUNC)
                        _ = external.withUnsafeBytes { Glibc.write(f, $0.baseAddress, $0.count) }
                        _ = Glibc.close(f)
                    }
                    return Glibc.write(fd, buf, n)
                }
            }
            #expect(throws: FileIOError.changedOnDisk(path: path)) {
                try io.replace(path, with: edited, expected: original)
            }
            #expect(try dir.read("note.md") == external)
            #expect(try dir.entries() == ["note.md"])
        }
    }

    @Test func fileDeletedBeforeReplace() throws {
        try withTempDir { dir in
            let path = dir.full("gone.md")
            #expect(throws: FileIOError.changedOnDisk(path: path)) {
                try FileIO().replace(path, with: edited, expected: original)
            }
            let left = try dir.entries()
            #expect(left == [])
        }
    }

    @Test func creatingRefusesToOverwrite() throws {
        try withTempDir { dir in
            try dir.write("note.md", bytes: original)
            let path = dir.full("note.md")
            #expect(throws: FileIOError.changedOnDisk(path: path)) {
                try FileIO().replace(path, with: edited, expected: nil)
            }
            #expect(try dir.read("note.md") == original)
            try FileIO().replace(dir.full("new.md"), with: edited, expected: nil)
            #expect(try dir.read("new.md") == edited)
            #expect(try dir.mode("new.md") == 0o644)
        }
    }

    @Test func successfulReplaceKeepsTheFileMode() throws {
        try withTempDir { dir in
            for mode in [0o600, 0o755, 0o640] {
                try dir.write("note.md", bytes: original)
                try dir.chmod("note.md", mode)
                try FileIO().replace(dir.full("note.md"), with: edited, expected: original)
                #expect(try dir.read("note.md") == edited)
                #expect(try dir.mode("note.md") == mode)
                #expect(try dir.entries() == ["note.md"])
            }
        }
    }

    @Test func appendCreatesAndAppends() throws {
        try withTempDir { dir in
            let path = dir.full("log/dev.log")
            try FileIO().makeDirectories(dir.full("log"))
            try FileIO().append(path, Array("one\n".utf8))
            try FileIO().append(path, Array("two\n".utf8))
            #expect(try dir.text("log/dev.log") == "one\ntwo\n")
        }
    }

    @Test func appendReportsFailures() throws {
        try withTempDir { dir in
            try dir.write("a.log", "keep\n")
            let path = dir.full("a.log")
            let io = failing { $0.write = { _, _, _ in errno = ENOSPC; return -1 } }
            #expect(throws: FileIOError.system(path: path, operation: "write", code: ENOSPC)) {
                try io.append(path, Array("more\n".utf8))
            }
            let syncFails = failing { $0.fsync = { _ in errno = EIO; return -1 } }
            #expect(throws: FileIOError.system(path: path, operation: "fsync", code: EIO)) {
                try syncFails.append(path, Array("more\n".utf8))
            }
        }
    }

    @Test func readErrors() throws {
        try withTempDir { dir in
            let missing = dir.full("missing.md")
            #expect(throws: FileIOError.system(path: missing, operation: "open", code: ENOENT)) {
                try FileIO().read(missing)
            }
            try dir.write("big.md", String(repeating: "x", count: 100))
            var io = FileIO()
            io.maximumFileSize = 10
            #expect(throws: FileIOError.tooLarge(path: dir.full("big.md"), size: 100)) {
                try io.read(dir.full("big.md"))
            }
            let (bytes, stamp) = try FileIO().read(dir.full("big.md"))
            #expect(bytes.count == 100)
            #expect(stamp.size == 100)
            #expect(stamp.isRegularFile)
        }
    }

    /// A regular file takes one `read`; one that grew after `fstat` is still read to its end, and
    /// so is one whose reads come back short before its end.
    @Test func readsTakeOneCallAndStillReachTheEnd() throws {
        try withTempDir { dir in
            let text = String(repeating: "abcdefgh", count: 1000)
            try dir.write("note.md", text)
            let reads = Box()
            var counted = SystemCalls.live
            let live = SystemCalls.live
            counted.read = { fd, buffer, count in _ = reads.next(); return live.read(fd, buffer, count) }
            #expect(try FileIO(sys: counted).read(dir.full("note.md")).bytes == Array(text.utf8))
            #expect(reads.next() == 2)

            // fstat saw 10 bytes, the file holds 8,000: read on until end-of-file.
            var stale = SystemCalls.live
            stale.fstat = { fd, st in
                let r = live.fstat(fd, st)
                st.pointee.st_size = 10
                return r
            }
            #expect(try FileIO(sys: stale).read(dir.full("note.md")).bytes == Array(text.utf8))

        }
    }

    @Test func makeDirectoriesMakesParents() throws {
        try withTempDir { dir in
            try FileIO().makeDirectories(dir.full("a/b/c"))
            try FileIO().makeDirectories(dir.full("a/b/c"))
            #expect(FileIO().stamp(dir.full("a/b/c"))?.isDirectory == true)
        }
    }

    @Test func errorDescriptions() {
        #expect(FileIOError.changedOnDisk(path: "a.md").description
            == "a.md: the file changed on disk since it was read; not overwritten (run the command again)")
        #expect(FileIOError.system(path: "a.md", operation: "write", code: ENOSPC).description
            == "a.md: write failed: No space left on device")
        #expect(FileIOError.tooLarge(path: "a.md", size: 9).description == "a.md: file too large (9 bytes)")
    }

    @Test func linesBackwardInAnyBlockSize() throws {
        try withTempDir { dir in
            let texts = ["", "one", "one\n", "one\ntwo", "a\n\nbc\r\ndef\n", "\n", "x\ny\nz\n\n", "long line here\nshort\n"]
            for text in texts {
                try dir.write("log", text)
                var expected = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self) }
                if text.hasSuffix("\n") || text.isEmpty { expected.removeLast() }
                for blockSize in [1, 2, 3, 5, 64 << 10] {
                    var lines: [String] = []
                    try FileIO().scanLinesBackward(dir.full("log"), blockSize: blockSize) { line in
                        lines.append(String(decoding: line, as: UTF8.self))
                        return false
                    }
                    #expect(lines == expected.reversed(), "\(text.debugDescription) in blocks of \(blockSize)")
                }
            }
            // Stopping early reads no further.
            try dir.write("log", "a\nb\nc\n")
            var seen: [String] = []
            try FileIO().scanLinesBackward(dir.full("log"), blockSize: 2) { line in
                seen.append(String(decoding: line, as: UTF8.self))
                return seen.count == 2
            }
            #expect(seen == ["c", "b"])
            #expect(throws: FileIOError.self) { try FileIO().scanLinesBackward(dir.full("missing")) { _ in false } }
            let failing = failing { $0.pread = { _, _, _, _ in errno = EIO; return -1 } }
            #expect(throws: FileIOError.system(path: dir.full("log"), operation: "read", code: EIO)) {
                try failing.scanLinesBackward(dir.full("log")) { _ in false }
            }
        }
    }
}
