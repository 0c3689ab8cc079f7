import QuireModel
import QuireScheduling
import Testing

/// `StudyCalendar`: the study day's lines drawn with the offset in force at each instant.
@Suite struct StudyCalendarTests {
    static func t(_ text: String) throws -> Timestamp { try #require(Timestamp(iso8601: text)) }

    @Test func aFixedOffsetIsTheDayArithmetic() throws {
        let calendar = StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 3600)
        let now = try Self.t("2026-03-10T03:59:00+01:00")
        let day = calendar.day(containing: now)
        #expect(day == Day(containing: now, utcOffsetSeconds: 3600, rolloverHour: 4) && day.description == "2026-03-09")
        #expect(calendar.start(of: day) == day.start(utcOffsetSeconds: 3600, rolloverHour: 4))
        #expect(calendar.end(containing: now) == (try Self.t("2026-03-10T04:00:00+01:00")))
        #expect(calendar.end(containing: now) == Day.end(containing: now, utcOffsetSeconds: 3600, rolloverHour: 4))
    }

    /// Central Europe moves from +01:00 to +02:00 at 2026-03-29 01:00Z: the day after begins at
    /// 04:00 local in the new offset (02:00Z), not in the evening's (03:00Z).
    @Test func aDaylightSavingChangeMovesTheNextDaysStart() throws {
        let change = try Self.t("2026-03-29T01:00:00Z")
        let calendar = StudyCalendar(rolloverHour: 4) { $0 < change ? 3600 : 7200 }
        let evening = try Self.t("2026-03-28T22:00:00+01:00")
        #expect(calendar.day(containing: evening).description == "2026-03-28")
        #expect(calendar.end(containing: evening) == (try Self.t("2026-03-29T04:00:00+02:00")))
        // The same line from either side: a moment before it is in the evening's day.
        let end = calendar.end(containing: evening)
        #expect(calendar.day(containing: Timestamp(milliseconds: end.milliseconds - 1)).description == "2026-03-28")
        #expect(calendar.day(containing: end).description == "2026-03-29")
        // Back to +01:00 on 2026-10-25 at 01:00Z: the day after begins at 04:00 in +01:00 (03:00Z).
        let autumn = try Self.t("2026-10-25T01:00:00Z")
        let back = StudyCalendar(rolloverHour: 4) { $0 < autumn ? 7200 : 3600 }
        #expect(back.end(containing: try Self.t("2026-10-24T23:00:00+02:00")) == (try Self.t("2026-10-25T04:00:00+01:00")))
    }

    @Test func dueIsTheDaysRule() throws {
        let calendar = StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0)
        let now = try Self.t("2026-03-10T12:00:00Z")
        var state = SchedulingState()
        state.state = .review
        state.due = try Self.t("2026-03-11T03:59:00Z")
        #expect(calendar.isDue(state, now: now))
        state.due = try Self.t("2026-03-11T04:00:00Z")
        #expect(!calendar.isDue(state, now: now))
    }
}
