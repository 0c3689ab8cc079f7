internal import Synchronization

/// Serializes the part of a cmark-gfm parse that reads the inline parser's character tables.
///
/// cmark-gfm 0.29 keeps the tables of "special" characters in process globals, and each parse
/// switches its extensions' characters on (`~` for strikethrough, `|` for tables, `:` and `w` for
/// autolinks) and off again while it feeds and finishes. Two parses running at once would see each
/// other's settings and drop strikethrough, table or autolink nodes. Feeding and finishing under
/// one lock keeps every tree exactly what a single-threaded parse gives; converting the finished
/// tree to Swift values, the larger share of the work, still runs in parallel.
enum CmarkParseLock {
    private static let mutex = Mutex(())

    /// Runs `body` while no other thread feeds or finishes a cmark parser.
    static func withLock<R>(_ body: () -> R) -> R {
        mutex.withLock { _ in body() }
    }
}
