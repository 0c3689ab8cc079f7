#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A readers–writer lock (POSIX `pthread_rwlock`) that lives as long as the process: many readers
/// side by side, or one writer alone. With glibc, writers are preferred, so a steady stream of
/// readers cannot starve one.
public final class ReadersWriterLock: @unchecked Sendable {
    // Sendable: the lock is only touched through pthread calls, which are thread-safe.
    @usableFromInline let lock: UnsafeMutablePointer<pthread_rwlock_t>

    public init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the lock: alone when `exclusive`, else beside other readers. Inlined into
    /// the caller, so that `body` captures nothing by copy (the cmark parse runs inside it).
    @inlinable @inline(__always)
    public func withLock<R>(exclusive: Bool, _ body: () throws -> R) rethrows -> R {
        if exclusive { pthread_rwlock_wrlock(lock) } else { pthread_rwlock_rdlock(lock) }
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
