import Testing
import QuireModel
import QuireReview
import QuireScheduling
@testable import QuireStudy

/// `quire stats`' figures on a log worked out by hand.
@Suite struct VaultStatisticsTests {
    static func t(_ s: String) -> Timestamp { Timestamp(iso8601: s)! }

    static func grade(_ card: CardID, _ r: Rating, _ time: String, ms: Int? = nil, id: String) -> ReviewEvent {
        ReviewEvent(time: t(time), card: card, action: .grade(r), fields: [("id", id)] + (ms.map { [("ms", String($0))] } ?? []))
    }

    @Test func figuresFromALog() throws {
        let a = CardID("aaaaaaaaaaaa")!, b = CardID("bbbbbbbbbbbb")!, c = CardID("cccccccccccc")!
        // Study days begin at 4:00 UTC (offset 0): 2026-11-20T03:00 still belongs to the 19th.
        let events = [
            Self.grade(a, .good, "2026-11-19T10:00:00Z", ms: 4000, id: "e1"),
            Self.grade(a, .good, "2026-11-20T03:00:00Z", ms: 6000, id: "e2"),   // still the 19th's study day
            Self.grade(a, .again, "2026-11-21T10:00:00Z", ms: 2000, id: "e3"),  // a day or more later: young review, failed
            Self.grade(b, .good, "2026-10-01T10:00:00Z", id: "e4"),
            Self.grade(b, .easy, "2026-11-21T11:00:00Z", ms: 8000, id: "e5"),   // 51 days later: mature, passed
            Self.grade(c, .hard, "2026-11-22T09:00:00Z", ms: 1000, id: "e6"),
            Self.grade(c, .good, "2026-11-22T09:05:00Z", id: "e7"),
            ReviewEvent(time: Self.t("2026-11-22T09:06:00Z"), card: c, action: .undo(of: Self.t("2026-11-22T09:05:00Z")),
                        fields: [("of-id", "e7")]),
        ]
        var review = SchedulingState()
        review.state = .review
        review.interval = 30
        review.due = Self.t("2026-11-24T10:00:00Z")
        var young = SchedulingState()
        young.state = .review
        young.interval = 8
        young.due = Self.t("2026-11-20T10:00:00Z")
        var suspended = SchedulingState()
        suspended.state = .review
        suspended.interval = 3
        suspended.suspended = true
        suspended.due = Self.t("2026-11-23T10:00:00Z")
        func card(_ id: CardID, _ s: SchedulingState?) -> Card {
            Card(id: id, kind: .basic, variant: .single, front: "f", back: "b", lines: 1...1, column: 1, headingPath: [],
                 identityText: "f", hasExplicitID: false, schedule: s)
        }
        let cards = [(card(a, young), false), (card(b, review), false), (card(c, suspended), false),
                     (card(CardID("dddddddddddd")!, nil), false)]
        let s = VaultStatistics(cards: cards, history: ReviewHistory(events), now: Self.t("2026-11-22T12:00:00Z"),
                                utcOffset: { _ in 0 }, rolloverHour: 4, days: 5)
        #expect(s.counts.total == 4 && s.counts.new == 1 && s.counts.young == 2 && s.counts.mature == 1 && s.counts.suspended == 1)
        #expect(s.mastery[.learning] == 1 && s.mastery[.developing] == 1 && s.mastery[.proficient] == 1 && s.mastery[.mastered] == 1)
        // Six grades count (e7 was undone); four of them not Again... e3 is Again: 5 of 6 passed.
        #expect(s.reviews == 6)
        #expect(s.successRate == 5.0 / 6.0)
        // Times: today (22nd) 1 s; the last 7 days all of them: 4 + 6 + 2 + 8 + 1 = 21 s over 5 timed answers.
        #expect(s.time.today == 1000 && s.time.week == 21_000 && s.time.all == 21_000)
        #expect(s.secondsPerCard == 4.2)
        // Study days with reviews: Oct 1, Nov 19, 21, 22 → current streak 2 (21–22), longest 2.
        #expect(s.streak.current == 2 && s.streak.longest == 2)
        // Retention: a's e3 (2 days after e2: young, failed), b's e5 (51 days: mature, passed); c's
        // second grade came 5 minutes later and was undone anyway.
        #expect(s.retention.young.passed == 0 && s.retention.young.total == 1)
        #expect(s.retention.mature.passed == 1 && s.retention.mature.total == 1)
        // Due: a overdue (the 20th), b on the 24th (day 2); c suspended is not counted.
        #expect(s.overdue == 1 && s.forecast == [0, 0, 1, 0, 0])
        #expect(s.calendar.count == 365 && s.calendar.last?.reviews == 1 && s.calendar.last?.day.description == "2026-11-22")
        #expect(s.calendar.first { $0.day.description == "2026-11-19" }?.reviews == 2)
        #expect(s.milestones.first?.name == "First Review" && s.milestones.first?.reached == Self.t("2026-10-01T10:00:00Z"))
        #expect(s.milestones.filter(\.achieved).map(\.name) == ["First Review"])
        // A period: the 21st and 22nd only (e3, e5, e6); e3's interval still counts from e2, before it.
        let recent = VaultStatistics(cards: cards, history: ReviewHistory(events), now: Self.t("2026-11-22T12:00:00Z"),
                                     utcOffset: { _ in 0 }, rolloverHour: 4, days: 5,
                                     period: Self.t("2026-11-21T00:00:00Z")...Self.t("2026-11-22T23:59:59Z"))
        #expect(recent.reviews == 3 && recent.retention.young.total == 1 && recent.retention.mature.total == 1)
        #expect(recent.milestones.first?.reached == Self.t("2026-10-01T10:00:00Z"), "milestones read the whole log")
        // A query's cards only: b alone.
        let only = VaultStatistics(cards: [(card(b, review), false)], history: ReviewHistory(events), now: Self.t("2026-11-22T12:00:00Z"),
                                   utcOffset: { _ in 0 }, rolloverHour: 4)
        #expect(only.reviews == 2 && only.counts.total == 1)
    }
}
