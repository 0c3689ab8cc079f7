import QuireModel
import QuireScheduling
import Testing

@Suite struct DayTests {
    @Test func rolloverHourSplitsTheNight() throws {
        // UTC+01:00, rollover 4: 03:59 local belongs to the previous study day.
        let before = try #require(Timestamp(iso8601: "2026-03-10T03:59:00+01:00"))
        let after = try #require(Timestamp(iso8601: "2026-03-10T04:00:00+01:00"))
        #expect(Day(containing: before, utcOffsetSeconds: 3600, rolloverHour: 4).description == "2026-03-09")
        #expect(Day(containing: after, utcOffsetSeconds: 3600, rolloverHour: 4).description == "2026-03-10")
        #expect(Day(containing: after, utcOffsetSeconds: 3600, rolloverHour: 4).start(utcOffsetSeconds: 3600, rolloverHour: 4) == after)
    }

    @Test func negativeOffsetsAndRolloverZero() throws {
        // 2026-03-10T02:00Z is still 2026-03-09 21:00 in New York (UTC−05:00).
        let t = try #require(Timestamp(iso8601: "2026-03-10T02:00:00Z"))
        #expect(Day(containing: t, utcOffsetSeconds: -18_000, rolloverHour: 0).description == "2026-03-09")
        #expect(Day(containing: t, utcOffsetSeconds: 0, rolloverHour: 0).description == "2026-03-10")
        #expect(Day(containing: t, utcOffsetSeconds: 0, rolloverHour: 4).description == "2026-03-09")
        let pre1970 = Timestamp(milliseconds: -1)
        #expect(Day(containing: pre1970, utcOffsetSeconds: 0, rolloverHour: 0).number == -1)
    }

    @Test func daysAreOrderedAndStride() {
        let d = Day(number: 100)
        #expect(d.advanced(by: 3) == Day(number: 103) && d.distance(to: Day(number: 90)) == -10 && d < d.advanced(by: 1))
    }

    @Test func reviewCardsAreDueForTheirWholeStudyDay() {
        var s = SchedulingState()
        s.state = .review
        s.due = Timestamp(year: 2026, month: 3, day: 10, hour: 20)
        let morning = Timestamp(year: 2026, month: 3, day: 10, hour: 5)
        let earlyNight = Timestamp(year: 2026, month: 3, day: 10, hour: 3)
        #expect(Day.isDue(s, now: morning, utcOffsetSeconds: 0, rolloverHour: 4))
        #expect(!Day.isDue(s, now: earlyNight, utcOffsetSeconds: 0, rolloverHour: 4))  // still the 9th
        s.suspended = true
        #expect(!Day.isDue(s, now: morning, utcOffsetSeconds: 0, rolloverHour: 4))
    }

    @Test func learningStepsWaitForTheirTime() {
        var s = SchedulingState()
        s.state = .learning
        let now = Timestamp(year: 2026, month: 3, day: 10, hour: 12)
        s.due = now.adding(seconds: 600)
        #expect(!Day.isDue(s, now: now, utcOffsetSeconds: 0, rolloverHour: 4))
        #expect(Day.isDue(s, now: now.adding(seconds: 600), utcOffsetSeconds: 0, rolloverHour: 4))
        #expect(Day.isDue(SchedulingState(), now: now, utcOffsetSeconds: 0, rolloverHour: 4))  // new
    }
}
