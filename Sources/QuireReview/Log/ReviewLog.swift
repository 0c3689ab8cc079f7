import QuireModel
import QuireSupport

/// A review-log line that could not be read.
public struct ReviewLogError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(line):\(column): \(message)" }
}

/// A part's parser handed to another thread: it reads bytes no thread writes.
private struct UncheckedPart<T>: @unchecked Sendable { let run: (Range<Int>) -> T }

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
        let parts = inParts(bytes) { range in
            var events: [ReviewEvent] = []
            var lines: [Int] = []
            // Quire's lines are 80 to 150 bytes: room for them all, give or take.
            events.reserveCapacity(range.count / 80)
            lines.reserveCapacity(range.count / 80)
            var errors: [ReviewLogError] = []
            var fields: [Range<Int>] = []
            fields.reserveCapacity(16)
            let count = forEachLine(bytes, range) { line, number in
                switch parseLine(bytes, line, number: number, fields: &fields) {
                case .success(let event):
                    events.append(event)
                    lines.append(number)
                case .failure(let error):
                    errors.append(error)
                }
            }
            return (events: events, errors: errors, lines: lines, count: count)
        }
        guard parts.count > 1 else { return (parts[0].events, parts[0].errors, parts[0].lines) }
        var events: [ReviewEvent] = [], errors: [ReviewLogError] = [], lines: [Int] = []
        var before = 0
        for part in parts {
            events += part.events
            lines += part.lines.map { $0 + before }
            errors += part.errors.map { ReviewLogError(line: $0.line + before, column: $0.column, message: $0.message) }
            before += part.count
        }
        return (events, errors, lines)
    }

    /// Runs `body` on parts of `bytes` cut at line ends, one per core at once for a long log (1 MB
    /// or more), and returns their results in order.
    static func inParts<T: Sendable>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: @escaping (Range<Int>) -> T) -> [T] {
        let parts = System.coreCount
        guard bytes.count >= 1 << 20, parts > 1 else { return [body(0..<bytes.count)] }
        var bounds = [0]
        for k in 1..<parts {
            var cut = max(bounds[bounds.count - 1], bytes.count * k / parts)
            while cut < bytes.count, bytes[cut - 1] != 0x0A { cut += 1 }
            bounds.append(cut)
        }
        bounds.append(bytes.count)
        let shared = UncheckedPart(run: body)
        let cuts = bounds
        let results = ResultSlots<T>(count: parts)
        inParallelChunks(of: parts, chunk: 1, concurrency: parts) { range in
            results[range.lowerBound] = shared.run(cuts[range.lowerBound]..<cuts[range.lowerBound + 1])
            return true
        }
        return (0..<parts).compactMap { results.take($0) }
    }

    /// Calls `body` with each line of `range` (which starts a line) that holds an event: not blank,
    /// not a `#` comment, without its line ending; lines are numbered from 1. Returns how many
    /// lines the range holds.
    static func forEachLine(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (Range<Int>, Int) -> Void) -> Int {
        var lineNumber = 0
        var start = range.lowerBound
        let count = range.upperBound
        while start < count {
            var end = count
            if let base = bytes.baseAddress, let newline = RawBytes.first(0x0A, in: base + start, count: count - start) {
                end = newline - UnsafeRawPointer(base)
            }
            lineNumber += 1
            let next = end + 1
            // A CRLF line ending (and any carriage returns before it) is not part of the line.
            while end > start, bytes[end - 1] == 0x0D { end -= 1 }
            var blank = true
            for i in start..<end where bytes[i] != 0x20 && bytes[i] != 0x09 {
                blank = false
                break
            }
            if !blank, bytes[start] != 0x23 { body(start..<end, lineNumber) }
            start = next
        }
        return lineNumber
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
        let parts: LineParts
        switch LineParts.parse(b, line, number: number, fields: &fields) {
        case .success(let p): parts = p
        case .failure(let error): return .failure(error)
        }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        guard let card = CardID(text(parts.card)) else {
            return .failure(ReviewLogError(line: number, column: parts.card.lowerBound - line.lowerBound + 1, message: "bad card ID"))
        }
        // The extra fields kept as the log's text (one string), rewritten only when an escape could
        // be written shorter, a field was taken out or spaces were doubled.
        let encoded: String
        if let first = parts.firstKept, let last = parts.lastKept {
            if parts.canonical && parts.skipped.map({ !(first..<last).contains($0) }) ?? true {
                encoded = text(fields[first].lowerBound..<fields[last].upperBound)
            } else {
                encoded = parts.kept.map { k -> String in
                    let f = fields[k]
                    let eq = f.first { b[$0] == 0x3D } ?? f.lowerBound
                    let value = ReviewEvent.percentDecode(UnsafeBufferPointer(rebasing: b[eq + 1..<f.upperBound])) ?? ""
                    return text(f.lowerBound..<eq) + "=" + ReviewEvent.percentEncode(value)
                }.joined(separator: " ")
            }
        } else {
            encoded = ""
        }
        return .success(ReviewEvent(time: parts.time, card: card, action: parts.action, encodedFields: encoded))
    }

    /// One line taken apart and checked, before anything is made of it: what the event reader and
    /// the statistics reader (``StatisticsLog``) share, so that both take and refuse the same lines.
    struct LineParts {
        var time: Timestamp
        /// The card ID's bytes (checked).
        var card: Range<Int>
        var action: ReviewAction
        /// The first extra field (after the rating, if any), among the line's fields.
        var rest: Int
        /// The field that gave an undo's or a bury's time: not an extra field.
        var skipped: Int?
        /// The number of fields.
        var count: Int
        /// Whether the extra fields are written as the log would write them: escapes no longer
        /// than needed, single spaces.
        var canonical: Bool

        /// The extra fields' indices.
        var kept: [Int] { (rest..<count).filter { $0 != skipped } }
        /// The first and the last extra field's index.
        var firstKept: Int? { rest == skipped ? (rest + 1 < count ? rest + 1 : nil) : (rest < count ? rest : nil) }
        var lastKept: Int? { count - 1 == skipped ? (count - 2 >= rest ? count - 2 : nil) : (count - 1 >= rest ? count - 1 : nil) }

        /// Splits `line` into `fields` (byte ranges) and checks it: the time, the event word, the
        /// card ID, the rating or time it needs, and each extra field's `key=value` form, escapes
        /// and UTF-8.
        static func parse(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int,
                          fields: inout [Range<Int>]) -> Result<LineParts, ReviewLogError> {
            split(b, line, into: &fields)
            let s = SplitLine(b: b, line: line, number: number, fields: fields)
            guard fields.count >= 3 else { return s.fail(min(fields.count, 2), "expected 'TIME EVENT CARD …'") }
            guard let time = timestamp(b, fields[0]) else { return s.fail(0, "bad time '\(s.text(fields[0]))'") }
            let idRange = fields[2]
            guard idRange.count <= 64, idRange.allSatisfy({ CardID.isIDByte(b[$0]) }) else {
                return s.fail(2, "bad card ID '\(s.text(idRange))'")
            }
            let action: ReviewAction, rest: Int, skipped: Int?
            switch Self.action(of: s) {
            case .success(let found): (action, rest, skipped) = found
            case .failure(let error): return .failure(error)
            }
            // Escapes and bytes beyond ASCII, looked for in the whole tail at once: most lines
            // have neither.
            let tail = rest < fields.count ? fields[rest].lowerBound..<line.upperBound : line.upperBound..<line.upperBound
            let escaped = b.baseAddress.map { RawBytes.first(0x25, in: $0 + tail.lowerBound, count: tail.count) != nil } ?? false
            let ascii = b.baseAddress.map { RawBytes.isASCII($0 + tail.lowerBound, count: tail.count) } ?? true
            var canonical = true
            for k in rest..<fields.count where k != skipped {
                let f = fields[k]
                guard let eq = f.first(where: { b[$0] == 0x3D }), eq != f.lowerBound else {
                    return s.fail(k, "expected key=value, found '\(s.text(f))'")
                }
                let value = UnsafeBufferPointer(rebasing: b[eq + 1..<f.upperBound])
                if escaped, value.contains(0x25) {
                    guard let decoded = ReviewEvent.percentDecode(value) else { return s.fail(k, "bad percent-encoding in '\(s.text(f))'") }
                    if ReviewEvent.percentEncode(decoded).utf8.count != value.count { canonical = false }
                }
                if k > rest, fields[k].lowerBound != fields[k - 1].upperBound + 1 { canonical = false }
            }
            if action == .set, let error = Self.setProblem(s, rest: rest, skipped: skipped) { return .failure(error) }
            // UTF-8: anything beyond ASCII checked field by field.
            let parts = LineParts(time: time, card: idRange, action: action, rest: rest, skipped: skipped, count: fields.count,
                                  canonical: canonical)
            for k in rest..<fields.count where !ascii && k != skipped && fields[k].contains(where: { b[$0] >= 0x80 }) {
                if String(validating: UnsafeBufferPointer(rebasing: b[fields[k]]), as: UTF8.self) == nil {
                    return s.fail(k, "invalid UTF-8 in '\(s.text(fields[k]))'")
                }
            }
            return .success(parts)
        }

        /// Splits `line` into `fields` (byte ranges) at runs of spaces.
        private static func split(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, into fields: inout [Range<Int>]) {
            fields.removeAll(keepingCapacity: true)
            var i = line.lowerBound
            while i < line.upperBound {
                while i < line.upperBound, b[i] == 0x20 { i += 1 }
                guard i < line.upperBound, let base = b.baseAddress else { break }
                let s = i
                i = RawBytes.first(0x20, in: base + i, count: line.upperBound - i).map { $0 - UnsafeRawPointer(base) } ?? line.upperBound
                fields.append(s..<i)
            }
        }

        /// The event a line's second field names, with what it needs (a grade's rating, an undo's
        /// or a bury's time); the first extra field's index, and the field that gave the time.
        private static func action(of s: SplitLine) -> Result<(action: ReviewAction, rest: Int, skipped: Int?), ReviewLogError> {
            let b = s.b, fields = s.fields
            let word = fields[1]
            if s.equals(word, "grade") {
                let rating: Rating? = fields.count < 4 ? nil
                    : s.equals(fields[3], "good") ? .good : s.equals(fields[3], "again") ? .again
                    : s.equals(fields[3], "hard") ? .hard : s.equals(fields[3], "easy") ? .easy : Rating(name: s.text(fields[3]))
                guard let rating else { return .failure(s.error(3, "expected a rating (again, hard, good, easy)")) }
                return .success((.grade(rating), 4, nil))
            } else if s.equals(word, "undo") || s.equals(word, "bury") {
                let undo = s.equals(word, "undo")
                let key: [UInt8] = undo ? Array("of=".utf8) : Array("until=".utf8)
                guard let k = fields.indices.dropFirst(3).first(where: { f in
                          fields[f].count >= key.count && key.indices.allSatisfy { b[fields[f].lowerBound + $0] == key[$0] }
                      }),
                      let t = timestamp(b, fields[k].lowerBound + key.count..<fields[k].upperBound) else {
                    return .failure(s.error(3, "expected \(undo ? "of" : "until")=TIME"))
                }
                return .success((undo ? .undo(of: t) : .bury(until: t), 3, k))
            } else if let plain = plainActions.first(where: { s.equals(word, $0.word) }) {
                return .success((plain.action, 3, nil))
            }
            return .failure(s.error(1, "unknown event '\(s.text(word))'"))
        }

        /// What is wrong with a `set` event's fields, if anything: a `set` gives a whole state,
        /// `state=` and every known field readable.
        private static func setProblem(_ s: SplitLine, rest: Int, skipped: Int?) -> ReviewLogError? {
            let b = s.b, fields = s.fields
            var state = SchedulingState()
            var sawState = false
            for k in rest..<fields.count where k != skipped {
                let f = fields[k]
                guard let eq = f.first(where: { b[$0] == 0x3D }) else { continue }
                let key = s.text(f.lowerBound..<eq)
                guard SchedulingState.isReadableField(key) else { continue }
                let raw = UnsafeBufferPointer(rebasing: b[eq + 1..<f.upperBound])
                let value = ReviewEvent.percentDecode(raw) ?? ""
                if let expected = state.read(field: key, text: value) {
                    return s.error(k, "field '\(key)' must be \(expected), not '\(value)'")
                }
                if key == "state" { sawState = true }
            }
            return sawState ? nil : s.error(fields.count, "a set event needs state=")
        }
    }

    /// A log line's bytes split into fields, with what checking it needs: a field's text and
    /// column, and the problem at a field.
    private struct SplitLine {
        let b: UnsafeBufferPointer<UInt8>
        let line: Range<Int>
        /// The line's number in the log.
        let number: Int
        let fields: [Range<Int>]

        /// The column field `k` starts at (past the last field: the line's end), counting UTF-8
        /// bytes, as everywhere in Quire's diagnostics.
        func column(_ k: Int) -> Int {
            k < fields.count ? fields[k].lowerBound - line.lowerBound + 1 : line.count + 1
        }

        /// The bytes of `r` as text.
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }

        /// The problem `message` at field `k`.
        func error(_ k: Int, _ message: String) -> ReviewLogError {
            ReviewLogError(line: number, column: column(k), message: message)
        }

        /// The line refused with the problem `message` at field `k`.
        func fail(_ k: Int, _ message: String) -> Result<LineParts, ReviewLogError> { .failure(error(k, message)) }

        /// Whether the bytes of `r` are `word`.
        func equals(_ r: Range<Int>, _ word: StaticString) -> Bool {
            guard r.count == word.utf8CodeUnitCount else { return false }
            let w = word.utf8Start
            for k in 0..<r.count where b[r.lowerBound + k] != w[k] { return false }
            return true
        }
    }

    /// The events that are their word alone.
    private static let plainActions: [(word: StaticString, action: ReviewAction)] = [
        ("suspend", .suspend), ("unsuspend", .unsuspend), ("reset", .reset), ("promote", .promote), ("demote", .demote),
        ("deactivate", .deactivate), ("set", .set),
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
