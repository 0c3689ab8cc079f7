internal import CLinux

/// The calls of the `CLinux` shim, so that only this file imports it.
enum CLinuxCalls {
    static let renameNoReplace = UInt32(QUIRE_RENAME_NOREPLACE)
    static let renameExchange = UInt32(QUIRE_RENAME_EXCHANGE)

    /// `renameat2` on two paths (relative to the working folder).
    static func renameat2(_ from: String, _ to: String, _ flags: UInt32) -> Int32 {
        quire_renameat2(AT_FDCWD, from, AT_FDCWD, to, flags)
    }

    /// `syncfs`: every dirty file of the file system holding `fd` flushed.
    static func syncfs(_ fd: Int32) -> Int32 { quire_syncfs(fd) }

    /// `flock`.
    static func flock(_ fd: Int32, _ operation: Int32) -> Int32 { quire_flock(fd, operation) }

    /// Takes a write lease on an open file (see the shim); true when granted. The first call makes
    /// SIGIO ignored unless the program handles it.
    static func takeWriteLease(_ fd: Int32) -> Bool {
        _ = ignoreLeaseSignal
        return quire_set_lease(fd, Int32(F_WRLCK)) == 0
    }

    /// Whether no one has begun to open the file for writing since the write lease was taken (an
    /// open for reading only asks the lease down to a read lease: no write can come through it).
    static func writeLeaseHeld(_ fd: Int32) -> Bool {
        let lease = quire_get_lease(fd)
        return lease == Int32(F_WRLCK) || lease == Int32(F_RDLCK)
    }

    /// Releases a lease.
    static func releaseLease(_ fd: Int32) { _ = quire_set_lease(fd, Int32(F_UNLCK)) }

    private static let ignoreLeaseSignal: Void = quire_ignore_sigio_unless_handled()
}
