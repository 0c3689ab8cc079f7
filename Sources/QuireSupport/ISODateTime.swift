/// A date or date-time as written (`2026-11-22`, `2026-11-22T09:14:03.120Z`,
/// `2024-1-5 10:00:00 +02:00`): the one scanner and calendar behind every date Quire reads —
/// `Timestamp` (front matter, logs, the command line) and the YAML core schema's timestamps.
///
/// Two grammars share the scanner; they differ only where their specifications do (``Grammar``).
package struct ISODateTime: Equatable, Sendable {
    package var year: Int
    /// 1–12.
    package var month: Int
    /// 1–31, valid for the month and year.
    package var day: Int
    /// 0–23; nil for a date alone.
    package var hour: Int?
    /// 0–59; nil for a date alone.
    package var minute: Int?
    /// 0–60 as written (60: a leap second); nil when not written.
    package var second: Int?
    /// The fraction of a second in nanoseconds (digits past the ninth dropped); nil when none was written.
    package var nanosecond: Int?
    /// The zone's offset from UTC in seconds (`Z`: 0); nil when none was written.
    package var utcOffsetSeconds: Int?

    /// The rules of a written form.
    package struct Grammar: Sendable {
        /// Month and day may have one digit when a time follows (`2024-1-5T10:00:00`).
        var shortMonthAndDay: Bool
        /// Tabs separate like spaces.
        var tabs: Bool
        /// Digits of the hour.
        var hourDigits: ClosedRange<Int>
        /// Whether the time must have seconds.
        var secondsRequired: Bool
        /// Whether `,` may start the fraction, as `.` does.
        var commaFraction: Bool
        /// Digits of the offset's hour; when `offsetChecked`, offsets must be at most 23:59.
        var offsetHourDigits: ClosedRange<Int>
        var offsetChecked: Bool

        /// ISO 8601 as Quire reads it: `YYYY-MM-DD`, then `T`, `t` or spaces and `HH:MM`,
        /// `HH:MM:SS` with an optional fraction after `.` or `,`, then optional spaces and `Z` or
        /// `±HH`, `±HHMM`, `±HH:MM` (no zone: UTC).
        package static let iso8601 = Grammar(shortMonthAndDay: false, tabs: false, hourDigits: 2...2, secondsRequired: false,
                                             commaFraction: true, offsetHourDigits: 2...2, offsetChecked: false)
        /// The YAML 1.1 timestamp type (yaml.org/type/timestamp): a date alone as `YYYY-MM-DD`;
        /// with a time, one- or two-digit month, day and hour, seconds required, spaces or tabs.
        package static let yaml = Grammar(shortMonthAndDay: true, tabs: true, hourDigits: 1...2, secondsRequired: true,
                                          commaFraction: false, offsetHourDigits: 1...2, offsetChecked: true)
    }

    /// Reads `text` whole by `grammar`; nil unless all of it is one date or date-time.
    package init?(_ text: Substring, grammar: Grammar) {
        var text = text
        guard let read = text.withUTF8({ ISODateTime(bytes: $0, grammar: grammar) }) else { return nil }
        self = read
    }

    /// Reads `text` whole by `grammar`, like ``init(_:grammar:)``.
    package init?(_ text: String, grammar: Grammar) { self.init(Substring(text), grammar: grammar) }

    /// Reads `bytes` whole by `grammar`: the scanner itself, not generic, so that it is compiled
    /// for the bytes it reads once, here.
    package init?(bytes: UnsafeBufferPointer<UInt8>, grammar: Grammar) {
        var p = ASCIIScanner(bytes)
        let dateDigits = grammar.shortMonthAndDay ? 1...2 : 2...2
        guard let year = p.number(4...4), p.eat(UInt8(ascii: "-")), let month = p.number(dateDigits),
              p.eat(UInt8(ascii: "-")), let day = p.number(dateDigits),
              (1...12).contains(month.value), (1...CivilCalendar.daysIn(month: month.value, year: year.value)).contains(day.value)
        else { return nil }
        self.year = year.value
        self.month = month.value
        self.day = day.value
        if p.atEnd {
            // A date alone is always written with two-digit month and day.
            guard month.digits == 2, day.digits == 2 else { return nil }
            return
        }
        guard p.eat(UInt8(ascii: "T")) || p.eat(UInt8(ascii: "t")) || p.eatSpaces(tabs: grammar.tabs),
              let hour = p.number(grammar.hourDigits), p.eat(UInt8(ascii: ":")), let minute = p.number(2...2),
              hour.value < 24, minute.value < 60
        else { return nil }
        self.hour = hour.value
        self.minute = minute.value
        if p.eat(UInt8(ascii: ":")) {
            guard let second = p.number(2...2), second.value <= 60 else { return nil }
            self.second = second.value
            if p.eat(UInt8(ascii: ".")) || (grammar.commaFraction && p.eat(UInt8(ascii: ","))) {
                var nanos = 0, digits = 0
                while let d = p.digit() {
                    if digits < 9 { nanos = nanos * 10 + d }
                    digits += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 9)..<9 { nanos *= 10 }
                nanosecond = nanos
            }
        } else if grammar.secondsRequired {
            return nil
        }
        _ = p.eatSpaces(tabs: grammar.tabs)
        if p.eat(UInt8(ascii: "Z")) || p.eat(UInt8(ascii: "z")) {
            utcOffsetSeconds = 0
        } else if let sign = p.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            p.advance()
            guard let hours = p.number(grammar.offsetHourDigits), !grammar.offsetChecked || hours.value <= 23 else { return nil }
            var minutes = 0
            if p.eat(UInt8(ascii: ":")) || p.peekDigit {
                guard let m = p.number(2...2), !grammar.offsetChecked || m.value < 60 else { return nil }
                minutes = m.value
            }
            utcOffsetSeconds = (hours.value * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard p.atEnd else { return nil }
    }

    /// Days from 1970-01-01 to the calendar date (proleptic Gregorian, the zone ignored).
    package var daysSince1970: Int { CivilCalendar.daysFromCivil(year: year, month: month, day: day) }
}

/// The proleptic Gregorian calendar's arithmetic (Howard Hinnant's algorithms).
package enum CivilCalendar {
    /// Days from 1970-01-01 to a calendar date.
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The calendar date `days` after 1970-01-01.
    package static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Days in a month of a year.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A forward scanner over ASCII bytes, for hand-written parsers of small fixed formats.
package struct ASCIIScanner<C: Collection<UInt8>> {
    private let bytes: C
    private var index: C.Index

    package init(_ bytes: C) { self.bytes = bytes; self.index = bytes.startIndex }

    package var atEnd: Bool { index == bytes.endIndex }
    package func peek() -> UInt8? { atEnd ? nil : bytes[index] }
    package var peekDigit: Bool { peek().map { $0 >= 48 && $0 <= 57 } ?? false }
    package mutating func advance() { if !atEnd { bytes.formIndex(after: &index) } }

    /// Takes `byte` if it comes next.
    package mutating func eat(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        advance()
        return true
    }

    /// Takes the spaces (and tabs, with `tabs`) that come next; whether there were any.
    package mutating func eatSpaces(tabs: Bool = false) -> Bool {
        var ate = false
        while let b = peek(), b == UInt8(ascii: " ") || (tabs && b == UInt8(ascii: "\t")) { advance(); ate = true }
        return ate
    }

    /// Takes one decimal digit.
    package mutating func digit() -> Int? {
        guard let b = peek(), b >= 48, b <= 57 else { return nil }
        advance()
        return Int(b - 48)
    }

    /// Takes `count` digits exactly.
    package mutating func digits(_ count: Int) -> Int? {
        number(count...count)?.value
    }

    /// Takes as many digits as `count` allows (at most its upper bound); nil when fewer than its
    /// lower bound came. Gives how many digits it took, too.
    package mutating func number(_ count: ClosedRange<Int>) -> (value: Int, digits: Int)? {
        var value = 0, digits = 0
        while digits < count.upperBound, let d = digit() {
            value = value * 10 + d
            digits += 1
        }
        return digits >= count.lowerBound ? (value, digits) : nil
    }
}
