#if canImport(Glibc)
import Glibc
#endif

/// A regular file held open for reads at offsets, from several threads at once (the index cache):
/// opened without following a final link and without blocking on a FIFO, refused unless regular, and
/// closed when the last reference goes. A replacement of the file on disk does not change what it
/// reads.
package final class ReadOnlyFile: @unchecked Sendable {
    // Sendable: every stored property is immutable and `pread` needs no shared position.
    package let path: String
    /// The file's stamp when it was opened.
    package let stamp: FileStamp
    /// The open file (closed with this object).
    package let fd: Int32
    private let io: FileIO

    /// Opens `path`; a missing file is ``FileIOError/isNotFound``.
    package init(path: String, io: FileIO) throws(FileIOError) {
        let fd = io.sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        var st = stat()
        guard io.sys.fstat(fd, &st) == 0 else {
            let code = currentErrno
            _ = io.sys.close(fd)
            throw .system(path: path, operation: "stat", code: code)
        }
        if let kind = FileIOError.kind(ofMode: UInt32(st.st_mode)) {
            _ = io.sys.close(fd)
            throw .notRegularFile(path: path, kind: kind)
        }
        self.path = path
        self.fd = fd
        self.io = io
        stamp = FileStamp(st)
    }

    deinit { _ = io.sys.close(fd) }

    /// Up to `count` bytes from `offset`: fewer only where the file ends.
    package func read(at offset: Int64, count: Int) throws(FileIOError) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
            var filled = 0
            while filled < count {
                let n = io.sys.pread(fd, buf.baseAddress.map { UnsafeMutableRawPointer($0 + filled) }, count - filled,
                                     offset + Int64(filled))
                if n < 0, currentErrno == EINTR { continue }
                if n < 0 { failure = currentErrno; break }
                if n == 0 { break }
                filled += n
            }
            initialized = filled
        }
        if failure != 0 { throw .system(path: path, operation: "read", code: failure) }
        return bytes
    }
}

/// A folder held open so that the stamps of the notes in it are read by name (`fstatat`): one name
/// to look up, not a whole path, for each of many notes.
package struct FolderHandle {
    private let root: String
    private let io: FileIO
    /// The open folder, relative to the root; nil when none is open.
    private var path: Substring?
    private var fd: Int32 = -1

    package init(root: String, io: FileIO) {
        self.root = root
        self.io = io
    }

    /// The stamp of the note at `relativePath` (relative to the root).
    package mutating func stamp(of relativePath: String) -> FileStamp? {
        // Byte-wise: a Character search would segment graphemes.
        let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/"))
        let dir = slash.map { relativePath[..<$0] } ?? ""
        let name = slash.map { String(relativePath[relativePath.utf8.index(after: $0)...]) } ?? relativePath
        if dir != path {
            close()
            fd = io.sys.open(dir.isEmpty ? root : root + "/" + dir, O_RDONLY | O_DIRECTORY, 0)
            path = dir
        }
        guard fd >= 0 else { return io.stamp(root + "/" + relativePath) }
        return io.stamp(in: fd, name)
    }

    /// Closes the open folder, if any.
    package mutating func close() {
        if fd >= 0 { _ = io.sys.close(fd) }
        fd = -1
        path = nil
    }
}

extension FileIOError {
    /// Whether the error says the file does not exist.
    package var isNotFound: Bool {
        if case .system(_, _, let code) = self { return code == ENOENT }
        return false
    }

    /// A read or write of `path` that failed for a reason of Quire's own (a damaged file it reads
    /// from), reported as an I/O error.
    package static func inputOutput(path: String, operation: String) -> FileIOError {
        .system(path: path, operation: operation, code: EIO)
    }
}

/// The `errno` values modules above the system layer tell apart, so that they need no platform
/// module for them.
package enum SystemErrorCode {
    /// No space left on the device, or (for inotify) no watch left.
    package static let noSpace = ENOSPC
}
