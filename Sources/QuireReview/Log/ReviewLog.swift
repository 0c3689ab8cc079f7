import QuireModel
import QuireSupport

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
        if !event.encodedFields.isEmpty { parts.append(event.encodedFields) }
        return parts.joined(separator: " ")
    }

    /// Parses a whole log file; blank lines and `#` comments are skipped. Bad lines are returned as
    /// errors with their location, and reading goes on. `lines` holds each event's line number.
    public static func parse(_ text: String) -> (events: [ReviewEvent], errors: [ReviewLogError], lines: [Int]) {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Parses a whole log file from its bytes, as ``parse(_:)-(String)`` does; a field that is not
    /// valid UTF-8 is an error of its line.
    public static func parse(_ bytes: [UInt8]) -> (events: [ReviewEvent], errors: [ReviewLogError], lines: [Int]) {
        bytes.withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// The parser proper: one pass over the bytes, line by line, field by field; a long log is cut
    /// at line ends into one part per core, parsed at once and joined in order.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> (events: [ReviewEvent], errors: [ReviewLogError], lines: [Int]) {
        let parts = System.coreCount
        guard bytes.count >= 1 << 20, parts > 1 else {
            let whole = parse(bytes, 0..<bytes.count)
            return (whole.events, whole.errors, whole.lines)
        }
        var bounds = [0]
        for k in 1..<parts {
            var cut = max(bounds[bounds.count - 1], bytes.count * k / parts)
            while cut < bytes.count, bytes[cut - 1] != 0x0A { cut += 1 }
            bounds.append(cut)
        }
        bounds.append(bytes.count)
        struct Bytes: @unchecked Sendable { let buffer: UnsafeBufferPointer<UInt8> }
        let shared = Bytes(buffer: bytes)
        let cuts = bounds
        let results = ResultSlots<(events: [ReviewEvent], errors: [ReviewLogError], lines: [Int], count: Int)>(count: parts)
        inParallelChunks(of: parts, chunk: 1, concurrency: parts) { range in
            results[range.lowerBound] = parse(shared.buffer, cuts[range.lowerBound]..<cuts[range.lowerBound + 1])
            return true
        }
        var events: [ReviewEvent] = [], errors: [ReviewLogError] = [], lines: [Int] = []
        var before = 0
        for k in 0..<parts {
            guard let part = results.take(k) else { continue }
            events += part.events
            lines += part.lines.map { $0 + before }
            errors += part.errors.map { ReviewLogError(line: $0.line + before, column: $0.column, message: $0.message) }
            before += part.count
        }
        return (events, errors, lines)
    }

    /// Parses the lines of `range` (which starts a line), numbering them from 1; `count` is how
    /// many lines it holds.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        -> (events: [ReviewEvent], errors: [ReviewLogError], lines: [Int], count: Int) {
        var events: [ReviewEvent] = []
        var lines: [Int] = []
        // Quire's lines are 80 to 150 bytes: room for them all, give or take.
        events.reserveCapacity(range.count / 80)
        lines.reserveCapacity(range.count / 80)
        var errors: [ReviewLogError] = []
        var fields: [Range<Int>] = []
        fields.reserveCapacity(16)
        var lineNumber = 0
        var start = range.lowerBound
        let count = range.upperBound
        while start < count {
            var end = start
            while end < count, bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            let next = end + 1
            // A CRLF line ending (and any carriage returns before it) is not part of the line.
            while end > start, bytes[end - 1] == 0x0D { end -= 1 }
            var blank = true
            for i in start..<end where bytes[i] != 0x20 && bytes[i] != 0x09 {
                blank = false
                break
            }
            if !blank, bytes[start] != 0x23 {
                switch parseLine(bytes, start..<end, number: lineNumber, fields: &fields) {
                case .success(let event):
                    events.append(event)
                    lines.append(lineNumber)
                case .failure(let error):
                    errors.append(error)
                }
            }
            start = next
        }
        return (events, errors, lines, lineNumber)
    }

    /// Parses one line.
    public static func parseLine(_ line: Substring, number: Int) throws(ReviewLogError) -> ReviewEvent {
        var text = String(line)
        var fields: [Range<Int>] = []
        let result = text.withUTF8 { parseLine($0, 0..<$0.count, number: number, fields: &fields) }
        return try result.get()
    }

    private static func parseLine(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int,
                                  fields: inout [Range<Int>]) -> Result<ReviewEvent, ReviewLogError> {
        fields.removeAll(keepingCapacity: true)
        var i = line.lowerBound
        while i < line.upperBound {
            while i < line.upperBound, b[i] == 0x20 { i += 1 }
            guard i < line.upperBound else { break }
            let s = i
            while i < line.upperBound, b[i] != 0x20 { i += 1 }
            fields.append(s..<i)
        }
        func column(_ k: Int) -> Int {
            // Columns count UTF-8 bytes, as everywhere in Quire's diagnostics.
            k < fields.count ? fields[k].lowerBound - line.lowerBound + 1 : line.count + 1
        }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        func fail(_ k: Int, _ message: String) -> Result<ReviewEvent, ReviewLogError> {
            .failure(ReviewLogError(line: number, column: column(k), message: message))
        }
        func equals(_ r: Range<Int>, _ word: StaticString) -> Bool {
            guard r.count == word.utf8CodeUnitCount else { return false }
            let w = word.utf8Start
            for k in 0..<r.count where b[r.lowerBound + k] != w[k] { return false }
            return true
        }
        guard fields.count >= 3 else { return fail(min(fields.count, 2), "expected 'TIME EVENT CARD …'") }
        guard let time = timestamp(b, fields[0]) else { return fail(0, "bad time '\(text(fields[0]))'") }
        let idRange = fields[2]
        guard let card = CardID(text(idRange)) else {
            return fail(2, "bad card ID '\(text(idRange))'")
        }
        var rest = 3
        var skipped: Int?
        let action: ReviewAction
        let word = fields[1]
        if equals(word, "grade") {
            let rating: Rating? = fields.count < 4 ? nil
                : equals(fields[3], "good") ? .good : equals(fields[3], "again") ? .again
                : equals(fields[3], "hard") ? .hard : equals(fields[3], "easy") ? .easy : Rating(name: text(fields[3]))
            guard let rating else { return fail(3, "expected a rating (again, hard, good, easy)") }
            action = .grade(rating)
            rest = 4
        } else if equals(word, "undo") || equals(word, "bury") {
            let undo = equals(word, "undo")
            let key: [UInt8] = undo ? Array("of=".utf8) : Array("until=".utf8)
            guard let k = fields.indices.dropFirst(3).first(where: { f in
                      fields[f].count >= key.count && key.indices.allSatisfy { b[fields[f].lowerBound + $0] == key[$0] }
                  }),
                  let t = timestamp(b, fields[k].lowerBound + key.count..<fields[k].upperBound) else {
                return fail(3, "expected \(undo ? "of" : "until")=TIME")
            }
            action = undo ? .undo(of: t) : .bury(until: t)
            skipped = k
        } else if let plain = plainActions.first(where: { equals(word, $0.word) }) {
            action = plain.action
        } else {
            return fail(1, "unknown event '\(text(word))'")
        }
        // The extra fields, checked; kept as the log's text (one string), rewritten only when an
        // escape could be written shorter, a field was taken out or spaces were doubled.
        var canonical = true
        for k in rest..<fields.count where k != skipped {
            let f = fields[k]
            guard let eq = f.first(where: { b[$0] == 0x3D }), eq != f.lowerBound else {
                return fail(k, "expected key=value, found '\(text(f))'")
            }
            let value = UnsafeBufferPointer(rebasing: b[eq + 1..<f.upperBound])
            if value.contains(0x25) {
                guard let decoded = ReviewEvent.percentDecode(value) else { return fail(k, "bad percent-encoding in '\(text(f))'") }
                if ReviewEvent.percentEncode(decoded).utf8.count != value.count { canonical = false }
            }
            if k > rest, fields[k].lowerBound != fields[k - 1].upperBound + 1 { canonical = false }
        }
        // The first and last fields kept (the undo's or bury's time is not one of them).
        var first = rest, last = fields.count - 1
        if first == skipped { first += 1 }
        if last == skipped { last -= 1 }
        let encoded: String
        if first <= last {
            func kept() -> [Int] { (first...last).filter { $0 != skipped } }
            let tail = UnsafeBufferPointer(rebasing: b[fields[first].lowerBound..<fields[last].upperBound])
            guard let tailText = String(validating: tail, as: UTF8.self) else {
                let bad = kept().first { String(validating: UnsafeBufferPointer(rebasing: b[fields[$0]]), as: UTF8.self) == nil } ?? first
                return fail(bad, "invalid UTF-8 in '\(text(fields[bad]))'")
            }
            if canonical && skipped.map({ !(first..<last).contains($0) }) ?? true {
                encoded = tailText
            } else {
                encoded = kept().map { k -> String in
                    let f = fields[k]
                    let eq = f.first { b[$0] == 0x3D } ?? f.lowerBound
                    let value = ReviewEvent.percentDecode(UnsafeBufferPointer(rebasing: b[eq + 1..<f.upperBound])) ?? ""
                    return text(f.lowerBound..<eq) + "=" + ReviewEvent.percentEncode(value)
                }.joined(separator: " ")
            }
        } else {
            encoded = ""
        }
        return .success(ReviewEvent(time: time, card: card, action: action, encodedFields: encoded))
    }

    /// The events that are their word alone.
    private static let plainActions: [(word: StaticString, action: ReviewAction)] = [
        ("suspend", .suspend), ("unsuspend", .unsuspend), ("reset", .reset), ("promote", .promote), ("demote", .demote),
        ("deactivate", .deactivate),
    ]

    /// A time: `YYYY-MM-DDTHH:MM:SS.mmmZ` and `YYYY-MM-DDTHH:MM:SSZ` (what Quire writes) read
    /// digit by digit; anything else as ``Timestamp/init(iso8601:)-(Substring)`` reads it.
    private static func timestamp(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Timestamp? {
        func digits(_ at: Int, _ n: Int) -> Int? {
            var v = 0
            for k in at..<at + n {
                let d = Int(b[r.lowerBound + k]) - 48
                guard d >= 0, d <= 9 else { return nil }
                v = v * 10 + d
            }
            return v
        }
        func byte(_ at: Int) -> UInt8 { b[r.lowerBound + at] }
        if r.count == 24 || r.count == 20, byte(4) == 0x2D, byte(7) == 0x2D, byte(10) == 0x54, byte(13) == 0x3A, byte(16) == 0x3A,
           byte(r.count - 1) == 0x5A, r.count == 20 || byte(19) == 0x2E,
           let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
           let minute = digits(14, 2), let second = digits(17, 2), let ms = r.count == 24 ? digits(20, 3) : 0,
           (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year), hour < 24, minute < 60, second <= 60 {
            return Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59), millisecond: ms)
        }
        return Timestamp(iso8601: Substring(String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self)))
    }

    /// Percent-encodes space, `%`, control characters and DEL.
    package static func percentEncode(_ s: String) -> String { ReviewEvent.percentEncode(s) }

    static func percentDecode(_ s: Substring) -> String? { ReviewEvent.percentDecode(s) }
}
