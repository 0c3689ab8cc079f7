/// Everything that can go wrong in `QuireScheduling`: invalid scheduler settings.
///
/// Scheduling itself never fails; settings are checked once, when they are built, so a bad
/// configuration is reported before any card is graded (STYLE.md habit 8). The description names
/// the setting, so the configuration reader can prefix it with the file and line it came from.
public enum SchedulingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// FSRS parameter sets have 17 (FSRS-4.5), 19 (FSRS-5) or 21 (FSRS-6) values.
    case parameterCount(Int)
    /// A parameter is NaN or infinite (index counts from 0, in the 21-value set).
    case parameterNotFinite(index: Int)
    /// A parameter (after filling to 21 values) is outside the range py-fsrs accepts.
    case parameterOutOfRange(index: Int, value: Double, range: ClosedRange<Double>)
    /// Desired retention must lie strictly between 0 and 1.
    case desiredRetention(Double)
    /// A learning or relearning step must be a positive whole number of seconds.
    case step(relearning: Bool, index: Int, seconds: Int)
    /// The maximum interval must be 1 to 36,500 days.
    case maximumInterval(Int)
    /// Grading uses 3 (Again/Good/Easy) or 4 (Again/Hard/Good/Easy) buttons.
    case buttons(Int)
    /// The day rollover is an hour from 0 to 23.
    case dayRollover(Int)
    /// A UTC offset must be within ±18 hours.
    case utcOffset(seconds: Int)

    public var description: String {
        switch self {
        case .parameterCount(let n):
            "FSRS parameters: expected 17, 19 or 21 values, got \(n)"
        case .parameterNotFinite(let i):
            "FSRS parameters: w[\(i)] is not a finite number"
        case .parameterOutOfRange(let i, let v, let r):
            "FSRS parameters: w[\(i)] = \(v) is outside \(r.lowerBound)…\(r.upperBound)"
        case .desiredRetention(let r):
            "desired retention must be greater than 0 and less than 1, got \(r)"
        case .step(let relearning, let i, let s):
            "\(relearning ? "relearning" : "learning") step \(i + 1) must be a positive number of seconds, got \(s)"
        case .maximumInterval(let d):
            "maximum interval must be 1 to 36500 days, got \(d)"
        case .buttons(let n):
            "buttons must be 3 (again/good/easy) or 4 (again/hard/good/easy), got \(n)"
        case .dayRollover(let h):
            "day rollover must be an hour from 0 to 23, got \(h)"
        case .utcOffset(let s):
            "UTC offset must be within ±18 hours, got \(s) seconds"
        }
    }
}
