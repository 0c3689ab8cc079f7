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
    /// fraction, optional `Z` or `±HH:MM` / `±HHMM` / `±HH` offset (none means UTC).
    public init?(iso8601 text: Substring) {
        var p = ASCIIScanner(text.utf8)
        guard let year = p.digits(4), p.eat(UInt8(ascii: "-")), let month = p.digits(2),
              p.eat(UInt8(ascii: "-")), let day = p.digits(2),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var hour = 0, minute = 0, second = 0, millis = 0, offsetSeconds = 0
        if p.eat(UInt8(ascii: "T")) || p.eat(UInt8(ascii: "t")) || p.eatSpaces() {
            guard let h = p.digits(2), p.eat(UInt8(ascii: ":")), let m = p.digits(2), h < 24, m < 60
            else { return nil }
            hour = h; minute = m
            if p.eat(UInt8(ascii: ":")) {
                guard let s = p.digits(2), s < 61 else { return nil }
                second = min(s, 59)
                if p.eat(UInt8(ascii: ".")) || p.eat(UInt8(ascii: ",")) {
                    var scale = 100, count = 0
                    while let d = p.digit() {
                        millis += d * scale; scale /= 10; count += 1
                    }
                    guard count > 0 else { return nil }
                }
            }
            _ = p.eatSpaces()
            if p.eat(UInt8(ascii: "Z")) || p.eat(UInt8(ascii: "z")) {
                offsetSeconds = 0
            } else if let sign = p.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                p.advance()
                guard let oh = p.digits(2) else { return nil }
                var om = 0
                if p.eat(UInt8(ascii: ":")) {
                    guard let v = p.digits(2) else { return nil }
                    om = v
                } else if let v = p.digits(2) {
                    om = v
                }
                offsetSeconds = (oh * 3600 + om * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        guard p.atEnd else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  millisecond: millis)
        milliseconds -= Int64(offsetSeconds) * 1000
    }

    /// Parses like ``init(iso8601:)-(Substring)``.
    public init?(iso8601 text: String) { self.init(iso8601: Substring(text)) }

    // MARK: - Calendar arithmetic (proleptic Gregorian; Howard Hinnant's algorithms)

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// A tiny forward scanner over ASCII bytes, for hand-written parsers of small fixed formats.
struct ASCIIScanner<C: Collection<UInt8>> {
    private let bytes: C
    private var index: C.Index

    init(_ bytes: C) { self.bytes = bytes; self.index = bytes.startIndex }

    var atEnd: Bool { index == bytes.endIndex }
    func peek() -> UInt8? { atEnd ? nil : bytes[index] }
    mutating func advance() { if !atEnd { bytes.formIndex(after: &index) } }

    mutating func eat(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        advance()
        return true
    }

    mutating func eatSpaces() -> Bool {
        var ate = false
        while peek() == UInt8(ascii: " ") { advance(); ate = true }
        return ate
    }

    mutating func digit() -> Int? {
        guard let b = peek(), b >= 48, b <= 57 else { return nil }
        advance()
        return Int(b - 48)
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let d = digit() else { return nil }
            value = value * 10 + d
        }
        return value
    }
}
