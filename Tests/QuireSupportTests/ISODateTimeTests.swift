@testable import QuireSupport
import Testing

/// The one date scanner, in both grammars, and the calendar.
@Suite struct ISODateTimeTests {
    /// Texts both grammars read, and what they read.
    @Test func bothGrammars() throws {
        for grammar in [ISODateTime.Grammar.iso8601, .yaml] {
            let date = try #require(ISODateTime(("2024-02-29"), grammar: grammar))
            #expect(date.year == 2024 && date.month == 2 && date.day == 29 && date.hour == nil && date.utcOffsetSeconds == nil)
            let full = try #require(ISODateTime(("2026-11-22T09:14:03.120Z"), grammar: grammar))
            #expect(full.hour == 9 && full.minute == 14 && full.second == 3 && full.nanosecond == 120_000_000
                && full.utcOffsetSeconds == 0)
            let zoned = try #require(ISODateTime(("2026-11-22 09:14:03 -05:30"), grammar: grammar))
            #expect(zoned.utcOffsetSeconds == -(5 * 3600 + 30 * 60))
            #expect(ISODateTime(("2026-11-22T09:14:03+0200"), grammar: grammar)?.utcOffsetSeconds == 7200)
            #expect(ISODateTime(("2026-11-22T09:14:60Z"), grammar: grammar)?.second == 60)
            for bad in ["2023-02-29", "2026-13-01", "2026-11-22T24:00:00", "2026-11-22T09:60:00", "2026-11-22T09:14:61",
                        "2026-11-22x", "2026-11-22T09:14:03.", "2026-11-22T09:14:03 PST", "", "2026-1-05", "20261122"] {
                #expect(ISODateTime((bad), grammar: grammar) == nil, "\(bad)")
            }
        }
    }

    /// Where the grammars differ, as their specifications do.
    @Test func whereTheGrammarsDiffer() {
        func both(_ text: String) -> (iso: Bool, yaml: Bool) {
            (ISODateTime((text), grammar: .iso8601) != nil, ISODateTime((text), grammar: .yaml) != nil)
        }
        #expect(both("2026-11-22T09:14") == (true, false))            // seconds optional in ISO only
        #expect(both("2024-1-5T10:00:00") == (false, true))           // one-digit month and day: YAML
        #expect(both("2024-01-05T1:00:00") == (false, true))          // one-digit hour: YAML
        #expect(both("2024-01-05\t10:00:00") == (false, true))        // tabs: YAML
        #expect(both("2024-01-05T10:00:00,5") == (true, false))       // comma fraction: ISO
        #expect(both("2024-01-05T10:00:00+25:00") == (true, false))   // offsets checked in YAML
        #expect(both("2024-01-05T10:00:00+5") == (false, true))       // one-digit offset hour: YAML
    }

    @Test func fractionsKeepNineDigits() {
        #expect(ISODateTime(("2026-11-22T09:14:03.1234567891Z"), grammar: .yaml)?.nanosecond == 123_456_789)
        #expect(ISODateTime(("2026-11-22T09:14:03.5"), grammar: .iso8601)?.nanosecond == 500_000_000)
    }

    @Test func calendar() {
        #expect(CivilCalendar.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysFromCivil(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.daysFromCivil(year: 2024, month: 1, day: 5) == 19_727)
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let c = CivilCalendar.civilFromDays(days)
            #expect(CivilCalendar.daysFromCivil(year: c.year, month: c.month, day: c.day) == days)
            #expect((1...CivilCalendar.daysIn(month: c.month, year: c.year)).contains(c.day))
        }
        #expect(CivilCalendar.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilCalendar.daysIn(month: 2, year: 2000) == 29)
    }
}
