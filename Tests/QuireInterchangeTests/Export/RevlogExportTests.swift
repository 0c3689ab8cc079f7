@testable import QuireInterchange
import Testing
import QuireModel
import QuireReview
import QuireScheduling

/// The review log for the FSRS optimizer.
@Suite struct RevlogExportTests {
    static func t(_ s: String) -> Timestamp { Timestamp(iso8601: s) ?? Timestamp(milliseconds: 0) }

    @Test func answersWithStatesDurationsUndoAndReset() throws {
        let a = try #require(CardID("aaaa")), b = try #require(CardID("bbbb"))
        let events = [
            ReviewEvent(time: Self.t("2026-11-01T10:00:00Z"), card: a, action: .grade(.good), fields: [("id", "1"), ("ms", "4200")]),
            ReviewEvent(time: Self.t("2026-11-01T10:10:00Z"), card: a, action: .grade(.good), fields: [("id", "2")]),
            ReviewEvent(time: Self.t("2026-11-03T10:00:00Z"), card: a, action: .grade(.again), fields: [("id", "3"), ("ms", "99999999")]),
            ReviewEvent(time: Self.t("2026-11-03T10:01:00Z"), card: a, action: .undo(of: Self.t("2026-11-03T10:00:00Z")), fields: [("of-id", "3")]),
            ReviewEvent(time: Self.t("2026-11-04T10:00:00Z"), card: a, action: .grade(.hard), fields: [("id", "4")]),
            ReviewEvent(time: Self.t("2026-11-05T10:00:00Z"), card: a, action: .reset),
            ReviewEvent(time: Self.t("2026-11-06T10:00:00Z"), card: a, action: .grade(.easy), fields: [("id", "5")]),
            ReviewEvent(time: Self.t("2026-11-02T09:00:00Z"), card: b, action: .suspend),
            ReviewEvent(time: Self.t("2026-11-02T10:00:00Z"), card: b, action: .grade(.again), fields: [("id", "6"), ("ms", "800")]),
        ]
        let log = StatisticsLog(events)
        let result = RevlogExport.csv(log, include: { _ in true }) { _, _ in SchedulerSettings() }
        #expect(result.text == """
            card_id,review_time,review_rating,review_state,review_duration
            1,1793527200000,3,0,4200
            1,1793527800000,3,1,0
            1,1793786400000,2,2,0
            2,1793959200000,4,0,0
            3,1793613600000,1,0,800

            """)
        #expect(result.reviews == 5)
        let onlyB = RevlogExport.csv(log, include: { $0 == b }) { _, _ in SchedulerSettings() }
        #expect(onlyB.text.split(separator: "\n").dropFirst() == ["1,1793613600000,1,0,800"])
    }
}
