internal import Synchronization

/// Serializes the part of a cmark-gfm parse that reads the inline parser's character tables.
///
/// cmark-gfm 0.29 keeps the tables of "special" characters in process globals, and each parse
/// switches its extensions' characters on (`~` for strikethrough, `:` and `w` for autolinks) when
/// it starts parsing inlines, in `cmark_parser_finish`, and off again when it is done. Two parses
/// finishing at once would see each other's settings and drop strikethrough or autolink nodes.
/// Finishing under one lock keeps every tree exactly what a single-threaded parse gives. Feeding
/// (the block structure) never reads those tables and runs outside the lock, as does converting
/// the finished tree to Swift values.
enum CmarkParseLock {
    private static let mutex = Mutex(())

    /// Runs `body` while no other thread feeds or finishes a cmark parser.
    static func withLock<R>(_ body: () -> R) -> R {
        mutex.withLock { _ in body() }
    }
}
