#if canImport(Glibc)
internal import Glibc
#endif

/// Serializes the part of a cmark-gfm parse that reads the inline parser's character tables.
///
/// cmark-gfm 0.29 keeps the tables of "special" characters in process globals, and each parse
/// switches its extensions' characters on (`~` for strikethrough, `|` for tables, `:` and `w` for
/// autolinks) and off again while it feeds and finishes. Two parses running at once would see each
/// other's settings and drop strikethrough, table or autolink nodes. Feeding and finishing under
/// one lock keeps every tree exactly what a single-threaded parse gives; converting the finished
/// tree to Swift values, the larger share of the work, still runs in parallel.
enum CmarkParseLock {
    private static let mutex = LockedMutex()

    /// Runs `body` while no other thread feeds or finishes a cmark parser.
    static func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try mutex.withLock(body)
    }
}

/// A pthread mutex that lives for the whole process.
private final class LockedMutex: @unchecked Sendable {
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
