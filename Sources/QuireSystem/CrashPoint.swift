#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Named points in Quire's writes where a test can have the process killed (`SIGKILL`, as a
/// crash or `kill -9` would) at an exact moment rather than a random one: the environment
/// variable `QUIRE_CRASH_AT=NAME:N` kills the process the N-th time it reaches point `NAME`.
/// Without it each point costs one load of a flag. docs/RELIABILITY.md lists the points.
public enum CrashPoint: String, Sendable {
    /// After a staged write (`quire import`) has staged every file, before its journal.
    case staged = "staged"
    /// After a staged write has moved one file into place.
    case stagedMove = "staged-move"

    /// The point and count `QUIRE_CRASH_AT` names, read once.
    private static let armed: (point: String, count: Int)? = {
        guard let raw = getenv("QUIRE_CRASH_AT") else { return nil }
        let text = String(cString: raw)
        guard let colon = text.lastIndex(of: ":"), let n = Int(text[text.index(after: colon)...]), n > 0 else { return nil }
        return (String(text[..<colon]), n)
    }()
    private static let reached = Atomic<Int>(0)

    /// Marks that this point is reached: the process is killed here if it is the armed one, this often.
    public func reach() {
        guard let armed = Self.armed, armed.point == rawValue else { return }
        if Self.reached.add(1, ordering: .relaxed).newValue >= armed.count { kill(getpid(), SIGKILL) }
    }
}
