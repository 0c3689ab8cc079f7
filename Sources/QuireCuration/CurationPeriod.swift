import QuireModel
import QuireSupport

/// The three curation reviews (FORMAT.md §2.2): each takes notes of one level and keeps them a
/// level higher, or archives them.
public enum CurationReview: String, CaseIterable, Sendable, Comparable {
    case weekly, monthly, yearly

    /// The level of the notes the review decides on: `daily` notes in a weekly review, …
    public var input: NoteCycle {
        switch self {
        case .weekly: .daily
        case .monthly: .weekly
        case .yearly: .monthly
        }
    }

    /// The level a kept note reaches.
    public var output: NoteCycle {
        switch self {
        case .weekly: .weekly
        case .monthly: .monthly
        case .yearly: .yearly
        }
    }

    /// The review below this one (whose kept notes this one decides on), if any.
    public var lower: CurationReview? {
        switch self {
        case .weekly: nil
        case .monthly: .weekly
        case .yearly: .monthly
        }
    }

    public static func < (a: CurationReview, b: CurationReview) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }
}

/// When each review of a period falls due (FORMAT.md §2.2, `review_days` in the settings): the
/// week's day (ISO: 1 Monday … 7 Sunday), the day of the following month, and the month and day of
/// the following year.
public struct ReviewDays: Sendable, Equatable {
    public var weekday: Int
    public var monthDay: Int
    public var yearMonth: Int
    public var yearDay: Int

    /// Sunday, the 1st, January 1st.
    public static let standard = ReviewDays(weekday: 7, monthDay: 1, yearMonth: 1, yearDay: 1)

    public init(weekday: Int, monthDay: Int, yearMonth: Int, yearDay: Int) {
        self.weekday = weekday
        self.monthDay = monthDay
        self.yearMonth = yearMonth
        self.yearDay = yearDay
    }
}

/// A period a curation review covers: an ISO week (`2026-W47`, Monday to Sunday), a month
/// (`2026-11`) or a year (`2026`). Days are calendar days counted from 1970-01-01.
public struct CurationPeriod: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let review: CurationReview
    /// The first and last calendar day (inclusive).
    public let first: Int
    public let last: Int

    /// The period of `review` that holds calendar day `day`.
    public init(_ review: CurationReview, containing day: Int) {
        self.review = review
        switch review {
        case .weekly:
            // 1970-01-01 was a Thursday; ISO weeks start on Monday.
            let weekday = ((day + 3) % 7 + 7) % 7
            first = day - weekday
            last = first + 6
        case .monthly:
            let c = CivilCalendar.civilFromDays(day)
            first = CivilCalendar.daysFromCivil(year: c.year, month: c.month, day: 1)
            last = first + CivilCalendar.daysIn(month: c.month, year: c.year) - 1
        case .yearly:
            let c = CivilCalendar.civilFromDays(day)
            first = CivilCalendar.daysFromCivil(year: c.year, month: 1, day: 1)
            last = CivilCalendar.daysFromCivil(year: c.year, month: 12, day: 31)
        }
    }

    /// Reads `2026-W47`, `2026-11` or `2026` for `review`; nil when the text is not one.
    public init?(_ text: String, review: CurationReview) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let year = parts.first.flatMap({ Int($0) }), parts[0].count == 4 else { return nil }
        switch (review, parts.count) {
        case (.weekly, 2):
            guard parts[1].hasPrefix("W") || parts[1].hasPrefix("w"), let week = Int(parts[1].dropFirst()),
                  week >= 1, week <= Self.weeksIn(isoYear: year) else { return nil }
            // Week 1 holds January 4th.
            let jan4 = CivilCalendar.daysFromCivil(year: year, month: 1, day: 4)
            self.init(.weekly, containing: jan4 + (week - 1) * 7)
        case (.monthly, 2):
            guard let month = Int(parts[1]), parts[1].count == 2, (1...12).contains(month) else { return nil }
            self.init(.monthly, containing: CivilCalendar.daysFromCivil(year: year, month: month, day: 1))
        case (.yearly, 1):
            self.init(.yearly, containing: CivilCalendar.daysFromCivil(year: year, month: 1, day: 1))
        default:
            return nil
        }
    }

    /// ISO weeks in an ISO year: 53 when it begins on a Thursday, or a Wednesday in a leap year.
    static func weeksIn(isoYear year: Int) -> Int {
        let dec28 = CivilCalendar.daysFromCivil(year: year, month: 12, day: 28)
        return (Self.isoWeek(of: dec28)).week
    }

    /// The ISO week-year and week of a calendar day.
    static func isoWeek(of day: Int) -> (year: Int, week: Int) {
        let weekday = ((day + 3) % 7 + 7) % 7
        let thursday = day - weekday + 3
        let year = CivilCalendar.civilFromDays(thursday).year
        let jan1 = CivilCalendar.daysFromCivil(year: year, month: 1, day: 1)
        return (year, (thursday - jan1) / 7 + 1)
    }

    /// `2026-W47`, `2026-11`, `2026`.
    public var description: String {
        switch review {
        case .weekly:
            let w = Self.isoWeek(of: first)
            return "\(w.year)-W\(w.week < 10 ? "0" : "")\(w.week)"
        case .monthly:
            let c = CivilCalendar.civilFromDays(first)
            return "\(c.year)-\(c.month < 10 ? "0" : "")\(c.month)"
        case .yearly:
            return String(CivilCalendar.civilFromDays(first).year)
        }
    }

    /// `Week 47, 2026`, `November 2026`, `2026`.
    public var title: String {
        switch review {
        case .weekly:
            let w = Self.isoWeek(of: first)
            return "Week \(w.week), \(w.year)"
        case .monthly:
            let c = CivilCalendar.civilFromDays(first)
            return Self.monthNames[c.month - 1] + " \(c.year)"
        case .yearly:
            return String(CivilCalendar.civilFromDays(first).year)
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    /// Whether the period holds calendar day `day`.
    public func contains(_ day: Int) -> Bool { day >= first && day <= last }

    /// The first day the review of this period is due (FORMAT.md §2.2): by default a week's
    /// Sunday, the 1st of the next month, January 1st of the next year.
    public func reviewDay(_ days: ReviewDays = .standard) -> Int {
        switch review {
        case .weekly:
            return first + min(7, max(1, days.weekday)) - 1
        case .monthly:
            let c = CivilCalendar.civilFromDays(last + 1)
            return last + 1 + min(max(1, days.monthDay), CivilCalendar.daysIn(month: c.month, year: c.year)) - 1
        case .yearly:
            let year = CivilCalendar.civilFromDays(last + 1).year
            let month = min(12, max(1, days.yearMonth))
            return CivilCalendar.daysFromCivil(year: year, month: month, day: min(max(1, days.yearDay), CivilCalendar.daysIn(month: month, year: year)))
        }
    }

    /// The next period of the same review.
    public var next: CurationPeriod { CurationPeriod(review, containing: last + 1) }

    public static func < (a: CurationPeriod, b: CurationPeriod) -> Bool {
        (a.first, a.review) < (b.first, b.review)
    }

    /// `2026-11-22` for a calendar day.
    public static func dateText(_ day: Int) -> String {
        let c = CivilCalendar.civilFromDays(day)
        return "\(c.year)-\(c.month < 10 ? "0" : "")\(c.month)-\(c.day < 10 ? "0" : "")\(c.day)"
    }
}
