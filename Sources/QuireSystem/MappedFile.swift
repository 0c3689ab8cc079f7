#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped into memory read-only, whole, for reading in place (the search index's
/// vectors): opened without following a final link and without blocking on a FIFO, refused unless
/// regular, unmapped when the last reference goes. The mapping is private: a replacement of the
/// file on disk (Quire renames a new one over it) does not change what it reads.
package final class MappedFile: @unchecked Sendable {
    // Sendable: the mapping is read-only and never changes while it exists.
    package let path: String
    /// The file's bytes.
    package let bytes: UnsafeRawBufferPointer

    /// Maps `path`; a missing file is ``FileIOError/isNotFound``, an empty one maps to no bytes.
    package init(path: String, io: FileIO = FileIO()) throws(FileIOError) {
        let fd = io.sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)
        guard fd >= 0 else { throw .system(path: path, operation: "open", code: currentErrno) }
        defer { _ = io.sys.close(fd) }
        var st = stat()
        guard io.sys.fstat(fd, &st) == 0 else { throw .system(path: path, operation: "stat", code: currentErrno) }
        if let kind = FileIOError.kind(ofMode: UInt32(st.st_mode)) { throw .notRegularFile(path: path, kind: kind) }
        self.path = path
        let size = Int(st.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .system(path: path, operation: "mmap", code: currentErrno)
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
