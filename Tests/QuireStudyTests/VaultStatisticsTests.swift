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

    /// The last 30 days (reviews, time, cards added), retention by hour of day, and the
    /// retrievability of cards with a memory now.
    @Test func recentDaysHoursAddedAndRetrievability() throws {
        let a = CardID("aaaaaaaaaaaa")!, b = CardID("bbbbbbbbbbbb")!
        let events = [
            Self.grade(a, .good, "2026-11-01T10:00:00Z", ms: 4000, id: "e1"),
            Self.grade(a, .good, "2026-11-12T09:30:00Z", ms: 6000, id: "e2"),   // still a learning step
            Self.grade(a, .again, "2026-11-21T09:10:00Z", ms: 2000, id: "e3"),  // review at 9, failed
            Self.grade(b, .easy, "2026-11-10T20:00:00Z", id: "e4"),
            Self.grade(b, .good, "2026-11-22T20:15:00Z", ms: 3000, id: "e5"),   // review at 20 (tomorrow's 21:15 in UTC+1)
        ]
        var memory = SchedulingState()
        memory.state = .review
        memory.stability = 10
        memory.difficulty = 5
        memory.lastReview = Self.t("2026-11-22T11:00:00Z")
        memory.due = Self.t("2026-12-02T11:00:00Z")
        func card(_ id: CardID, _ s: SchedulingState?) -> Card {
            Card(id: id, kind: .basic, variant: .single, front: "f", back: "b", lines: 1...1, column: 1, headingPath: [],
                 identityText: "f", hasExplicitID: false, schedule: s)
        }
        let created: [CardID: Timestamp] = [a: Self.t("2026-11-01T08:00:00Z"), b: Self.t("2026-11-22T08:00:00Z")]
        let s = VaultStatistics(cards: [(card(a, nil), false), (card(b, memory), false)], log: StatisticsLog(events),
                                now: Self.t("2026-11-22T23:00:00Z"), calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 3600),
                                created: { created[$0] })
        #expect(s.recentDays.count == 30 && s.recentDays.last?.day.description == "2026-11-22")
        let byDay = Dictionary(uniqueKeysWithValues: s.recentDays.map { ($0.day.description, ($0.reviews, $0.milliseconds)) })
        #expect(byDay["2026-11-12"]! == (1, 6000) && byDay["2026-11-21"]! == (1, 2000) && byDay["2026-11-22"]! == (1, 3000))
        #expect(byDay["2026-11-01"]! == (1, 4000))
        // Hours in local time (UTC+1), reviews of cards in review only: e2 answered a card still in
        // its learning steps; e3 at 9:10 UTC is 10 o'clock, failed; e5 at 20:15 UTC is 21, passed.
        #expect(s.hours[10] == (1, 0) && s.hours[21] == (1, 1) && s.hours.reduce(0) { $0 + $1.reviews } == 2)
        #expect(s.added.last?.cards == 1 && s.added.first { $0.day.description == "2026-11-01" }?.cards == 1)
        // Ten days' stability, half a day since the review: FSRS's recall is in the top bin.
        #expect(s.retrievability[9] == 1 && s.retrievability.reduce(0, +) == 1)
    }

    @Test func figuresFromALog() throws {
        let a = CardID("aaaaaaaaaaaa")!, b = CardID("bbbbbbbbbbbb")!, c = CardID("cccccccccccc")!
        // Study days begin at 4:00 UTC (offset 0): 2026-11-20T03:00 still belongs to the 19th.
        let events = [
            Self.grade(a, .good, "2026-11-19T10:00:00Z", ms: 4000, id: "e1"),
            Self.grade(a, .good, "2026-11-20T03:00:00Z", ms: 6000, id: "e2"),   // still the 19th's study day
            Self.grade(a, .again, "2026-11-21T10:00:00Z", ms: 2000, id: "e3"),  // a day or more later: young review, failed
            Self.grade(b, .easy, "2026-10-01T10:00:00Z", id: "e4"),     // new → review, interval 8 (FSRS-6's w3)
            Self.grade(b, .good, "2026-10-12T10:00:00Z", id: "e4b"),    // young review passed → interval over 21
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
        let s = VaultStatistics(cards: cards, log: StatisticsLog(events), now: Self.t("2026-11-22T12:00:00Z"),
                                calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0), days: 5)
        #expect(s.counts.total == 4 && s.counts.new == 1 && s.counts.young == 2 && s.counts.mature == 1 && s.counts.suspended == 1)
        #expect(s.mastery[.learning] == 1 && s.mastery[.developing] == 1 && s.mastery[.proficient] == 1 && s.mastery[.mastered] == 1)
        // Seven grades count (e7 was undone); e3 alone is Again: 6 of 7 passed.
        #expect(s.reviews == 7)
        #expect(s.successRate == 6.0 / 7.0)
        // Times: today (22nd) 1 s; the last 7 days all of them: 4 + 6 + 2 + 8 + 1 = 21 s over 5 timed answers.
        #expect(s.time.today == 1000 && s.time.week == 21_000 && s.time.all == 21_000)
        #expect(s.secondsPerCard == 4.2)
        // Study days with reviews: Oct 1, Oct 12, Nov 19, 21, 22 → current streak 2 (21–22), longest 2.
        #expect(s.streak.current == 2 && s.streak.longest == 2)
        // Retention counts cards in review when answered: a's e3 (graduated by e2: young, failed),
        // b's e4b (interval 8: young, passed) and e5 (interval over 21: mature, passed). a's e1–e2,
        // b's e4 and c's e6 answered new or learning cards.
        #expect(s.retention.young.passed == 1 && s.retention.young.total == 2)
        #expect(s.retention.mature.passed == 1 && s.retention.mature.total == 1)
        #expect(s.buttons[.learning] == [.again: 0, .hard: 1, .good: 2, .easy: 1])
        #expect(s.buttons[.young] == [.again: 1, .hard: 0, .good: 1, .easy: 0])
        #expect(s.buttons[.mature] == [.again: 0, .hard: 0, .good: 0, .easy: 1])
        // By period: yesterday (the 21st) holds e3 and e5; e4b (41 days ago) only the year and all.
        #expect(s.retentionByPeriod[.today] == VaultStatistics.Retention())
        let yesterday = try #require(s.retentionByPeriod[.yesterday])
        #expect(yesterday.young == (0, 1) && yesterday.mature == (1, 1))
        #expect(s.retentionByPeriod[.week] == yesterday && s.retentionByPeriod[.month] == yesterday)
        let year = try #require(s.retentionByPeriod[.year])
        #expect(year.young == (1, 2) && year.mature == (1, 1) && s.retentionByPeriod[.all] == year)
        // Calibration: the three reviews of cards in review, each with an FSRS memory; 2 passed.
        #expect(s.calibration.reduce(0) { $0 + $1.reviews } == 3 && s.calibration.reduce(0) { $0 + $1.passed } == 2)
        #expect(s.calibration.allSatisfy { bin in bin.meanPredicted.map { bin.range.contains($0) } ?? true })
        #expect(s.calibrationError != nil)
        // Intervals of the cards in review now: c 3 d, a 8 d, b 30 d. No card has an FSRS memory.
        #expect(s.intervals.filter { $0.count > 0 }.map(\.label) == ["2–3 d", "8–14 d", "21–30 d"])
        #expect(s.intervals.map(\.label).first == "0–1 d" && s.intervals.map(\.label).last == ">365 d")
        #expect(s.stability.allSatisfy { $0.count == 0 } && s.difficulty.allSatisfy { $0.count == 0 })
        // Due: a overdue (the 20th), b on the 24th (day 2); c suspended is not counted.
        #expect(s.overdue == 1 && s.forecast == [0, 0, 1, 0, 0])
        #expect(s.calendar.count == 365 && s.calendar.last?.reviews == 1 && s.calendar.last?.day.description == "2026-11-22")
        #expect(s.calendar.first { $0.day.description == "2026-11-19" }?.reviews == 2)
        #expect(s.milestones.first?.name == "First Review" && s.milestones.first?.reached == Self.t("2026-10-01T10:00:00Z"))
        #expect(s.milestones.filter(\.achieved).map(\.name) == ["First Review"])
        // A period: the 21st and 22nd only (e3, e5, e6); e3's interval still counts from e2, before it.
        let recent = VaultStatistics(cards: cards, log: StatisticsLog(events), now: Self.t("2026-11-22T12:00:00Z"),
                                     calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0), days: 5,
                                     period: Self.t("2026-11-21T00:00:00Z")...Self.t("2026-11-22T23:59:59Z"))
        #expect(recent.reviews == 3 && recent.retention.young.total == 1 && recent.retention.mature.total == 1)
        #expect(recent.milestones.first?.reached == Self.t("2026-10-01T10:00:00Z"), "milestones read the whole log")
        // A query's cards only: b alone.
        let only = VaultStatistics(cards: [(card(b, review), false)], log: StatisticsLog(events), now: Self.t("2026-11-22T12:00:00Z"),
                                   calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0))
        #expect(only.reviews == 3 && only.counts.total == 1)
    }

    /// A traveller: study days follow the local offset at each review, not UTC and not today's.
    @Test func timeZoneChanges() {
        let a = CardID("aaaaaaaaaaaa")!
        // Tokyo (+9 h) until 2026-11-11T00:00Z, then New York (−5 h); study days begin at 4:00 local.
        let landed = Self.t("2026-11-11T00:00:00Z")
        let offset: @Sendable (Timestamp) -> Int = { $0 < landed ? 9 * 3600 : -5 * 3600 }
        let events = [
            Self.grade(a, .good, "2026-11-10T01:00:00Z", ms: 1000, id: "e1"),  // Tokyo 10:00 on the 10th
            Self.grade(a, .good, "2026-11-11T12:00:00Z", ms: 1000, id: "e2"),  // New York 07:00 on the 11th
            Self.grade(a, .good, "2026-11-12T03:00:00Z", ms: 1000, id: "e3"),  // New York 22:00: still the 11th
            Self.grade(a, .good, "2026-11-12T14:00:00Z", ms: 1000, id: "e4"),  // New York 09:00 on the 12th
        ]
        let card = Card(id: a, kind: .basic, variant: .single, front: "f", back: "b", lines: 1...1, column: 1, headingPath: [],
                        identityText: "f", hasExplicitID: false, schedule: nil)
        let now = Self.t("2026-11-12T15:00:00Z")
        let s = VaultStatistics(cards: [(card, false)], log: StatisticsLog(events), now: now, calendar: StudyCalendar(rolloverHour: 4, utcOffset: offset))
        #expect(s.streak.current == 3 && s.streak.longest == 3)
        #expect(s.calendar.suffix(3).map(\.reviews) == [1, 2, 1])
        #expect(s.calendar.last?.day.description == "2026-11-12")
        #expect(s.time.today == 1000)
        // In UTC the same log has study days the 9th (01:00 is before 4:00), 11th and 12th: a streak of 2.
        let utc = VaultStatistics(cards: [(card, false)], log: StatisticsLog(events), now: now, calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0))
        #expect(utc.streak.current == 2 && utc.calendar.suffix(4).map(\.reviews) == [1, 0, 2, 1])
    }

    /// An offset that changes in the middle of an hour (as zones with half-hour offsets do): the
    /// offsets are looked up once per hour, but a time in the hour of a change is asked itself.
    @Test func offsetChangingWithinAnHour() {
        let a = CardID("aaaaaaaaaaaa")!
        let change = Self.t("2026-11-11T03:30:00Z")
        let offset: @Sendable (Timestamp) -> Int = { $0 < change ? 0 : 3600 }
        let events = [
            Self.grade(a, .good, "2026-11-11T03:20:00Z", ms: 1000, id: "e1"),  // 03:20 local: still the 10th
            Self.grade(a, .good, "2026-11-11T03:40:00Z", ms: 1000, id: "e2"),  // 04:40 local: the 11th
        ]
        let card = Card(id: a, kind: .basic, variant: .single, front: "f", back: "b", lines: 1...1, column: 1, headingPath: [],
                        identityText: "f", hasExplicitID: false, schedule: nil)
        let s = VaultStatistics(cards: [(card, false)], log: StatisticsLog(events), now: Self.t("2026-11-11T12:00:00Z"),
                                calendar: StudyCalendar(rolloverHour: 4, utcOffset: offset))
        #expect(s.calendar.suffix(2).map(\.reviews) == [1, 1])
    }

    /// A reset forgets the card's schedule: the next answer is a new card's; suspended cards are
    /// counted but never due.
    @Test func resetAndSuspended() {
        let a = CardID("aaaaaaaaaaaa")!
        let events = [
            Self.grade(a, .easy, "2026-10-01T10:00:00Z", id: "e1"),   // new → review (interval 8)
            Self.grade(a, .good, "2026-10-10T10:00:00Z", id: "e2"),   // young review, passed
            ReviewEvent(time: Self.t("2026-10-11T10:00:00Z"), card: a, action: .reset),
            Self.grade(a, .again, "2026-10-20T10:00:00Z", id: "e3"),  // a new card again: learning
        ]
        var suspended = SchedulingState()
        suspended.state = .learning
        suspended.suspended = true
        suspended.due = Self.t("2026-10-20T10:10:00Z")
        let card = Card(id: a, kind: .basic, variant: .single, front: "f", back: "b", lines: 1...1, column: 1, headingPath: [],
                        identityText: "f", hasExplicitID: false, schedule: suspended)
        let s = VaultStatistics(cards: [(card, false)], log: StatisticsLog(events), now: Self.t("2026-10-21T12:00:00Z"),
                                calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0))
        #expect(s.reviews == 3 && s.retention.young == (1, 1) && s.retention.mature == (0, 0))
        #expect(s.buttons[.learning]?[.easy] == 1 && s.buttons[.learning]?[.again] == 1 && s.buttons[.young]?[.good] == 1)
        #expect(s.counts.suspended == 1 && s.counts.learning == 1 && s.overdue == 0 && s.forecast.allSatisfy { $0 == 0 })
        #expect(s.milestones.first { $0.name == "100 Cards" }?.achieved == false)
    }
}
