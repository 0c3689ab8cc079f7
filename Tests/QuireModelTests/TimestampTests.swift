import Testing
@testable import QuireModel

@Suite struct TimestampTests {
    private func ts(_ text: String) -> Timestamp? { Timestamp(iso8601: text) }

    @Test func calendarFieldsMatchKnownEpochValues() {
        #expect(Timestamp(year: 1970, month: 1, day: 1).milliseconds == 0)
        #expect(Timestamp(year: 2000, month: 1, day: 1).milliseconds == 946_684_800_000)
        #expect(Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14, second: 3, millisecond: 120).milliseconds
            == 1_795_338_843_120)
        #expect(Timestamp(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59).milliseconds == -1000)
    }

    @Test func plainDateIsMidnightUTC() {
        #expect(ts("2026-11-22") == Timestamp(year: 2026, month: 11, day: 22))
        #expect(ts("2024-02-29") == Timestamp(year: 2024, month: 2, day: 29))
        #expect(ts("2000-02-29") == Timestamp(year: 2000, month: 2, day: 29))
    }

    @Test func timesWithAndWithoutSeconds() {
        let expected = Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14, second: 3)
        #expect(ts("2026-11-22T09:14:03Z") == expected)
        #expect(ts("2026-11-22t09:14:03z") == expected)
        #expect(ts("2026-11-22 09:14:03") == expected)
        #expect(ts("2026-11-22T09:14:03") == expected)
        #expect(ts("2026-11-22T09:14") == Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14))
        #expect(ts("2026-11-22T09:14Z") == Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14))
    }

    @Test func offsetsAreSubtracted() {
        let utc = Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14, second: 3)
        #expect(ts("2026-11-22T10:14:03+01:00") == utc)
        #expect(ts("2026-11-22T10:14:03+0100") == utc)
        #expect(ts("2026-11-22T10:14:03+01") == utc)
        #expect(ts("2026-11-22T03:44:03-05:30") == utc)
        #expect(ts("2026-11-22T09:14:03+00:00") == utc)
        // An offset that crosses midnight moves the date.
        #expect(ts("2026-11-23T01:00:00+02:00") == Timestamp(year: 2026, month: 11, day: 22, hour: 23))
    }

    @Test func fractionsAreMilliseconds() {
        let base = Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14, second: 3)
        #expect(ts("2026-11-22T09:14:03.120Z")?.milliseconds == base.milliseconds + 120)
        #expect(ts("2026-11-22T09:14:03.5Z")?.milliseconds == base.milliseconds + 500)
        #expect(ts("2026-11-22T09:14:03,25Z")?.milliseconds == base.milliseconds + 250)
        // Digits beyond milliseconds are dropped, not rounded.
        #expect(ts("2026-11-22T09:14:03.123999Z")?.milliseconds == base.milliseconds + 123)
        #expect(ts("2026-11-22T10:14:03.007+01:00")?.milliseconds == base.milliseconds + 7)
    }

    @Test func leapSecondIsClampedTo59() {
        #expect(ts("2016-12-31T23:59:60Z") == Timestamp(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 59))
    }

    @Test(arguments: [
        "", "2026", "2026-11", "26-11-22", "2026-1-22", "2026-11-2", "2026/11/22",
        "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-31", "2026-02-29", "1900-02-29",
        "2026-11-22T", "2026-11-22T9:14", "2026-11-22T24:00", "2026-11-22T09:60", "2026-11-22T09:14:61",
        "2026-11-22T09:14:03.", "2026-11-22T09:14:03Zjunk", "2026-11-22junk", "2026-11-22T09:14:03+1",
        "2026-11-22T09:14:03+01:0", "2026-11-22T09", "x2026-11-22", "2026-11-22 ",
    ])
    func invalidTextsAreRejected(_ text: String) {
        #expect(ts(text) == nil)
    }

    @Test func descriptionIsSecondPrecisionUTC() {
        let t = Timestamp(year: 2026, month: 3, day: 5, hour: 7, minute: 8, second: 9, millisecond: 999)
        #expect(t.description == "2026-03-05T07:08:09Z")
        #expect(t.iso8601(milliseconds: true) == "2026-03-05T07:08:09.999Z")
        #expect(Timestamp(milliseconds: 0).iso8601(milliseconds: true) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(milliseconds: -1).iso8601(milliseconds: true) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(year: 812, month: 1, day: 2).description == "0812-01-02T00:00:00Z")
    }

    @Test func utcComponentsOfNegativeTimes() {
        let c = Timestamp(milliseconds: -86_400_001).utcComponents
        #expect(c.year == 1969 && c.month == 12 && c.day == 30)
        #expect(c.hour == 23 && c.minute == 59 && c.second == 59 && c.millisecond == 999)
    }

    @Test func formatThenParseRoundTrips() throws {
        // A spread of instants over four centuries, including leap days and millisecond values.
        var ms: Int64 = -12_219_292_800_000  // 1582-10-15
        while ms < 7_258_118_400_000 {         // 2200-01-01
            let t = Timestamp(milliseconds: ms)
            let parsed = try #require(Timestamp(iso8601: t.iso8601(milliseconds: true)))
            #expect(parsed == t)
            let secondsOnly = try #require(Timestamp(iso8601: t.description))
            #expect(secondsOnly.milliseconds == ms - ((ms % 1000) + 1000) % 1000)
            ms += 86_400_000 * 37 + 3_600_000 * 5 + 61_007
        }
        let leap = Timestamp(year: 2024, month: 2, day: 29, hour: 12)
        #expect(Timestamp(iso8601: leap.description) == leap)
    }

    @Test func addingSecondsRounds() {
        let t = Timestamp(seconds: 100)
        #expect(t.adding(seconds: 1.5).milliseconds == 101_500)
        #expect(t.adding(seconds: -0.0004).milliseconds == 100_000)
        #expect(t.adding(seconds: 86_400).description == "1970-01-02T00:01:40Z")
        #expect(Timestamp(seconds: 3).secondsSinceEpoch == 3.0)
    }

    @Test func ordering() {
        #expect(Timestamp(milliseconds: 1) < Timestamp(milliseconds: 2))
        #expect(!(Timestamp(milliseconds: 2) < Timestamp(milliseconds: 2)))
    }
}
