import QuireModel
import QuireSystem
import QuireIndex
import QuireParsing
import QuireVault

/// A vault's index kept current by a ``FileWatcher``: each batch of file changes is read and put
/// into the index, and what changed is handed back (for `quire watch`, a review session, a server).
///
/// The watcher starts before the index is built, so no change made meanwhile is missed.
public final class LiveIndex {
    /// One change to the index.
    public enum Event: Equatable, Sendable {
        /// One note file was read again (or is gone).
        case note(NoteUpdate)
        /// Events were lost and the whole vault was read again (through the cache: only changed
        /// files are parsed). `reason` is a warning for the user.
        case rescanned(reason: String)
    }

    /// The vault.
    public let vault: Vault
    /// The card syntax notes are read with.
    private let syntax: CardSyntax
    /// The paths that are no notes (`ignore:`): their changes are not the index's.
    private let ignored: IgnoredPaths
    /// The index as of the last batch.
    public private(set) var index: VaultIndex
    private let watcher: any FileWatcher
    private let cached: Bool

    /// Starts watching `vault` and builds its index.
    ///
    /// - Parameters:
    ///   - watcher: the watcher to use (default: inotify).
    ///   - cached: whether builds go through the persistent cache.
    /// - Throws: ``WatchError`` when the vault cannot be watched.
    public init(vault: Vault, watcher: (any FileWatcher)? = nil, cached: Bool = true) throws(WatchError) {
        self.vault = vault
        syntax = vault.cardSyntax().syntax
        ignored = vault.ignoredPaths()
        self.cached = cached
        let w = watcher ?? InotifyWatcher(root: vault.root, sys: vault.io.sys)
        try w.start()
        self.watcher = w
        index = vault.index(cached: cached)
    }

    deinit { watcher.stop() }

    /// Waits for the next batch of file changes and applies it.
    ///
    /// - Parameter timeout: how long to wait for a first change (nil: until one comes).
    /// - Returns: the index changes, in path order (empty when the files changed in ways the index
    ///   does not see), or nil when nothing happened before the timeout.
    public func next(timeout: Duration?) throws(WatchError) -> [Event]? {
        guard let batch = try watcher.next(timeout: timeout) else { return nil }
        return apply(batch)
    }

    /// Applies a batch of file changes (as a watcher reports them) to the index.
    public func apply(_ batch: [FileChange]) -> [Event] {
        var events: [Event] = []
        for change in batch {
            if case .rescan(let reason) = change {
                // A rescan covers every other change of the batch.
                index = vault.index(cached: cached)
                return [.rescanned(reason: reason)]
            }
        }
        for change in batch {
            let update: NoteUpdate
            if !ignored.isEmpty, let path = change.path, ignored.contains(path) { continue }
            switch change {
            case .changed(let path):
                if let (bytes, stamp) = try? vault.io.read(vault.fullPath(path)) {
                    let parsed = NoteParser.parse(bytes, path: path, syntax: syntax)
                    update = index.update(path: path, note: parsed.note, stamp: stamp, diagnostics: parsed.diagnostics)
                } else {
                    // Gone again before it could be read: its removal follows in a later batch.
                    update = index.remove(path: path)
                }
            case .removed(let path):
                update = index.remove(path: path)
            case .rescan:
                continue
            }
            if update.kind != .unchanged || !update.diagnostics.isEmpty { events.append(.note(update)) }
        }
        return events
    }
}
