#if canImport(Glibc)
import Glibc
#endif

/// Errors from reading and writing vault files.
public enum FileIOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed.
    case system(path: String, operation: String, code: Int32)
    /// The file changed on disk since Quire read it; nothing was written.
    case changedOnDisk(path: String)
    /// The file is larger than Quire reads.
    case tooLarge(path: String, size: Int64)

    public var description: String {
        switch self {
        case .system(let path, let op, let code): "\(path): \(op) failed: \(errnoMessage(code))"
        case .changedOnDisk(let path):
            "\(path): the file changed on disk since it was read; not overwritten (run the command again)"
        case .tooLarge(let path, let size): "\(path): file too large (\(size) bytes)"
        }
    }
}

/// Reading whole files and replacing them atomically, through ``SystemCalls``.
public struct FileIO: Sendable {
    /// The system calls used.
    public var sys: SystemCalls

    /// Files above this size are refused (a note this large is almost surely not a note).
    public var maximumFileSize: Int64 = 512 << 20

    /// Creates a file layer over the given system calls.
    public init(sys: SystemCalls = .live) { self.sys = sys }

    /// Reads a whole file and the stamp of the version read.
    public func read(_ path: String) throws(FileIOError) -> (bytes: [UInt8], stamp: FileStamp) {
        let fd = sys.open(path, O_RDONLY, 0)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        defer { _ = sys.close(fd) }
        var st = stat()
        guard sys.fstat(fd, &st) == 0 else { throw .system(path: path, operation: "stat", code: currentErrno) }
        let stamp = FileStamp(st)
        guard stamp.size <= maximumFileSize else { throw .tooLarge(path: path, size: stamp.size) }
        let regular = st.st_mode & S_IFMT == S_IFREG
        // One byte more than the file holds, so that the read seeing end-of-file needs no growth.
        var bytes = [UInt8](repeating: 0, count: Int(stamp.size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                // The file may have grown since fstat; keep reading until EOF.
                bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count / 2)))
            }
            let n = bytes.withUnsafeMutableBytes { buf in
                sys.read(fd, buf.baseAddress.map { $0 + filled }, buf.count - filled)
            }
            if n < 0 {
                if currentErrno == EINTR { continue }
                throw .system(path: path, operation: "read", code: currentErrno)
            }
            if n == 0 { break }
            filled += n
            // A regular file reads short only at its end: no second read just to see end-of-file.
            if regular, filled < bytes.count { break }
        }
        bytes.removeLast(bytes.count - filled)
        return (bytes, stamp)
    }

    /// Hands a file's lines to `body` from the last to the first (without their `\n`), reading
    /// blocks from the end, until `body` returns true; a file's last line break starts no line.
    ///
    /// For logs, whose newest lines are at the end: finding a recent line costs one block read,
    /// however long the file.
    public func scanLinesBackward(_ path: String, blockSize: Int = 64 << 10,
                                  _ body: (ArraySlice<UInt8>) -> Bool) throws(FileIOError) {
        let fd = sys.open(path, O_RDONLY, 0)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        defer { _ = sys.close(fd) }
        var st = stat()
        guard sys.fstat(fd, &st) == 0 else { throw .system(path: path, operation: "stat", code: currentErrno) }
        var position = Int64(st.st_size)
        // The start of the earliest line seen so far, not yet known to be whole.
        var head: [UInt8] = []
        var atEnd = true
        while position > 0 {
            let count = Int(min(Int64(max(1, blockSize)), position))
            position -= Int64(count)
            var block = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let n = block.withUnsafeMutableBytes { buf in
                    sys.pread(fd, buf.baseAddress.map { $0 + filled }, count - filled, position + Int64(filled))
                }
                if n < 0, currentErrno == EINTR { continue }
                guard n > 0 else { throw .system(path: path, operation: "read", code: n < 0 ? currentErrno : EIO) }
                filled += n
            }
            block += head
            var end = block.count
            if atEnd, end > 0, block[end - 1] == 0x0A { end -= 1 }
            atEnd = false
            while let newline = block[..<end].lastIndex(of: 0x0A) {
                if body(block[(newline + 1)..<end]) { return }
                end = newline
            }
            head = Array(block[..<end])
        }
        if !atEnd { _ = body(head[...]) }
    }

    /// The stamp of a path (following symbolic links), or nil when it does not exist.
    /// The stamp of `name` in the folder open as `folder` (following a final symbolic link), or nil.
    public func stamp(in folder: Int32, _ name: String) -> FileStamp? {
        var st = stat()
        guard sys.fstatat(folder, name, &st, 0) == 0 else { return nil }
        return FileStamp(st)
    }

    public func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        return sys.stat(path, &st) == 0 ? FileStamp(st) : nil
    }

    /// The stamp of a path itself (not following a final symbolic link).
    public func linkStamp(_ path: String) -> FileStamp? {
        var st = stat()
        return sys.lstat(path, &st) == 0 ? FileStamp(st) : nil
    }

    /// Replaces a file's content atomically: writes a temporary file beside it, fsyncs it, keeps the
    /// original's permission bits, and renames it over the original, then fsyncs the folder.
    ///
    /// - Parameters:
    ///   - path: the file to replace (or create, when `expected` is nil and it does not exist).
    ///   - bytes: the new content.
    ///   - expected: the bytes the caller read and edited; when the file on disk no longer holds
    ///     exactly these, nothing is written and ``FileIOError/changedOnDisk(path:)`` is thrown.
    /// - Throws: ``FileIOError``; on any failure the original file is untouched and the temporary
    ///   file is removed.
    public func replace(_ path: String, with bytes: [UInt8], expected: [UInt8]?) throws(FileIOError) {
        var mode: mode_t = 0o644
        if let expected {
            let current: [UInt8]
            let stamp: FileStamp
            do { (current, stamp) = try read(path) } catch { throw .changedOnDisk(path: path) }
            guard current == expected else { throw .changedOnDisk(path: path) }
            mode = mode_t(stamp.mode & 0o7777)
        } else if stamp(path) != nil {
            throw .changedOnDisk(path: path)
        }
        let (temp, dir) = try writeTemporary(for: path, bytes, mode: mode)
        // Last check right before the rename, to narrow the window for a concurrent editor.
        if let expected {
            let now = try? read(path).bytes
            guard now == expected else {
                _ = sys.unlink(temp)
                throw .changedOnDisk(path: path)
            }
        }
        guard sys.rename(temp, path) == 0 else {
            let code = currentErrno
            _ = sys.unlink(temp)
            throw .system(path: path, operation: "rename", code: code)
        }
        let dfd = sys.open(dir, O_RDONLY | O_DIRECTORY, 0)
        if dfd >= 0 {
            _ = sys.fsync(dfd)
            _ = sys.close(dfd)
        }
    }

    /// Starts replacing a file atomically whatever it holds (for Quire's own derived files, such
    /// as the index cache), writing its content in pieces: readers see the old file until
    /// ``TemporaryFile/commit()`` renames the new one over it. Not fsynced: such a file is checked
    /// when read and rebuilt when damaged.
    public func overwriting(_ path: String) throws(FileIOError) -> TemporaryFile {
        let (temp, _, fd) = try createTemporary(for: path, mode: 0o644)
        return TemporaryFile(io: self, fd: fd, temp: temp, path: path)
    }

    /// A file being written beside the one it will replace; removed unless committed.
    public final class TemporaryFile {
        private let io: FileIO
        private var fd: Int32
        private let temp: String
        private let path: String

        fileprivate init(io: FileIO, fd: Int32, temp: String, path: String) {
            self.io = io
            self.fd = fd
            self.temp = temp
            self.path = path
        }

        /// Appends bytes.
        public func write(_ bytes: [UInt8]) throws(FileIOError) {
            if let code = io.writeAll(fd, bytes) { throw .system(path: path, operation: "write", code: code) }
        }

        /// Closes the file and renames it over the destination.
        public func commit() throws(FileIOError) {
            let result = io.sys.close(fd)
            fd = -1
            guard result == 0 else { throw .system(path: path, operation: "close", code: currentErrno) }
            guard io.sys.rename(temp, path) == 0 else { throw .system(path: path, operation: "rename", code: currentErrno) }
        }

        deinit {
            if fd >= 0 { _ = io.sys.close(fd) }
            var st = stat()
            if io.sys.lstat(temp, &st) == 0 { _ = io.sys.unlink(temp) }
        }
    }

    /// Creates a new temporary file beside `path`, open for writing; returns its path, the
    /// folder and the descriptor.
    private func createTemporary(for path: String, mode: mode_t) throws(FileIOError) -> (temp: String, dir: String, fd: Int32) {
        let dir = Self.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temp = dir + "/." + name + ".quire-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = sys.open(temp, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw .system(path: path, operation: "create temporary file", code: currentErrno) }
        return (temp, dir, fd)
    }

    /// Writes `bytes` to a new temporary file beside `path`, fsyncs and closes it; returns its
    /// path and the folder. On failure the temporary file is removed.
    private func writeTemporary(for path: String, _ bytes: [UInt8], mode: mode_t) throws(FileIOError) -> (temp: String, dir: String) {
        let (temp, dir, fd) = try createTemporary(for: path, mode: mode)
        var closed = false
        func fail(_ op: String, _ code: Int32) -> FileIOError {
            if !closed { _ = sys.close(fd) }
            _ = sys.unlink(temp)
            return .system(path: path, operation: op, code: code)
        }
        if let code = writeAll(fd, bytes) { throw fail("write", code) }
        guard sys.fchmod(fd, mode) == 0 else { throw fail("chmod", currentErrno) }
        guard sys.fsync(fd) == 0 else { throw fail("fsync", currentErrno) }
        let closeResult = sys.close(fd)
        closed = true
        guard closeResult == 0 else { throw fail("close", currentErrno) }
        return (temp, dir)
    }

    /// Appends bytes to a file (creating it), then fsyncs it unless `sync` is false.
    public func append(_ path: String, _ bytes: [UInt8], sync: Bool = true) throws(FileIOError) {
        let fd = sys.open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        defer { _ = sys.close(fd) }
        if let code = writeAll(fd, bytes) { throw .system(path: path, operation: "write", code: code) }
        guard !sync || sys.fsync(fd) == 0 else { throw .system(path: path, operation: "fsync", code: currentErrno) }
    }

    /// Writes every byte, retrying short writes and interrupted calls; returns the `errno` of a
    /// failure (EIO when the system wrote nothing), or nil.
    fileprivate func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                sys.write(fd, buf.baseAddress.map { $0 + written }, buf.count - written)
            }
            if n < 0 {
                if currentErrno == EINTR { continue }
                return currentErrno
            }
            if n == 0 { return EIO }
            written += n
        }
        return nil
    }

    /// Creates a directory and its missing parents.
    public func makeDirectories(_ path: String) throws(FileIOError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if let s = stamp(current), s.isDirectory { continue }
            if sys.mkdir(current, 0o755) != 0 && currentErrno != EEXIST {
                throw .system(path: current, operation: "mkdir", code: currentErrno)
            }
        }
    }

    /// The folder part of a path (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
