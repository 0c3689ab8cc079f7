import Testing
@testable import QuireSupport

/// The JSON reader that takes Anki's collections and the Obsidian plugin's settings — untrusted
/// files — as RFC 8259 says, with errors at their byte offsets and nothing deeper than its limit.
@Suite struct JSONValueParsingTests {
    func read(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    func error(_ text: String) -> JSONValue.ParseError? {
        do { _ = try read(text); return nil } catch let e as JSONValue.ParseError { return e } catch { return nil }
    }

    @Test func values() throws {
        #expect(try read(#" {"a": [1, -2, 2.5, 1e3, true, false, null], "b": {"c": "d"}} "#) == .object([
            ("a", .array([.int(1), .int(-2), .double(2.5), .double(1000), .bool(true), .bool(false), .null])),
            ("b", .object([("c", .string("d"))])),
        ]))
        // Keys keep their order, repeated ones included.
        #expect(try read(#"{"z": 1, "a": 2, "z": 3}"#).serialized() == #"{"z":1,"a":2,"z":3}"#)
        // An integer too large for Int is a Double.
        #expect(try read("123456789012345678901234567890") == .double(123456789012345678901234567890))
        // A byte order mark is skipped.
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    @Test func strings() throws {
        #expect(try read(#""tab\tquote\" slash\/ back\\ é \u00e9 \ud83d\ude00""#) == .string("tab\tquote\" slash/ back\\ é é 😀"))
        // Surrogates without their pair become U+FFFD, never a crash.
        #expect(try read(#""\ud800 \udc00 \ud800\u0041""#) == .string("\u{FFFD} \u{FFFD} \u{FFFD}"))
        #expect(error("\"a\u{01}b\"")?.message.contains("control character") == true)
        #expect(error(#""\q""#)?.message.contains("unknown escape") == true)
        #expect(error(#""\u12""#)?.message.contains("short") == true)
        #expect(error(#""\uZZZZ""#)?.message.contains(#"bad \u escape"#) == true)
    }

    @Test func errorsSayWhere() {
        #expect(error(#"{"a" 1}"#)?.offset == 5)
        #expect(error("[1, 2")?.message.contains("unexpected end") == true)
        #expect(error("[1] x")?.offset == 4)
        #expect(error("")?.message.contains("unexpected end") == true)
        for bad in ["-", "1.", "1e", ".5", "tru", "nul", "{1: 2}", "[1,]", "{\"a\":1,}", "'a'"] {
            #expect(error(bad) != nil, "\(bad)")
        }
    }

    @Test func depthIsLimited() throws {
        let deep = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try read(deep) }
        let deeper = String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        #expect(error(deeper)?.message.contains("nested too deeply") == true)
        // A million opening brackets: refused at the limit, not by a stack overflow.
        #expect(error(String(repeating: "[", count: 1_000_000))?.message.contains("nested too deeply") == true)
    }

    @Test func writtenValuesReadBack() throws {
        let value = JSONValue.object([("s", .string("a\"b\\c\n\u{1}é😀")), ("n", .array([.int(-1), .double(0.1), .bool(true), .null]))])
        #expect(try read(value.serialized()) == value)
        #expect(try read(value.serialized(pretty: true)) == value)
    }
}
