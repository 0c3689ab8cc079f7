import Foundation
import Testing
@testable import QuireScheduling

/// The simulator against fsrs-rs-python's `simulate` on the same deck and settings (its defaults'
/// costs and rating shares, no limits but new cards a day): the cards remembered at the end, the
/// reviews and the minutes a day agree within a few per cent for retentions 0.70–0.95; and it is
/// deterministic, and respects the daily limit; the recommendation is the highest retention within
/// 5 % of the least minutes per card remembered.
@Suite struct FSRSSimulatorTests {
    static func reference(cards: Int, newPerDay: Int, retentions: [Double]) throws -> [[String: Double]] {
        try #require(try oracle("fsrs_simulate.py", ["cards": cards, "new_per_day": newPerDay, "retentions": retentions] as [String: Any]) as? [[String: Double]])
    }

    @Test func agreesWithFSRSRS() throws {
        let retentions = [0.7, 0.8, 0.9, 0.95]
        var settings = FSRSSimulator.Settings()
        settings.reviewsPerDay = .max
        let cards = [FSRSSimulator.Card](repeating: .new, count: 3000)
        let ours = FSRSSimulator.outcomes(cards, parameters: .fsrs6Defaults, retentions: retentions, settings: settings)
        let theirs = try Self.reference(cards: 3000, newPerDay: 20, retentions: retentions)
        for (o, t) in zip(ours, theirs) {
            print("retention \(o.desiredRetention): remembered \(o.remembered) vs \(t["remembered"] ?? 0), reviews/day \(o.reviewsPerDay) vs \(t["reviews_per_day"] ?? 0), minutes/day \(o.minutesPerDay) vs \(t["minutes_per_day"] ?? 0)")
            #expect(abs(o.remembered / (t["remembered"] ?? 1) - 1) < 0.02)
            #expect(abs(o.reviewsPerDay / (t["reviews_per_day"] ?? 1) - 1) < 0.05)
            #expect(abs(o.minutesPerDay / (t["minutes_per_day"] ?? 1) - 1) < 0.04)
            #expect((o.newPerDay * 365).rounded() == 3000)
        }
    }

    @Test func deterministicAndWithinTheDailyLimit() {
        var settings = FSRSSimulator.Settings()
        settings.reviewsPerDay = 30
        settings.days = 120
        // Cards learnt before: overdue, due today and later.
        let learnt = (0..<400).map { k in FSRSSimulator.Card(stability: Double(1 + k % 40), difficulty: Double(1 + k % 9), lastDay: -(k % 30), dueDay: k % 50 - 10) }
        let cards = learnt + [FSRSSimulator.Card](repeating: .new, count: 200)
        let a = FSRSSimulator.simulate(cards, parameters: .fsrs6Defaults, desiredRetention: 0.9, settings: settings, seed: 3)
        #expect(a == FSRSSimulator.simulate(cards, parameters: .fsrs6Defaults, desiredRetention: 0.9, settings: settings, seed: 3))
        #expect(a.reviewsPerDay <= 30 && a.reviewsPerDay > 20)
        #expect((a.newPerDay * 120).rounded() == 200)
        #expect(a.rememberedWithoutStudy > 0 && a.remembered > a.rememberedWithoutStudy)
        // States no note should hold (hand-edited) are brought within the model's range, never trapped on.
        let odd = [FSRSSimulator.Card(stability: 1e300, difficulty: 50, lastDay: -1_000_000_000, dueDay: .max),
                   FSRSSimulator.Card(stability: .nan, difficulty: .nan, lastDay: .min, dueDay: .min),
                   FSRSSimulator.Card(stability: .infinity, difficulty: -3, lastDay: 5, dueDay: 3)]
        let survived = FSRSSimulator.simulate(odd + cards, parameters: .fsrs6Defaults, desiredRetention: 0.97, settings: settings, seed: 1)
        #expect(survived.remembered.isFinite && survived.minutesPerDay.isFinite)
        // More retention, more work and more remembered.
        let outcomes = FSRSSimulator.outcomes(cards, parameters: .fsrs6Defaults, retentions: [0.75, 0.95], settings: settings)
        #expect(outcomes[0].minutesPerDay < outcomes[1].minutesPerDay && outcomes[0].remembered < outcomes[1].remembered)
    }

    @Test func recommendsTheHighestNearTheBestEfficiency() {
        func outcome(_ r: Double, minutes: Double, remembered: Double) -> FSRSSimulator.Outcome {
            FSRSSimulator.Outcome(desiredRetention: r, reviewsPerDay: 0, newPerDay: 0, minutesPerDay: minutes, remembered: remembered,
                                  rememberedWithoutStudy: 0, days: 60)
        }
        // Minutes per card remembered: 0.6, 0.5, 0.52, 0.53 (over 5 %), 0.46 → least 0.46 at 0.8.
        let outcomes = [outcome(0.7, minutes: 10, remembered: 1000), outcome(0.8, minutes: 10, remembered: 1304),
                        outcome(0.85, minutes: 10, remembered: 1250), outcome(0.9, minutes: 10, remembered: 1100),
                        outcome(0.95, minutes: 20, remembered: 1000)]
        #expect(outcomes.map { ($0.minutesPerCard * 100).rounded() } == [60, 46, 48, 55, 120])
        #expect(FSRSSimulator.recommended(outcomes)?.desiredRetention == 0.85)
        #expect(FSRSSimulator.recommended(Array(outcomes.prefix(2)))?.desiredRetention == 0.8)
        #expect(FSRSSimulator.recommended([]) == nil)
    }
}
