import Synchronization

/// How far a long job has come, reported by the threads doing it to whoever shows it (a progress
/// bar): the job says how many steps there are, then each worker says when it has done some.
///
/// The observer is called with the lock held, so calls come one at a time and in order of the
/// counts; it must be quick (a bar redraws when a whole percent is reached, not at every step).
public final class WorkProgress: Sendable {
    /// Called with the steps done and the steps in all.
    public typealias Observer = @Sendable (_ done: Int, _ total: Int) -> Void

    private let counts = Mutex<(done: Int, total: Int)>((0, 0))
    private let observer: Observer

    /// Progress reported to `observer`.
    public init(_ observer: @escaping Observer) { self.observer = observer }

    /// Starts (or starts again) a job of `total` steps.
    public func begin(total: Int) {
        counts.withLock { c in
            c = (0, total)
            observer(0, total)
        }
    }

    /// Reports `steps` more steps done.
    public func advance(by steps: Int) {
        counts.withLock { c in
            c.done += steps
            observer(c.done, c.total)
        }
    }

    /// The steps done and in all, so far.
    public var current: (done: Int, total: Int) { counts.withLock { $0 } }
}
