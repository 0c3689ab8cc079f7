#if canImport(Glibc)
import Glibc
#endif

/// What identifies one version of a file on disk: size, modification time, change time and inode.
///
/// The change time is what an in-place edit cannot set back: a program that writes a file keeping
/// its size and restores its modification time (`touch -r`, some sync tools) still moves it (git
/// compares it for the same reason).
///
/// Two reads with equal stamps are assumed to see the same bytes; before overwriting a file Quire
/// also compares the bytes themselves.
public struct FileStamp: Hashable, Sendable, Codable {
    public var size: Int64
    public var mtimeNanoseconds: Int64
    /// The inode's change time (`st_ctim`), in nanoseconds; 0 where not known.
    public var ctimeNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64
    public var mode: UInt32

    /// Creates a stamp from raw values.
    public init(size: Int64, mtimeNanoseconds: Int64, ctimeNanoseconds: Int64 = 0, inode: UInt64, device: UInt64,
                mode: UInt32) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.ctimeNanoseconds = ctimeNanoseconds
        self.inode = inode
        self.device = device
        self.mode = mode
    }

    package init(_ st: stat) {
        size = Int64(st.st_size)
        mtimeNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        ctimeNanoseconds = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        inode = UInt64(st.st_ino)
        device = UInt64(st.st_dev)
        mode = UInt32(st.st_mode)
    }

    /// Whether the stamp describes a directory.
    public var isDirectory: Bool { (mode & UInt32(S_IFMT)) == UInt32(S_IFDIR) }
    /// Whether the stamp describes a regular file.
    public var isRegularFile: Bool { (mode & UInt32(S_IFMT)) == UInt32(S_IFREG) }
    /// Whether the stamp describes a symbolic link (from `lstat`).
    public var isSymbolicLink: Bool { (mode & UInt32(S_IFMT)) == UInt32(S_IFLNK) }
}
