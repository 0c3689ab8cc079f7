import QuireModel
import QuireSystem

/// The session's clock: the real one, or — when `--now` pins the time, for tests — a clock that
/// starts there and moves one second per reading, with every answer taking one second.
public final class StudyClock {
    private var fixed: Timestamp?

    public init(fixed: Timestamp?) { self.fixed = fixed }

    /// The time now.
    public func now() -> Timestamp {
        guard let t = fixed else { return SystemClock.now() }
        fixed = Timestamp(milliseconds: t.milliseconds + 1000)
        return t
    }

    /// The time now, without moving the pinned clock (for drawing).
    public func peek() -> Timestamp { fixed ?? SystemClock.now() }

    /// Milliseconds from `start` to `end`, two times this clock gave (1000 on the pinned clock).
    public func milliseconds(from start: Timestamp, to end: Timestamp) -> Int {
        fixed == nil ? Int(max(0, end.milliseconds - start.milliseconds)) : 1000
    }
}

extension SystemClock {
    /// The current time as a Timestamp.
    package static func now() -> Timestamp { Timestamp(milliseconds: milliseconds()) }

    /// The local time zone's offset from UTC at `time`, in seconds east.
    package static func utcOffset(at time: Timestamp) -> Int { utcOffset(atMilliseconds: time.milliseconds) }
}
