@testable import QuireStudy
import Testing
import QuireModel
import QuireScheduling
@testable import QuireReview
@testable import QuireTestSupport

@Suite struct StudyStatsTests {
    private let a = CardID("aaaaaaaaaaaa")!
    private let b = CardID("bbbbbbbbbbbb")!

    private func grade(_ card: CardID, _ r: Rating, _ t: Timestamp, ms: Int? = nil) -> ReviewEvent {
        ReviewEvent(time: t, card: card, action: .grade(r), fields: ms.map { [("ms", String($0))] } ?? [])
    }

    private func stats(_ events: [ReviewEvent], offset: Int = 0) -> StudyStats {
        StudyStats(history: ReviewHistory(events), calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: offset))
    }

    @Test func countsPerStudyDayWithTheRollover() {
        // 02:00 local is still the previous study day; 05:00 is the next.
        let s = stats([grade(a, .good, at(20, 22)), grade(b, .again, at(21, 2)), grade(a, .good, at(21, 5))])
        let d20 = Day(containing: at(20, 12), utcOffsetSeconds: 0, rolloverHour: 4)
        #expect(s.reviewsByDay[d20] == 2)
        #expect(s.newByDay[d20] == 2)
        #expect(s.reviewsByDay[d20.advanced(by: 1)] == 1)
        #expect(s.newByDay[d20.advanced(by: 1)] == nil)
        #expect(s.cards[b]?.accuracy == 0)
        #expect(s.cards[a]?.reviews == 2 && s.cards[a]?.correct == 2)
    }

    @Test func theLocalOffsetDecidesTheDay() {
        // 23:30 UTC is 01:30 the next morning at UTC+2, before the 4 am rollover: still the 20th.
        let s = stats([grade(a, .good, at(20, 23, 30))], offset: 7200)
        #expect(s.reviewsByDay.keys.map(\.description) == ["2026-11-20"])
    }

    @Test func streaks() {
        let days = [1, 2, 3, 5, 6, 7, 8, 20, 21]
        let s = stats(days.map { grade(a, .good, at($0, 12)) })
        let day = { (d: Int) in Day(containing: at(d, 12), utcOffsetSeconds: 0, rolloverHour: 4) }
        #expect(s.streaks(today: day(21)) == (2, 4))
        #expect(s.streaks(today: day(22)) == (2, 4))   // nothing yet today: yesterday's run still counts
        #expect(s.streaks(today: day(23)) == (0, 4))
        #expect(s.streaks(today: day(8)) == (4, 4))
    }

    @Test func undoneAndResetReviewsDoNotCountAndAnswerTimesAverage() {
        let events = [grade(a, .good, at(1), ms: 4000), grade(a, .again, at(2), ms: 8000),
                      ReviewEvent(time: at(2, 10), card: a, action: .undo(of: at(2))),
                      ReviewEvent(time: at(3), card: b, action: .reset), grade(b, .good, at(4), ms: 6000)]
        let s = stats(events)
        #expect(s.cards[a]?.reviews == 1)
        #expect(s.averageAnswerMilliseconds == 5000)
    }
}
