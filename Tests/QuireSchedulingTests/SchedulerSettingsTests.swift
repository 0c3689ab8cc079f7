import QuireModel
import QuireScheduling
import Testing

@Suite struct SchedulerSettingsTests {
    @Test func defaults() {
        let d = SchedulerSettings()
        #expect(d.kind == .fsrs && d.desiredRetention == 0.9 && d.learningSteps == [60, 600])
        #expect(d.relearningSteps == [600] && d.maximumInterval == 36_500 && d.fuzz && d.buttons == 4)
        #expect(d.parameters == .fsrs6Defaults && d.parameters.values.count == 21 && d.dayRolloverHour == 4)
        #expect(SchedulerSettings() == d)
        #expect(d.ratings == Rating.allCases)
    }

    @Test func errorsNameTheSetting() {
        let cases: [(SchedulingError, () throws(SchedulingError) -> SchedulerSettings, String)] = [
            (.desiredRetention(1), { () throws(SchedulingError) in try SchedulerSettings(desiredRetention: 1) },
             "desired retention must be greater than 0 and less than 1, got 1.0"),
            (.step(relearning: false, index: 1, seconds: 0), { () throws(SchedulingError) in try SchedulerSettings(learningSteps: [60, 0]) },
             "learning step 2 must be a positive number of seconds, got 0"),
            (.step(relearning: true, index: 0, seconds: -5), { () throws(SchedulingError) in try SchedulerSettings(relearningSteps: [-5]) },
             "relearning step 1 must be a positive number of seconds, got -5"),
            (.maximumInterval(0), { () throws(SchedulingError) in try SchedulerSettings(maximumInterval: 0) },
             "maximum interval must be 1 to 36500 days, got 0"),
            (.buttons(5), { () throws(SchedulingError) in try SchedulerSettings(buttons: 5) },
             "buttons must be 3 (again/good/easy) or 4 (again/hard/good/easy), got 5"),
            (.dayRollover(24), { () throws(SchedulingError) in try SchedulerSettings(dayRolloverHour: 24) },
             "day rollover must be an hour from 0 to 23, got 24"),
            (.parameterCount(3), { () throws(SchedulingError) in try SchedulerSettings(parameters: [1, 2, 3]) },
             "FSRS parameters: expected 17, 19 or 21 values, got 3"),
        ]
        for (error, make, text) in cases {
            #expect(throws: error) { _ = try make() }
            #expect(error.description == text)
        }
    }

    @Test func makeSchedulerFollowsKind() throws {
        #expect(try SchedulerSettings(kind: .fsrs).makeScheduler() is FSRSScheduler)
        #expect(try SchedulerSettings(kind: .sm2).makeScheduler() is SM2Scheduler)
        #expect(try SchedulerSettings(kind: .flow).makeScheduler() is StudyFlowScheduler)
        #expect(SchedulerSettings.Kind(rawValue: "sm2") == .sm2)
    }

    @Test func previewEqualsNextForEveryScheduler() throws {
        let t = Timestamp(year: 2026, month: 1, day: 1)
        let card = try #require(CardID("abc"))
        for kind in SchedulerSettings.Kind.allCases {
            let s = try SchedulerSettings(kind: kind).makeScheduler()
            var state: SchedulingState?
            var now = t
            for rating in [Rating.good, .good, .again, .easy, .hard] {
                let p = s.preview(state, at: now, card: card)
                for (r, out) in p { #expect(out == s.next(state, rating: r, at: now, card: card), "\(kind) \(r)") }
                state = p[rating]
                now = state?.due ?? now
            }
        }
    }
}
