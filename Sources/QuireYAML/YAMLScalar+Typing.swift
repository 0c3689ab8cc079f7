import QuireSupport
/// A YAML timestamp (`2024-01-05`, `2024-01-05T10:00:00Z`, `2024-01-05 10:00:00.5 +02:00`).
public struct YAMLTimestamp: Hashable, Sendable {
    /// Year, e.g. 2024.
    public var year: Int
    /// Month, 1–12.
    public var month: Int
    /// Day of month, 1–31.
    public var day: Int
    /// Hour 0–23, nil for a date-only timestamp.
    public var hour: Int?
    /// Minute 0–59, nil for a date-only timestamp.
    public var minute: Int?
    /// Second 0–60, nil for a date-only timestamp.
    public var second: Int?
    /// Fractional second in nanoseconds, nil when no fraction was written.
    public var nanosecond: Int?
    /// Offset from UTC in seconds (`Z` → 0, `+02:00` → 7200), nil when no zone was written.
    public var utcOffsetSeconds: Int?

    /// Creates a timestamp.
    /// - Parameters:
    ///   - year: Year.
    ///   - month: Month 1–12.
    ///   - day: Day 1–31.
    ///   - hour: Hour, nil for a date.
    ///   - minute: Minute, nil for a date.
    ///   - second: Second, nil for a date.
    ///   - nanosecond: Fraction of a second in nanoseconds.
    ///   - utcOffsetSeconds: Zone offset in seconds.
    public init(
        year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int? = nil, second: Int? = nil,
        nanosecond: Int? = nil, utcOffsetSeconds: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// True when only a date was written.
    public var isDateOnly: Bool { hour == nil }

    /// Days from 1970-01-01 to this timestamp's calendar date (proleptic Gregorian, ignoring the zone).
    public var daysSince1970: Int { CivilCalendar.daysFromCivil(year: year, month: month, day: day) }

    /// Seconds since 1970-01-01T00:00:00Z.
    /// - Parameter defaultUTCOffsetSeconds: The offset assumed when none was written (0 = UTC).
    /// - Returns: The instant as seconds since the Unix epoch, including the fraction.
    public func secondsSince1970(defaultUTCOffsetSeconds: Int = 0) -> Double {
        let whole = daysSince1970 * 86_400 + (hour ?? 0) * 3_600 + (minute ?? 0) * 60 + (second ?? 0)
            - (utcOffsetSeconds ?? defaultUTCOffsetSeconds)
        return Double(whole) + Double(nanosecond ?? 0) / 1_000_000_000
    }
}

// MARK: - Core schema typing

extension YAMLScalar {
    /// Whether the YAML 1.2 core schema applies: plain style and no tag other than a core one.
    private var isTypable: Bool {
        guard style == .plain else { return false }
        guard let tag else { return true }
        return tag != "tag:yaml.org,2002:str" && tag != "!"
    }

    /// The decoded text, whatever the style; typed readers below never change it.
    public var string: String { value }

    /// True for a plain `null`, `Null`, `NULL`, `~` or empty scalar.
    public var isNull: Bool {
        guard isTypable else { return false }
        switch value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// The boolean of a plain `true`/`True`/`TRUE`/`false`/`False`/`FALSE`, else nil.
    public var bool: Bool? {
        guard isTypable else { return nil }
        switch value {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The integer of a plain decimal (`-12`, `+3`), hex (`0x1F`) or octal (`0o17`) scalar, else nil.
    ///
    /// Out-of-range values give nil.
    public var int: Int? {
        guard isTypable else { return nil }
        return YAMLCoreSchema.int(value)
    }

    /// The number of a plain float or integer scalar (`1.5`, `-2e3`, `.5`, `.inf`, `-.Inf`, `.nan`), else nil.
    public var double: Double? {
        guard isTypable else { return nil }
        return YAMLCoreSchema.double(value)
    }

    /// The timestamp of a plain scalar such as `2024-01-05` or `2024-01-05T10:00:00.25+02:00`, else nil.
    public var timestamp: YAMLTimestamp? {
        guard isTypable else { return nil }
        return YAMLCoreSchema.timestamp(value)
    }
}

/// Recognizers for the YAML 1.2 core schema (plus the YAML 1.1 timestamp type).
enum YAMLCoreSchema {
    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    static func int(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let digits = String(decoding: bytes[2...], as: UTF8.self)
            if bytes[1] == UInt8(ascii: "x") {
                guard digits.utf8.allSatisfy({ $0 < 128 && Character(Unicode.Scalar($0)).isHexDigit }) else { return nil }
                return Int(digits, radix: 16)
            }
            if bytes[1] == UInt8(ascii: "o") {
                guard digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 55 }) else { return nil }
                return Int(digits, radix: 8)
            }
        }
        var body = bytes[...]
        if let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    static func double(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        if let int = int(text) { return Double(int) }
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        let bytes = Array(text.utf8)
        var i = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        var mantissaDigits = 0
        while i < bytes.count, isDigit(bytes[i]) { i += 1; mantissaDigits += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            var fraction = 0
            while i < bytes.count, isDigit(bytes[i]) { i += 1; fraction += 1 }
            if mantissaDigits == 0 && fraction == 0 { return nil }
        } else if mantissaDigits == 0 {
            return nil
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            var exponent = 0
            while i < bytes.count, isDigit(bytes[i]) { i += 1; exponent += 1 }
            if exponent == 0 { return nil }
        }
        guard i == bytes.count else { return nil }
        // Swift's parser wants a digit after a trailing dot's absence; normalise `1.` and `.5`.
        var normalised = text
        if normalised.hasSuffix(".") { normalised += "0" }
        if let dot = normalised.firstIndex(of: "."), dot == normalised.startIndex
            || !isDigit(normalised.utf8[normalised.utf8.index(before: dot)]) {
            normalised.insert("0", at: dot)
        }
        normalised = normalised.replacingOccurrences(ofDot: ".e", with: ".0e")
        return Double(normalised)
    }

    /// A timestamp by the YAML 1.1 timestamp type's grammar (`ISODateTime.Grammar.yaml`).
    static func timestamp(_ text: String) -> YAMLTimestamp? {
        guard let t = ISODateTime(text, grammar: .yaml) else { return nil }
        return YAMLTimestamp(year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second,
                             nanosecond: t.nanosecond, utcOffsetSeconds: t.utcOffsetSeconds)
    }
}

extension String {
    /// Replaces every occurrence of a short ASCII needle (no Foundation in this module).
    fileprivate func replacingOccurrences(ofDot needle: String, with replacement: String) -> String {
        guard contains(needle) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: needle) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
