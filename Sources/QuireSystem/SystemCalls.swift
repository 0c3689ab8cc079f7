#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls Quire's file code goes through, so tests can inject failures (disk full, a
/// failing rename, a file changed underneath) and prove that nothing is lost.
///
/// Each member has the shape of the C call it stands for and returns -1 with `errno` set on failure.
public struct SystemCalls: Sendable {
    public var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    public var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
    public var pread: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int64) -> Int
    public var write: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int
    public var fsync: @Sendable (_ fd: Int32) -> Int32
    public var close: @Sendable (_ fd: Int32) -> Int32
    public var rename: @Sendable (_ from: String, _ to: String) -> Int32
    /// `renameat2` with ``RenameFlags``: swap two names, or rename only where nothing is in the
    /// way. Fails with ENOSYS or EINVAL where the kernel or the file system cannot.
    public var renameWithFlags: @Sendable (_ from: String, _ to: String, _ flags: RenameFlags) -> Int32
    /// `ftruncate`.
    public var ftruncate: @Sendable (_ fd: Int32, _ length: Int64) -> Int32
    /// `flock`.
    public var flock: @Sendable (_ fd: Int32, _ operation: Int32) -> Int32
    /// A write lease on an open file (`fcntl` F_SETLEASE/F_GETLEASE, Linux): `.take` is granted
    /// only while no other open file refers to it; `.check` tells whether no one has begun to open
    /// the file for writing since; `.release`. False where leases are not available.
    public var lease: @Sendable (_ fd: Int32, _ request: LeaseRequest) -> Bool
    public var unlink: @Sendable (_ path: String) -> Int32
    public var fchmod: @Sendable (_ fd: Int32, _ mode: mode_t) -> Int32
    public var fstat: @Sendable (_ fd: Int32, _ buf: UnsafeMutablePointer<stat>) -> Int32
    public var stat: @Sendable (_ path: String, _ buf: UnsafeMutablePointer<stat>) -> Int32
    public var lstat: @Sendable (_ path: String, _ buf: UnsafeMutablePointer<stat>) -> Int32
    /// `stat` of a name relative to an open folder (one lookup instead of a whole path's).
    public var fstatat: @Sendable (_ dirfd: Int32, _ name: String, _ buf: UnsafeMutablePointer<stat>, _ flags: Int32) -> Int32
    public var mkdir: @Sendable (_ path: String, _ mode: mode_t) -> Int32
    /// `inotify_init1`: a new inotify instance's file descriptor.
    public var inotifyInit1: @Sendable (_ flags: Int32) -> Int32
    /// `inotify_add_watch`: the watch descriptor for `path` (the existing one when the folder is
    /// already watched); fails with ENOSPC when the user's watch limit is reached.
    public var inotifyAddWatch: @Sendable (_ fd: Int32, _ path: String, _ mask: UInt32) -> Int32
    /// `inotify_rm_watch`.
    public var inotifyRmWatch: @Sendable (_ fd: Int32, _ wd: Int32) -> Int32
    /// `poll`: how many of the descriptors are ready, 0 on timeout (`timeout` in milliseconds,
    /// negative for none).
    public var poll: @Sendable (_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32

    /// The real system calls.
    public static let live = SystemCalls(
        open: { path, flags, mode in Glibc.open(path, flags | O_CLOEXEC, mode) },
        read: { fd, buf, n in Glibc.read(fd, buf, n) },
        pread: { fd, buf, n, offset in Glibc.pread(fd, buf, n, off_t(offset)) },
        write: { fd, buf, n in Glibc.write(fd, buf, n) },
        fsync: { fd in Glibc.fsync(fd) },
        close: { fd in Glibc.close(fd) },
        rename: { a, b in Glibc.rename(a, b) },
        renameWithFlags: { a, b, flags in CLinuxCalls.renameat2(a, b, flags.rawValue) },
        ftruncate: { fd, length in Glibc.ftruncate(fd, off_t(length)) },
        flock: { fd, op in CLinuxCalls.flock(fd, op) },
        lease: { fd, request in
            switch request {
            case .take: CLinuxCalls.takeWriteLease(fd)
            case .check: CLinuxCalls.writeLeaseHeld(fd)
            case .release: { CLinuxCalls.releaseLease(fd); return true }()
            }
        },
        unlink: { p in Glibc.unlink(p) },
        fchmod: { fd, m in Glibc.fchmod(fd, m) },
        fstat: { fd, b in Glibc.fstat(fd, b) },
        stat: { p, b in systemStat(p, b) },
        lstat: { p, b in systemLstat(p, b) },
        fstatat: { fd, name, b, flags in Glibc.fstatat(fd, name, b, flags) },
        mkdir: { p, m in Glibc.mkdir(p, m) },
        inotifyInit1: { flags in Glibc.inotify_init1(flags) },
        inotifyAddWatch: { fd, p, mask in Glibc.inotify_add_watch(fd, p, mask) },
        inotifyRmWatch: { fd, wd in Glibc.inotify_rm_watch(fd, wd) },
        poll: { fds, n, timeout in Glibc.poll(fds, n, timeout) }
    )
}

/// What ``SystemCalls/lease`` is asked.
public enum LeaseRequest: Sendable {
    case take, check, release
}

/// The flags of `renameat2`.
public struct RenameFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Fail with EEXIST when the destination exists.
    public static let noReplace = RenameFlags(rawValue: CLinuxCalls.renameNoReplace)
    /// Swap the two names atomically (both must exist).
    public static let exchange = RenameFlags(rawValue: CLinuxCalls.renameExchange)
}

private func systemStat(_ path: String, _ buf: UnsafeMutablePointer<stat>) -> Int32 {
    let result: Int32 = stat(path, buf)
    return result
}

private func systemLstat(_ path: String, _ buf: UnsafeMutablePointer<stat>) -> Int32 {
    let result: Int32 = lstat(path, buf)
    return result
}

/// The current thread's `errno`.
package var currentErrno: Int32 { errno }

/// A readable message for an `errno` value.
package func errnoMessage(_ code: Int32) -> String {
    guard let cString = strerror(code) else { return "error \(code)" }
    return String(cString: cString)
}
