import QuireModel

/// A review-log line that could not be read.
public struct ReviewLogError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(line):\(column): \(message)" }
}

/// The review log's line format (FORMAT.md §6): `TIME EVENT CARD [RATING] key=value…`.
public enum ReviewLog {
    /// The first line of a new log file.
    public static let header = "# quire log v1"

    /// Formats one event as a line (without the line ending).
    public static func format(_ event: ReviewEvent) -> String {
        var parts = [event.time.iso8601(milliseconds: true), event.action.word, event.card.rawValue]
        switch event.action {
        case .grade(let rating): parts.append(rating.name)
        case .undo(let of): parts.append("of=" + of.iso8601(milliseconds: true))
        case .bury(let until): parts.append("until=" + until.iso8601(milliseconds: false))
        default: break
        }
        for (k, v) in event.fields { parts.append(k + "=" + percentEncode(v)) }
        return parts.joined(separator: " ")
    }

    /// Parses a whole log file; blank lines and `#` comments are skipped. Bad lines are returned as
    /// errors with their location, and reading goes on. `lines` holds each event's line number.
    public static func parse(_ text: String) -> (events: [ReviewEvent], errors: [ReviewLogError], lines: [Int]) {
        var events: [ReviewEvent] = []
        var lines: [Int] = []
        var errors: [ReviewLogError] = []
        var lineNumber = 0
        // `"\r\n"` is one Character, so splitting at `"\n"` alone would glue CRLF lines together.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = rawLine
            if line.last == "\r" { line.removeLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.first == "#" { continue }
            do {
                events.append(try parseLine(line, number: lineNumber))
                lines.append(lineNumber)
            } catch {
                errors.append(error)
            }
        }
        return (events, errors, lines)
    }

    /// Parses one line.
    public static func parseLine(_ line: Substring, number: Int) throws(ReviewLogError) -> ReviewEvent {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        func column(_ i: Int) -> Int {
            // Columns count UTF-8 bytes, as everywhere in Quire's diagnostics.
            guard i < fields.count else { return line.utf8.count + 1 }
            return line.utf8.distance(from: line.startIndex, to: fields[i].startIndex) + 1
        }
        func fail(_ i: Int, _ message: String) -> ReviewLogError {
            ReviewLogError(line: number, column: column(i), message: message)
        }
        guard fields.count >= 3 else { throw fail(min(fields.count, 2), "expected 'TIME EVENT CARD …'") }
        guard let time = Timestamp(iso8601: fields[0]) else { throw fail(0, "bad time '\(fields[0])'") }
        guard let card = CardID(fields[2]) else { throw fail(2, "bad card ID '\(fields[2])'") }
        var rest = Array(fields.dropFirst(3))
        var extras: [(String, String)] = []
        var restStart = 3
        let action: ReviewAction
        switch fields[1] {
        case "grade":
            guard let word = rest.first, let rating = Rating(name: String(word)) else { throw fail(3, "expected a rating (again, hard, good, easy)") }
            action = .grade(rating)
            rest.removeFirst()
            restStart = 4
        case "undo", "bury":
            let key = fields[1] == "undo" ? "of" : "until"
            guard let i = rest.firstIndex(where: { $0.hasPrefix(key + "=") }),
                  let t = Timestamp(iso8601: rest[i].dropFirst(key.count + 1)) else {
                throw fail(3, "expected \(key)=TIME")
            }
            action = fields[1] == "undo" ? .undo(of: t) : .bury(until: t)
            rest.remove(at: i)
        case "suspend": action = .suspend
        case "unsuspend": action = .unsuspend
        case "reset": action = .reset
        case "promote": action = .promote
        case "demote": action = .demote
        case "deactivate": action = .deactivate
        default: throw fail(1, "unknown event '\(fields[1])'")
        }
        for (i, f) in rest.enumerated() {
            guard let eq = f.firstIndex(of: "="), eq != f.startIndex else { throw fail(restStart + i, "expected key=value, found '\(f)'") }
            guard let value = percentDecode(f[f.index(after: eq)...]) else { throw fail(restStart + i, "bad percent-encoding in '\(f)'") }
            extras.append((String(f[..<eq]), value))
        }
        return ReviewEvent(time: time, card: card, action: action, fields: extras)
    }

    /// Percent-encodes space, `%`, control characters and DEL.
    package static func percentEncode(_ s: String) -> String {
        String(decoding: encodeBytes(s), as: UTF8.self)
    }

    private static func encodeBytes(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        for b in s.utf8 {
            if b <= 0x20 || b == 0x25 || b == 0x7F {
                out.append(0x25)
                out.append(hexDigit(b >> 4))
                out.append(hexDigit(b & 15))
            } else {
                out.append(b)
            }
        }
        return out
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 55 + v }

    static func percentDecode(_ s: Substring) -> String? {
        var out: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == 0x25 {
                guard it.count >= 2, let hi = hexValue(it[it.startIndex]), let lo = hexValue(it[it.startIndex + 1]) else { return nil }
                out.append(hi << 4 | lo)
                it = it.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }
}
