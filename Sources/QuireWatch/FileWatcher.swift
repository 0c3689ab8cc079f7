import QuireIndex
import QuireSystem

/// Why a watcher could not start or go on.
public enum WatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed on `path` (the vault root for calls on the watcher itself).
    case system(path: String, operation: String, code: Int32)
    /// ``FileWatcher/next(timeout:)`` was called on a watcher that is not started, or stopped.
    case notRunning(path: String)
    /// The vault folder itself was moved, deleted or unmounted: nothing more can be seen. Every
    /// later ``FileWatcher/next(timeout:)`` throws it too.
    case vaultGone(path: String, reason: String)

    public var description: String {
        switch self {
        case .system(let path, let op, let code) where code == SystemErrorCode.noSpace && op == "inotify_add_watch":
            "\(path): \(op) failed: the inotify watch limit is reached (raise fs.inotify.max_user_watches)"
        case .system(let path, let op, let code): "\(path): \(op) failed: \(errnoMessage(code))"
        case .notRunning(let path): "\(path): the file watcher is not running"
        case .vaultGone(_, let reason): reason
        }
    }
}

/// Reports changes to a vault's note files, in debounced batches.
///
/// A caller scans the vault, calls ``start()``, then loops over ``next(timeout:)``: each batch holds
/// at most one change per path, the last state winning, so a file written in a burst is read once.
/// Changes made after ``start()`` returns are reported; a caller that scans after starting misses
/// nothing (a change seen by the scan may be reported again).
///
/// A watcher is used from one thread at a time.
public protocol FileWatcher: AnyObject {
    /// The vault root the reported paths are relative to.
    var root: String { get }

    /// Starts watching the vault; does nothing when already started.
    ///
    /// - Throws: ``WatchError`` when the vault root cannot be watched.
    func start() throws(WatchError)

    /// Waits for the next batch of changes.
    ///
    /// A batch ends when no event arrived for a short quiet window, or a maximum delay after its
    /// first event. It lists ``FileChange/rescan(reason:)`` events first, then one change per path,
    /// sorted by path.
    ///
    /// - Parameter timeout: how long to wait for a first event (nil: until one comes); once a batch
    ///   has begun, it is finished and returned even if that takes longer.
    /// - Returns: a non-empty batch, or nil when nothing changed before the timeout.
    /// - Throws: ``WatchError`` when the events cannot be read, or the watcher is not running.
    func next(timeout: Duration?) throws(WatchError) -> [FileChange]?

    /// Stops watching and frees the watcher's resources; safe to call more than once.
    func stop()
}
