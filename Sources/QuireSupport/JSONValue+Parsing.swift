extension JSONValue {
    /// Why JSON text could not be read, and where (a byte offset).
    public struct ParseError: Error, Sendable {
        public var message: String
        public var offset: Int
    }

    /// The deepest nesting of arrays and objects read; deeper input is an error, so a hostile file
    /// cannot exhaust the stack.
    static let maximumDepth = 256

    /// Reads JSON text (RFC 8259), in time linear in its size. Numbers without a fraction or
    /// exponent that fit an `Int` are `.int`, others `.double`; a UTF-8 byte order mark is skipped.
    public init(parsing bytes: [UInt8]) throws {
        var reader = Reader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        self = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.i == bytes.count else { throw reader.error("unexpected text after the JSON value") }
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        func error(_ message: String) -> ParseError { ParseError(message: "invalid JSON: " + message, offset: i) }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        }

        mutating func expect(_ word: String, _ value: JSONValue) throws -> JSONValue {
            for b in word.utf8 {
                guard i < bytes.count, bytes[i] == b else { throw error("expected '\(word)'") }
                i += 1
            }
            return value
        }

        mutating func value(depth: Int) throws -> JSONValue {
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                guard depth < JSONValue.maximumDepth else { throw error("nested too deeply") }
                i += 1
                var fields: [(String, JSONValue)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                    let key = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    i += 1
                    fields.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                guard depth < JSONValue.maximumDepth else { throw error("nested too deeply") }
                i += 1
                var items: [JSONValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            default: return try number()
            }
        }

        mutating func number() throws -> JSONValue {
            let start = i
            var integral = true
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits() -> Int {
                let from = i
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
                return i - from
            }
            guard digits() > 0 else { throw error("unexpected character") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                integral = false
                i += 1
                guard digits() > 0 else { throw error("expected digits after '.'") }
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                integral = false
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw error("expected digits in the exponent") }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if integral, let value = Int(text) { return .int(value) }
            guard let value = Double(text) else { throw error("bad number") }
            return .double(value)
        }

        mutating func string() throws -> String {
            i += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw error("string not closed") }
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { throw error("string not closed") }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if scalar >= 0xD800, scalar < 0xDC00, i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                           bytes[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            let low = try hex4()
                            scalar = low >= 0xDC00 && low < 0xE000 ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                        }
                        out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
                    default: throw error("unknown escape")
                    }
                case 0..<0x20: throw error("control character in a string")
                default: out.append(b)
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let digit: UInt8
                switch b {
                case 48...57: digit = b - 48
                case 65...70: digit = b - 55
                case 97...102: digit = b - 87
                default: throw error("bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                i += 1
            }
            return value
        }
    }
}
