#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Keeps cmark-gfm parses from seeing each other's inline character tables.
///
/// cmark-gfm 0.29 keeps the tables of "special" characters in process globals, and a parse with
/// an extension that adds characters (`~` for strikethrough, `:` and `w` for autolinks) switches
/// them on when it starts parsing inlines, in `cmark_parser_finish`, and off again when it is
/// done. Two such parses finishing at once would see each other's settings and drop strikethrough
/// or autolink nodes, and any parse finishing meanwhile would read tables being written.
///
/// So finishing is guarded by a readers–writer lock: a parse that switches characters
/// (``MarkdownParseOptions/switchesCharacterTables``) finishes alone; the others only read the
/// tables and finish side by side — the indexer's parses, on every core, never wait for each
/// other. With glibc, writers are preferred, so a steady stream of readers cannot starve a render.
/// Feeding (the block structure) never reads those tables and runs outside the lock, as does
/// converting the finished tree to Swift values.
enum CmarkParseLock {
    private final class Storage: @unchecked Sendable {
        let lock: UnsafeMutablePointer<pthread_rwlock_t>

        init() {
            lock = .allocate(capacity: 1)
            var attributes = pthread_rwlockattr_t()
            pthread_rwlockattr_init(&attributes)
            #if canImport(Glibc)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
            #endif
            pthread_rwlock_init(lock, &attributes)
            pthread_rwlockattr_destroy(&attributes)
        }
    }

    /// Lives as long as the process.
    private static let storage = Storage()

    /// Runs `body` while no parse that switches characters finishes (`exclusive`: while no other
    /// parse finishes at all).
    static func withLock<R>(exclusive: Bool, _ body: () -> R) -> R {
        let lock = storage.lock
        if exclusive { pthread_rwlock_wrlock(lock) } else { pthread_rwlock_rdlock(lock) }
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }
}
