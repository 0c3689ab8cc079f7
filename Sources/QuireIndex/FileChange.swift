/// One change to a vault's note files, as a ``FileWatcher`` reports it.
///
/// Paths are relative to the vault root and `/`-separated, and name note files only (`*.md` whose
/// name and folders do not start with `.`), the files ``VaultScanner`` lists.
public enum FileChange: Hashable, Sendable {
    /// A note file was created, written, or moved to this path (possibly with its folder): read it
    /// again.
    case changed(String)
    /// The note file at this path is gone: deleted, moved away, or inside a folder that was deleted
    /// or moved away. The watcher may report a path the caller never saw (created and deleted within
    /// one batch); such a removal changes nothing.
    case removed(String)
    /// Events were lost or cannot be seen (the kernel's queue overflowed, the watch limit was
    /// reached, the vault folder itself moved): rescan the whole vault. `reason` is a warning for
    /// the user.
    case rescan(reason: String)

    /// The note's path, for a change of one note.
    public var path: String? {
        switch self {
        case .changed(let path), .removed(let path): path
        case .rescan: nil
        }
    }
}
