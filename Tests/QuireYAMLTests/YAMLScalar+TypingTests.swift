import Testing
@testable import QuireYAML

@Suite struct YAMLScalarTypingTests {
    private func plain(_ text: String) -> YAMLScalar { YAMLScalar(value: text, style: .plain) }

    @Test(arguments: ["", "~", "null", "Null", "NULL"])
    func nulls(_ text: String) {
        #expect(plain(text).isNull)
    }

    @Test(arguments: ["nul", "NuLL", "none", "0"])
    func notNulls(_ text: String) {
        #expect(!plain(text).isNull)
    }

    @Test func bools() {
        for text in ["true", "True", "TRUE"] { #expect(plain(text).bool == true) }
        for text in ["false", "False", "FALSE"] { #expect(plain(text).bool == false) }
        for text in ["yes", "no", "on", "off", "tRue", "1"] { #expect(plain(text).bool == nil) }
    }

    @Test func ints() {
        let table: [(String, Int?)] = [
            ("0", 0), ("42", 42), ("-17", -17), ("+8", 8), ("007", 7),
            ("0x1F", 31), ("0xff", 255), ("0o17", 15), ("0o8", nil), ("0x", nil), ("0xG", nil),
            ("1.0", nil), ("1e3", nil), ("", nil), ("-", nil), ("1_000", nil), ("12a", nil),
            ("99999999999999999999", nil), ("+0x1F", nil),
        ]
        for (text, expected) in table { #expect(plain(text).int == expected, "\(text)") }
    }

    @Test func doubles() {
        let table: [(String, Double?)] = [
            ("1.5", 1.5), ("-2.25", -2.25), ("+.5", 0.5), (".5", 0.5), ("1.", 1.0), ("3", 3),
            ("1e3", 1000), ("2.5E-2", 0.025), ("1.e2", 100), ("-1E+2", -100), ("0x10", 16),
            (".inf", .infinity), ("-.Inf", -.infinity), ("+.INF", .infinity),
            ("1.2.3", nil), ("e3", nil), (".", nil), ("1e", nil), ("abc", nil), ("inf", nil), ("", nil),
        ]
        for (text, expected) in table { #expect(plain(text).double == expected, "\(text)") }
        #expect(plain(".nan").double?.isNaN == true)
        #expect(plain(".NaN").double?.isNaN == true)
    }

    @Test func timestamps() {
        #expect(plain("2024-01-05").timestamp == YAMLTimestamp(year: 2024, month: 1, day: 5))
        #expect(plain("2024-01-05T10:00:00Z").timestamp
            == YAMLTimestamp(year: 2024, month: 1, day: 5, hour: 10, minute: 0, second: 0, utcOffsetSeconds: 0))
        #expect(plain("2024-01-05 10:00:00 +02:00").timestamp
            == YAMLTimestamp(year: 2024, month: 1, day: 5, hour: 10, minute: 0, second: 0, utcOffsetSeconds: 7_200))
        #expect(plain("2001-12-14t21:59:43.10-05:00").timestamp
            == YAMLTimestamp(year: 2001, month: 12, day: 14, hour: 21, minute: 59, second: 43,
                             nanosecond: 100_000_000, utcOffsetSeconds: -18_000))
        #expect(plain("2001-12-14 21:59:43.123456789123").timestamp?.nanosecond == 123_456_789)
        #expect(plain("2001-12-14 21:59:43.5").timestamp?.utcOffsetSeconds == nil)
        #expect(plain("2001-1-4 1:59:43 -5").timestamp
            == YAMLTimestamp(year: 2001, month: 1, day: 4, hour: 1, minute: 59, second: 43, utcOffsetSeconds: -18_000))
        #expect(plain("2024-02-29").timestamp != nil)
        for bad in ["2023-02-29", "2024-13-01", "2024-1-5", "2024-01-05T25:00:00", "2024-01-05T10:00", "24-01-05",
                    "2024-01-05x", "2024-01-05T10:00:00Zz", "2024-01-05T10:00:00.", "today"] {
            #expect(plain(bad).timestamp == nil, "\(bad)")
        }
    }

    @Test func timestampArithmetic() {
        #expect(YAMLTimestamp(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        #expect(YAMLTimestamp(year: 2024, month: 1, day: 5).daysSince1970 == 19_727)
        #expect(YAMLTimestamp(year: 1969, month: 12, day: 31).daysSince1970 == -1)
        let t = YAMLTimestamp(year: 2024, month: 1, day: 5, hour: 10, minute: 0, second: 0, nanosecond: 500_000_000, utcOffsetSeconds: 7_200)
        #expect(t.secondsSince1970() == 1_704_441_600.5)
        #expect(YAMLTimestamp(year: 2024, month: 1, day: 5).secondsSince1970(defaultUTCOffsetSeconds: 3_600) == 1_704_409_200)
    }

    @Test func quotedAndBlockScalarsAreAlwaysStrings() throws {
        let root = try #require(try YAMLParser.parse("a: '1'\nb: \"true\"\nc: |\n  2024-01-05\nd: !!str null\ne: 12\n")?.mapping)
        for key in ["a", "b", "c", "d"] {
            let scalar = try #require(root[key]?.scalar)
            #expect(scalar.int == nil && scalar.bool == nil && scalar.double == nil && scalar.timestamp == nil && !scalar.isNull)
        }
        #expect(root["a"]?.scalar?.string == "1")
        #expect(root["e"]?.scalar?.int == 12)
        #expect(root["e"]?.scalar?.string == "12")
    }

    @Test func parsedDatesKeepTheirSourceText() throws {
        let file = Array("due: 2024-01-05 10:00:00 +02:00 # next\n".utf8)
        let scalar = try #require(try YAMLParser.parse(file)?.mapping?["due"]?.scalar)
        #expect(scalar.timestamp?.utcOffsetSeconds == 7_200)
        #expect(String(decoding: file[scalar.start.offset..<scalar.end.offset], as: UTF8.self) == "2024-01-05 10:00:00 +02:00")
    }
}
