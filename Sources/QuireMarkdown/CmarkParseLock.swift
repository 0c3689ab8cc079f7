import QuireSupport

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
/// other (writers are preferred: ``ReadersWriterLock``), so a steady stream of readers cannot starve a render.
/// Feeding (the block structure) never reads those tables and runs outside the lock, as does
/// converting the finished tree to Swift values.
enum CmarkParseLock {
    /// Lives as long as the process.
    private static let lock = ReadersWriterLock()

    /// Runs `body` while no parse that switches characters finishes (`exclusive`: while no other
    /// parse finishes at all).
    static func withLock<R>(exclusive: Bool, _ body: () -> R) -> R {
        lock.withLock(exclusive: exclusive, body)
    }
}
