#if canImport(Glibc)
import Glibc
#endif

/// A plain pthread mutex.
final class Mutex: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        pointer = .allocate(capacity: 1)
        pthread_mutex_init(pointer, nil)
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deallocate()
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(pointer)
        defer { pthread_mutex_unlock(pointer) }
        return try body()
    }
}

/// Facts about the machine.
enum System {
    /// Online processor count.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
