import QuireSupport
import QuireIndex
import QuireSystem
/// The changes collected for one batch: one entry per path, the last state winning, and the rescan
/// reasons, each once.
///
/// Platform-neutral, so that every ``FileWatcher`` coalesces the same way.
struct ChangeBatch: Sendable {
    private var reasons: [String] = []
    private var byPath: [String: FileChange] = [:]

    /// Whether nothing was added.
    var isEmpty: Bool { reasons.isEmpty && byPath.isEmpty }

    /// Adds a change; a path's later change replaces its earlier one (created then deleted is
    /// `removed`, deleted then created again is `changed`).
    mutating package func add(_ change: FileChange) {
        switch change {
        case .changed(let path), .removed(let path): byPath[path] = change
        case .rescan(let reason): if !reasons.contains(reason) { reasons.append(reason) }
        }
    }

    /// Adds every change of another batch, after this one's.
    mutating package func add(contentsOf other: ChangeBatch) {
        for reason in other.reasons { add(.rescan(reason: reason)) }
        byPath.merge(other.byPath) { _, later in later }
    }

    /// The rescans in the order they came, then the path changes sorted by path (byte order).
    var changes: [FileChange] {
        reasons.map { FileChange.rescan(reason: $0) }
            + byPath.sorted { utf8Precedes($0.key, $1.key) }.map(\.value)
    }
}
