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
        // Opened as every file Quire reads at offsets is; the mapping outlives the descriptor.
        let file = try ReadOnlyFile(path: path, io: io)
        self.path = path
        let size = Int(file.stamp.size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.fd, 0), base != MAP_FAILED else {
            throw .system(path: path, operation: "mmap", code: currentErrno)
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    /// Gives back the pages of `range` (byte offsets) this process holds, whole pages only: they
    /// stay in the system's page cache and are read again on the next access, but no longer
    /// count in the process's memory (a scan of a mapped file larger than the memory wanted).
    package func release(_ range: Range<Int>) {
        guard let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let clamped = range.clamped(to: 0..<bytes.count)
        // Whole pages within the range: rounded inward, so a neighbour's bytes stay put.
        let first = (clamped.lowerBound + page - 1) / page * page
        let end = clamped.upperBound == bytes.count ? clamped.upperBound : clamped.upperBound / page * page
        guard end > first else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + first), end - first, MADV_DONTNEED)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
