import Testing
import QuireModel
import QuireStudy
import QuireSupport
@testable import QuireApp
@testable import QuireTestSupport

/// Today as `quire today` and the page show it, on a real vault: the plan within the daily limits
/// and its documented JSON.
@Suite struct TodaysPlanTests {
    @Test func thePlanAndItsJSON() throws {
        try withTempDir { dir in
            let context = try QuizSetupTests.context(dir)
            let today = TodaysPlan(context)
            #expect(today.plan.items.count == 12 && today.curationDue.isEmpty)
            guard case .object(let fields) = today.json else { Issue.record("not an object"); return }
            #expect(fields.map(\.0) == ["day", "cards", "estimated_seconds", "seconds_per_card", "studied_today", "over_limit",
                                        "siblings_deferred", "sections", "curation"])
            #expect(fields.first { $0.0 == "cards" }?.1 == .int(12))
        }
    }
}
