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
    /// The path names a FIFO, a device, a socket or a folder where a regular file was expected;
    /// it was not read (a FIFO would block, a device never end).
    case notRegularFile(path: String, kind: String)
    /// The path's last part is a symbolic link, which Quire does not follow there.
    case symbolicLink(path: String)
    /// A write found the file different from what it read, then could not put the other
    /// program's version back; both versions are kept, the other one at `kept`.
    case conflictKept(path: String, kept: String)
    /// Another process held the vault's write lock for longer than the timeout.
    case locked(path: String, holder: Int32?, seconds: Double)
    /// A path that the vault or its log gives is not a plain relative path to a note inside the
    /// vault (`..`, an absolute path, a hidden folder, a link out); it was not opened.
    case unsafePath(path: String, reason: String)

    public var description: String {
        switch self {
        case .system(let path, let op, let code): "\(path): \(op) failed: \(errnoMessage(code))"
        case .changedOnDisk(let path):
            "\(path): the file changed on disk since it was read; not overwritten (run the command again)"
        case .tooLarge(let path, let size): "\(path): file too large (\(size) bytes)"
        case .notRegularFile(let path, let kind): "\(path): is a \(kind), not a regular file; not read"
        case .symbolicLink(let path): "\(path): is a symbolic link; not followed"
        case .conflictKept(let path, let kept):
            "\(path): changed on disk while being written; the other program's version is kept as \(kept)"
        case .locked(let path, let holder, let seconds):
            "\(path): another quire\(holder.map { " (process \($0))" } ?? "") has been writing this vault for "
                + "\(Int(seconds)) s; nothing written (try again, or set QUIRE_LOCK_TIMEOUT)"
        case .unsafePath(let path, let reason): "\(path): \(reason); not opened"
        }
    }

    /// What a file of this `st_mode` is, in words, or nil for a regular file.
    static package func kind(ofMode mode: UInt32) -> String? {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): nil
        case UInt32(S_IFDIR): "folder"
        case UInt32(S_IFIFO): "FIFO"
        case UInt32(S_IFCHR), UInt32(S_IFBLK): "device"
        case UInt32(S_IFSOCK): "socket"
        case UInt32(S_IFLNK): "symbolic link"
        default: "special file"
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

    /// Opens a regular file for reading without following a final symbolic link and without
    /// blocking on a FIFO; anything but a regular file is refused.
    func openRegular(_ path: String) throws(FileIOError) -> (fd: Int32, stat: stat) {
        var fd = sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)
        // A regular file under another writer's lease (see `swapIn`) refuses a non-blocking open
        // for the moment the lease is held; a FIFO or device never answers so: wait for it.
        if fd < 0, currentErrno == EWOULDBLOCK { fd = sys.open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY, 0) }
        guard fd >= 0 else {
            let code = currentErrno
            if code == ELOOP { throw .symbolicLink(path: path) }
            throw .system(path: path, operation: "open", code: code)
        }
        var st = stat()
        guard sys.fstat(fd, &st) == 0 else {
            let code = currentErrno
            _ = sys.close(fd)
            throw .system(path: path, operation: "stat", code: code)
        }
        if let kind = FileIOError.kind(ofMode: UInt32(st.st_mode)) {
            _ = sys.close(fd)
            throw .notRegularFile(path: path, kind: kind)
        }
        return (fd, st)
    }

    /// Reads a whole regular file and the stamp of the version read. A final symbolic link is not
    /// followed, and a FIFO, device or folder is refused (``FileIOError/notRegularFile(path:kind:)``).
    public func read(_ path: String) throws(FileIOError) -> (bytes: [UInt8], stamp: FileStamp) {
        let (fd, st) = try openRegular(path)
        defer { _ = sys.close(fd) }
        let stamp = FileStamp(st)
        guard stamp.size <= maximumFileSize else { throw .tooLarge(path: path, size: stamp.size) }
        let bytes = try readAll(fd, path: path, sizeHint: Int(stamp.size))
        guard bytes.count <= maximumFileSize else { throw .tooLarge(path: path, size: Int64(bytes.count)) }
        return (bytes, stamp)
    }

    /// Reads an open regular file from its current offset to its end.
    func readAll(_ fd: Int32, path: String, sizeHint: Int) throws(FileIOError) -> [UInt8] {
        // One byte more than the file holds, so that the read seeing end-of-file needs no growth;
        // read into storage not zeroed first (a long log is 100 MB and more).
        var failure: Int32?
        var bytes = [UInt8](unsafeUninitializedCapacity: sizeHint + 1) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < buffer.count {
                let n = sys.read(fd, base + initialized, buffer.count - initialized)
                if n < 0 {
                    if currentErrno == EINTR { continue }
                    failure = currentErrno
                    return
                }
                if n == 0 { return }
                initialized += n
                // A regular file reads short only at its end: no second read just to see end-of-file.
                if initialized < buffer.count { return }
            }
        }
        if let failure { throw .system(path: path, operation: "read", code: failure) }
        var filled = bytes.count
        // Only a file that grew since fstat fills the room: then read on to its end, up to the
        // size limit.
        var full = filled == sizeHint + 1
        while full, Int64(filled) <= maximumFileSize {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count / 2))) }
            let n = bytes.withUnsafeMutableBytes { buf in
                sys.read(fd, buf.baseAddress.map { $0 + filled }, buf.count - filled)
            }
            if n < 0 {
                if currentErrno == EINTR { continue }
                throw .system(path: path, operation: "read", code: currentErrno)
            }
            filled += n
            full = filled == bytes.count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Hands a file's lines to `body` from the last to the first (without their `\n`), reading
    /// blocks from the end, until `body` returns true; a file's last line break starts no line.
    ///
    /// For logs, whose newest lines are at the end: finding a recent line costs one block read,
    /// however long the file.
    public func scanLinesBackward(_ path: String, blockSize: Int = 64 << 10,
                                  _ body: (ArraySlice<UInt8>) -> Bool) throws(FileIOError) {
        let (fd, st) = try openRegular(path)
        defer { _ = sys.close(fd) }
        var position = Int64(st.st_size)
        // The earliest line seen so far, not yet known to be whole: its pieces, last piece first.
        // Kept as pieces so that a line spanning many blocks costs its length once, not once per
        // block.
        var pieces: [[UInt8]] = []
        var atEnd = true
        func line(_ first: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            guard !pieces.isEmpty else { return first }
            var whole = [UInt8]()
            whole.reserveCapacity(first.count + pieces.reduce(0) { $0 + $1.count })
            whole += first
            for piece in pieces.reversed() { whole += piece }
            pieces.removeAll()
            return whole[...]
        }
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
            var end = block.count
            if atEnd, end > 0, block[end - 1] == 0x0A { end -= 1 }
            atEnd = false
            while let newline = block[..<end].lastIndex(of: 0x0A) {
                if body(line(block[(newline + 1)..<end])) { return }
                end = newline
            }
            if end > 0 { pieces.append(Array(block[..<end])) }
        }
        if !atEnd { _ = body(line([][...])) }
    }

    /// `root/relative`, after checking that no folder of `relative` on the way to its last part —
    /// and the last part too when `lastIsFolder` — is a symbolic link or anything but a folder
    /// (missing ones are allowed: they are made later).
    public func pathWithoutLinkedFolders(_ root: String, _ relative: String,
                                         lastIsFolder: Bool = false) throws(FileIOError) -> String {
        var current = root
        let parts = relative.split(separator: "/")
        for part in lastIsFolder ? parts[...] : parts.dropLast() {
            current += "/" + part
            guard let s = linkStamp(current) else { continue }
            if s.isSymbolicLink { throw .symbolicLink(path: current) }
            if !s.isDirectory {
                throw .notRegularFile(path: current, kind: FileIOError.kind(ofMode: s.mode) ?? "file")
            }
        }
        return root + "/" + relative
    }

    /// The stamp of `name` in the folder open as `folder` (following a final symbolic link), or nil.
    public func stamp(in folder: Int32, _ name: String) -> FileStamp? {
        var st = stat()
        guard sys.fstatat(folder, name, &st, 0) == 0 else { return nil }
        return FileStamp(st)
    }

    /// The stamp of a path (following symbolic links), or nil when it does not exist.
    public func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        return sys.stat(path, &st) == 0 ? FileStamp(st) : nil
    }

    /// The stamp of a path itself (not following a final symbolic link).
    public func linkStamp(_ path: String) -> FileStamp? {
        var st = stat()
        return sys.lstat(path, &st) == 0 ? FileStamp(st) : nil
    }

    /// How many names the file at `path` has (its hard links; not following a final symbolic
    /// link), or nil when there is none.
    public func linkCount(_ path: String) -> Int? {
        var st = stat()
        return sys.lstat(path, &st) == 0 ? Int(st.st_nlink) : nil
    }

    /// Creates the new file `path` holding `bytes` — never over an existing one, never through a
    /// link — without syncing it: for a staging folder of Quire's own, whose files are made durable
    /// together by ``syncFileSystem(containing:)`` (one flush instead of one per file). A partly
    /// written file is removed.
    public func createNew(_ path: String, with bytes: [UInt8]) throws(FileIOError) {
        let fd = sys.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw currentErrno == EEXIST ? .changedOnDisk(path: path) : .system(path: path, operation: "create", code: currentErrno)
        }
        if let code = writeAll(fd, bytes) {
            _ = sys.close(fd)
            _ = sys.unlink(path)
            throw .system(path: path, operation: "write", code: code)
        }
        guard sys.close(fd) == 0 else {
            let code = currentErrno
            _ = sys.unlink(path)
            throw .system(path: path, operation: "close", code: code)
        }
    }

    /// Makes every file and folder written so far on the file system holding `path` durable
    /// (`syncfs`): after it, renames of staged files move durable bytes.
    public func syncFileSystem(containing path: String) throws(FileIOError) {
        let fd = sys.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        defer { _ = sys.close(fd) }
        guard CLinuxCalls.syncfs(fd) == 0 else { throw .system(path: path, operation: "syncfs", code: currentErrno) }
    }

    /// Makes one file or folder durable (`fsync`), not following a link.
    public func syncFile(_ path: String) throws(FileIOError) {
        let fd = sys.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        defer { _ = sys.close(fd) }
        guard sys.fsync(fd) == 0 else { throw .system(path: path, operation: "fsync", code: currentErrno) }
    }

    /// Removes a file (not a folder); false when it could not be.
    @discardableResult
    public func removeFile(_ path: String) -> Bool { sys.unlink(path) == 0 }

    /// Removes an empty folder; false when it could not be (not empty, missing).
    @discardableResult
    public func removeEmptyFolder(_ path: String) -> Bool { rmdir(path) == 0 }

    /// Removes `path` and, when it is a folder (not a link to one), everything in it: links are
    /// removed, never followed. False when something could not be removed.
    @discardableResult
    public func removeTree(_ path: String) -> Bool {
        guard let stamp = linkStamp(path) else { return false }
        guard stamp.isDirectory else { return removeFile(path) }
        for name in names(in: path) ?? [] where name != "." && name != ".." { removeTree(path + "/" + name) }
        return removeEmptyFolder(path)
    }

    /// Moves a file from `source` to `path` in one rename, unless something is at `path`: then
    /// ``FileIOError/changedOnDisk(path:)`` is thrown and `source` is removed (a staged copy).
    public func moveNoReplace(_ source: String, to path: String) throws(FileIOError) {
        try renameNoReplace(source, path)
    }

    /// Renames `temp` to `path` unless something is at `path` (then the temporary file is
    /// removed and ``FileIOError/changedOnDisk(path:)`` thrown).
    func renameNoReplace(_ temp: String, _ path: String) throws(FileIOError) {
        if sys.renameWithFlags(temp, path, .noReplace) == 0 { return }
        let code = currentErrno
        if code == EEXIST {
            _ = sys.unlink(temp)
            throw .changedOnDisk(path: path)
        }
        guard code == EINVAL || code == ENOSYS || code == ENOTSUP else {
            _ = sys.unlink(temp)
            throw .system(path: path, operation: "rename", code: code)
        }
        // No RENAME_NOREPLACE here: a hard link fails when the name exists, atomically.
        guard link(temp, path) == 0 else {
            let code = currentErrno
            _ = sys.unlink(temp)
            throw code == EEXIST ? .changedOnDisk(path: path) : .system(path: path, operation: "rename", code: code)
        }
        _ = sys.unlink(temp)
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

        /// Appends bytes in place (a large array's, without a copy).
        public func write(_ bytes: UnsafeRawBufferPointer) throws(FileIOError) {
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
    /// folder and the descriptor. Temporary files that killed processes left in the folder are
    /// removed first (see ``TemporaryFiles``).
    func createTemporary(for path: String, mode: mode_t) throws(FileIOError) -> (temp: String, dir: String, fd: Int32) {
        let dir = Self.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        TemporaryFiles.removeLeftovers(in: dir, io: self)
        let temp = dir + "/" + TemporaryFiles.name(for: name, pid: getpid(), random: UInt32.random(in: 0...UInt32.max))
        let fd = sys.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw .system(path: path, operation: "create temporary file", code: currentErrno) }
        return (temp, dir, fd)
    }

    /// Writes `bytes` to a new temporary file beside `path`, fsyncs and closes it; returns its
    /// path and the folder. On failure the temporary file is removed.
    func writeTemporary(for path: String, _ bytes: [UInt8], mode: mode_t) throws(FileIOError) -> (temp: String, dir: String) {
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
    ///
    /// A final symbolic link is not followed, and only a regular file is appended to. A file that
    /// does not end in a line break (a torn write, a hand edit) gets one first, so the new bytes
    /// start a line of their own. When writing or fsyncing fails (a full disk), the file is cut
    /// back to the length it had, so no partial line is left.
    public func append(_ path: String, _ bytes: [UInt8], sync: Bool = true) throws(FileIOError) {
        // Read and write: the last byte is read to see whether it ends a line.
        var fd = sys.open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        if fd < 0, currentErrno == EWOULDBLOCK { fd = sys.open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NOCTTY, 0o644) }
        guard fd >= 0 else {
            let code = currentErrno
            throw code == ELOOP ? .symbolicLink(path: path) : .system(path: path, operation: "open", code: code)
        }
        defer { _ = sys.close(fd) }
        var st = stat()
        guard sys.fstat(fd, &st) == 0 else { throw .system(path: path, operation: "stat", code: currentErrno) }
        if let kind = FileIOError.kind(ofMode: UInt32(st.st_mode)) { throw .notRegularFile(path: path, kind: kind) }
        let length = Int64(st.st_size)
        var data = bytes
        if length > 0 {
            var last: UInt8 = 0
            let n = withUnsafeMutableBytes(of: &last) { sys.pread(fd, $0.baseAddress, 1, length - 1) }
            if n == 1, last != 0x0A { data.insert(0x0A, at: 0) }
        }
        func cutBack(_ operation: String, _ code: Int32) -> FileIOError {
            _ = sys.ftruncate(fd, length)
            return .system(path: path, operation: operation, code: code)
        }
        if let code = writeAll(fd, data) { throw cutBack("write", code) }
        guard !sync || sys.fsync(fd) == 0 else { throw cutBack("fsync", currentErrno) }
    }

    /// Writes every byte, retrying short writes and interrupted calls; returns the `errno` of a
    /// failure (EIO when the system wrote nothing), or nil.
    fileprivate func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes every byte of `bytes` to `fd`; the errno of a failure, else nil.
    fileprivate func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var written = 0
        while written < bytes.count {
            let n = sys.write(fd, bytes.baseAddress.map { $0 + written }, bytes.count - written)
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
    static package func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
