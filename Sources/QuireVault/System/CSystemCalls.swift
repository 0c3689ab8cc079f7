internal import CSystem

/// The calls of the `CSystem` shim, so that only this file imports it.
enum CSystemCalls {
    static let renameNoReplace = UInt32(QUIRE_RENAME_NOREPLACE)
    static let renameExchange = UInt32(QUIRE_RENAME_EXCHANGE)

    /// `renameat2` on two paths (relative to the working folder).
    static func renameat2(_ from: String, _ to: String, _ flags: UInt32) -> Int32 {
        quire_renameat2(AT_FDCWD, from, AT_FDCWD, to, flags)
    }

    /// `flock`.
    static func flock(_ fd: Int32, _ operation: Int32) -> Int32 { quire_flock(fd, operation) }
}
