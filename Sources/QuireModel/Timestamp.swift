import QuireSupport
/// A point in time, in whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Quire never reads the clock inside its model, parsers or schedulers; a command reads it once and
/// passes a `Timestamp` down.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch, UTC.
    public var milliseconds: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Creates a timestamp from whole seconds since the Unix epoch.
    public init(seconds: Int64) { self.milliseconds = seconds * 1000 }

    /// Creates a timestamp from UTC calendar fields.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                millisecond: Int = 0) {
        let days = Int64(Self.daysFromCivil(year: year, month: month, day: day))
        let secs = days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        self.milliseconds = secs * 1000 + Int64(millisecond)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// Seconds since the epoch as a floating-point number.
    public var secondsSinceEpoch: Double { Double(milliseconds) / 1000 }

    /// This timestamp moved by a number of seconds.
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(milliseconds: milliseconds + Int64((seconds * 1000).rounded()))
    }

    /// UTC calendar fields of this timestamp.
    public var utcComponents: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let ms = milliseconds
        var days = ms / 86_400_000
        var rem = ms % 86_400_000
        if rem < 0 { rem += 86_400_000; days -= 1 }
        let civil = Self.civilFromDays(Int(days))
        let secOfDay = Int(rem / 1000)
        return (civil.year, civil.month, civil.day, secOfDay / 3600, (secOfDay / 60) % 60, secOfDay % 60,
                Int(rem % 1000))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the form written into front matter.
    public var description: String { iso8601(milliseconds: false) }

    /// ISO 8601 in UTC, with or without milliseconds (`…:SS.mmmZ`).
    public func iso8601(milliseconds withMilliseconds: Bool) -> String {
        let c = utcComponents
        var s = pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2)
        s += "T" + pad(c.hour, 2) + ":" + pad(c.minute, 2) + ":" + pad(c.second, 2)
        if withMilliseconds { s += "." + pad(c.millisecond, 3) }
        return s + "Z"
    }

    /// Parses `YYYY-MM-DD`, or a date with a time after `T` or a space: `HH:MM`, `HH:MM:SS`, optional
    /// fraction, optional `Z` or `±HH:MM` / `±HHMM` / `±HH` offset (none means UTC); a leap second
    /// (`:60`) counts as `:59`. The grammar is `ISODateTime.Grammar.iso8601`.
    public init?(iso8601 text: Substring) {
        guard let t = ISODateTime(text, grammar: .iso8601) else { return nil }
        self.init(year: t.year, month: t.month, day: t.day, hour: t.hour ?? 0, minute: t.minute ?? 0,
                  second: min(t.second ?? 0, 59), millisecond: (t.nanosecond ?? 0) / 1_000_000)
        milliseconds -= Int64(t.utcOffsetSeconds ?? 0) * 1000
    }

    /// Parses like ``init(iso8601:)-(Substring)``.
    public init?(iso8601 text: String) { self.init(iso8601: Substring(text)) }

    // MARK: - Calendar arithmetic (QuireSupport's CivilCalendar)

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        CivilCalendar.daysFromCivil(year: year, month: month, day: day)
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) { CivilCalendar.civilFromDays(days) }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
