#if canImport(Glibc)
import Glibc
#endif

/// The scheduling priority of the calling thread (Linux keeps a niceness per thread).
package enum ThreadPriority {
    /// Gives the calling thread the lowest priority (niceness 19), so that work in the background
    /// (vectors computed while `quire watch` runs) yields to everything else; returns the
    /// niceness it now has.
    @discardableResult
    package static func lowerCurrent() -> Int32 {
        // On Linux, PRIO_PROCESS with 0 names the calling thread alone.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        return current()
    }

    /// The calling thread's niceness.
    package static func current() -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
