import Testing
@testable import QuireCuration
import QuireSupport

/// ISO weeks, months and years, and when each review falls due.
@Suite struct CurationPeriodTests {
    static func day(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilCalendar.daysFromCivil(year: y, month: m, day: d) }

    @Test func isoWeeksAcrossYearEnds() {
        // 2026-12-31 (a Thursday) is in 2026-W53; 2021-01-01 (a Friday) in 2020-W53; 2024-12-30 in 2025-W01.
        #expect(CurationPeriod(.weekly, containing: Self.day(2026, 12, 31)).description == "2026-W53")
        #expect(CurationPeriod(.weekly, containing: Self.day(2021, 1, 1)).description == "2020-W53")
        #expect(CurationPeriod(.weekly, containing: Self.day(2024, 12, 30)).description == "2025-W01")
        let w47 = CurationPeriod(.weekly, containing: Self.day(2026, 11, 22))
        #expect(w47.description == "2026-W47" && w47.title == "Week 47, 2026")
        #expect(CurationPeriod.dateText(w47.first) == "2026-11-16" && CurationPeriod.dateText(w47.last) == "2026-11-22")
        #expect(w47.reviewDay() == Self.day(2026, 11, 22), "a week's review falls on its Sunday")
        #expect(CurationPeriod("2026-W47", review: .weekly) == w47)
        #expect(CurationPeriod("2026-W53", review: .weekly) != nil && CurationPeriod("2025-W53", review: .weekly) == nil)
        #expect(CurationPeriod("2026-W00", review: .weekly) == nil && CurationPeriod("2026-11", review: .weekly) == nil)
    }

    @Test func monthsAndYears() {
        let feb = CurationPeriod("2028-02", review: .monthly)
        #expect(feb?.title == "February 2028" && feb.map { $0.last - $0.first + 1 } == 29)
        #expect(feb?.reviewDay() == Self.day(2028, 3, 1))
        let year = CurationPeriod("2026", review: .yearly)
        #expect(year?.reviewDay() == Self.day(2027, 1, 1) && year?.next.description == "2027")
        #expect(CurationPeriod("2026-13", review: .monthly) == nil && CurationPeriod("26", review: .yearly) == nil)
        // Other review days: Friday, the 5th, March 31st (cut to the month's length).
        let days = ReviewDays(weekday: 5, monthDay: 31, yearMonth: 2, yearDay: 31)
        #expect(CurationPeriod("2026-W47", review: .weekly)?.reviewDay(days) == Self.day(2026, 11, 20))
        #expect(feb?.reviewDay(days) == Self.day(2028, 3, 31))
        #expect(year?.reviewDay(days) == Self.day(2027, 2, 28))
    }
}
