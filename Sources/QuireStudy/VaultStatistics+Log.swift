import QuireModel
import QuireReview
import QuireScheduling

extension VaultStatistics {
    /// The figures the review log gives, summed over some cards: what one thread computes before
    /// the parts are merged.
    struct LogFigures: Sendable {
        /// What every card's figures need.
        struct Context: Sendable {
            var today: Day
            var period: ClosedRange<Timestamp>?
            var utcOffset: @Sendable (Timestamp) -> Int
            var rolloverHour: Int

            func day(_ t: Timestamp) -> Day {
                Day(containing: t, utcOffsetSeconds: utcOffset(t), rolloverHour: rolloverHour)
            }
        }

        /// The time zone's offset at the start of each hour asked about: a time between two
        /// hour starts with the same offset has that offset too (no zone changes its offset twice
        /// in an hour); only a time in an hour with a change is asked about itself.
        private var offsetAtHour: [Int64: Int] = [:]

        /// The zone's offset at `t`, asked once per hour (see `offsetAtHour`).
        mutating func offset(_ t: Timestamp, _ context: Context) -> Int {
            let hour = t.milliseconds >= 0 ? t.milliseconds / 3_600_000 : (t.milliseconds + 1) / 3_600_000 - 1
            func offset(_ h: Int64) -> Int {
                if let known = offsetAtHour[h] { return known }
                let o = context.utcOffset(Timestamp(milliseconds: h * 3_600_000))
                offsetAtHour[h] = o
                return o
            }
            let start = offset(hour)
            return start == offset(hour + 1) ? start : context.utcOffset(t)
        }

        var reviews = 0, passed = 0, timed = 0, timedMs = 0
        var time = (today: 0, week: 0, month: 0, all: 0)
        var retention = Retention()
        /// By ``RetentionPeriod`` in `allCases` order.
        var retentionByPeriod = Array(repeating: Retention(), count: RetentionPeriod.allCases.count)
        var calibration: [CalibrationBin] = (0..<10).map { CalibrationBin(range: Double($0) / 10..<Double($0 + 1) / 10) }
        var buttons: [AnswerGroup: [Rating: Int]] = Dictionary(uniqueKeysWithValues: AnswerGroup.allCases.map { group in
            (group, Dictionary(uniqueKeysWithValues: Rating.allCases.map { ($0, 0) }))
        })
        var decks: [DeckPath: (reviews: Int, passed: Int, milliseconds: Int)] = [:]
        /// Grades per study day (the whole log: streaks and the calendar ignore the period): by
        /// days before today, and the days after today apart.
        var reviewsByAge: [Int] = [], reviewsAfterToday: [Day: Int] = [:]
        /// Answer time per study day of the last 30, by days before today (the period ignored, as
        /// the calendar does).
        var millisecondsByAge = Array(repeating: 0, count: 30)
        /// Reviews and passes of cards in review by the local hour of day they were answered at
        /// (within the period).
        var byHour = Array(repeating: (reviews: 0, passed: 0), count: 24)

        /// Grades per study day.
        func reviewsByDay(today: Day) -> [Day: Int] {
            var days = reviewsAfterToday
            for (age, n) in reviewsByAge.enumerated() where n > 0 { days[today.advanced(by: -age), default: 0] += n }
            return days
        }
        /// The time of every grade, and of each card's first.
        var grades: [Timestamp] = [], firstSeen: [Timestamp] = []

        /// Adds one card's events (in order, undone ones taken out), replayed from no state.
        mutating func add(_ card: CardID, _ events: ArraySlice<StatisticsLog.Event>, setStates: [SchedulingState], deck: DeckPath?,
                          context: Context, settings: (Int) -> SchedulerSettings) {
            var before: SchedulingState?
            var key: Int?
            var eventSettings = SchedulerSettings()
            var scheduler: any Scheduler = FSRSScheduler()
            var fsrs = FSRSScheduler()
            var deckFigures = (reviews: 0, passed: 0, milliseconds: 0)
            var buttonCounts = Array(repeating: 0, count: 3 * 4)
            for event in events {
                let at = event.time, action = event.action
                // The settings, and the schedulers they make, change only with cfg= or sched=.
                if key != event.settings {
                    key = event.settings
                    eventSettings = settings(event.settings).unshared()
                    scheduler = eventSettings.makeScheduler()
                    fsrs = FSRSScheduler(settings: eventSettings)
                }
                defer {
                    before = ReviewTransition.apply(action, to: before, at: at, card: card, settings: eventSettings,
                                                    scheduler: scheduler, set: event.setState.map { setStates[$0] })
                }
                guard case .grade(let rating) = action else { continue }
                grades.append(at)
                // How the card stood: in review (young or mature by its interval), or learning.
                var group = AnswerGroup.learning
                if let b = before, b.state == .review {
                    let interval = b.interval ?? b.due.flatMap { due in b.lastReview.map { Int((due.milliseconds - $0.milliseconds) / 86_400_000) } } ?? 0
                    group = interval >= 21 ? .mature : .young
                }
                let pass = rating != .again
                // The zone's offset, read once: the study day and the hour of day both need it.
                let zone = offset(at, context)
                let age = context.today.number - Day(containing: at, utcOffsetSeconds: zone, rolloverHour: context.rolloverHour).number
                if age >= 0 {
                    if age >= reviewsByAge.count { reviewsByAge += Array(repeating: 0, count: max(age + 1 - reviewsByAge.count, 64)) }
                    reviewsByAge[age] += 1
                } else {
                    reviewsAfterToday[context.today.advanced(by: -age), default: 0] += 1
                }
                if let ms = event.milliseconds, ms >= 0, ms < 3_600_000, (0..<30).contains(age) { millisecondsByAge[age] += ms }
                if group != .learning {
                    for (k, p) in RetentionPeriod.allCases.enumerated() {
                        let inside = p == .yesterday ? age == 1 : p.daysBack.map { age <= $0 } ?? true
                        if inside { retentionByPeriod[k].count(group, passed: pass) }
                    }
                }
                guard context.period?.contains(at) ?? true else { continue }
                countInPeriod(event, rating: rating, group: group, age: age, zone: zone, before: before, fsrs: fsrs,
                              buttonCounts: &buttonCounts, deckFigures: &deckFigures)
            }
            if let first = events.first(where: { ReviewAction.isGrade($0.action) }) { firstSeen.append(first.time) }
            for (g, group) in AnswerGroup.allCases.enumerated() {
                for r in Rating.allCases where buttonCounts[g * 4 + r.rawValue - 1] > 0 {
                    buttons[group]?[r, default: 0] += buttonCounts[g * 4 + r.rawValue - 1]
                }
            }
            if let deck, deckFigures.reviews > 0 {
                var d = decks[deck] ?? (0, 0, 0)
                d.reviews += deckFigures.reviews
                d.passed += deckFigures.passed
                d.milliseconds += deckFigures.milliseconds
                decks[deck] = d
            }
        }

        /// Counts a grade given within the period: the review and its pass (the card's deck's too,
        /// in `deckFigures`), its button (in `buttonCounts`, by answer group), its answer time, its
        /// retention, its hour of day, and what FSRS predicted for it (`before`: how the card stood).
        private mutating func countInPeriod(_ event: StatisticsLog.Event, rating: Rating, group: AnswerGroup, age: Int, zone: Int,
                                            before: SchedulingState?, fsrs: FSRSScheduler, buttonCounts: inout [Int],
                                            deckFigures: inout (reviews: Int, passed: Int, milliseconds: Int)) {
            let at = event.time
            let pass = rating != .again
            reviews += 1
            buttonCounts[(group == .learning ? 0 : group == .young ? 1 : 2) * 4 + rating.rawValue - 1] += 1
            deckFigures.reviews += 1
            if pass {
                passed += 1
                deckFigures.passed += 1
            }
            if let ms = event.milliseconds, ms >= 0, ms < 3_600_000 {
                deckFigures.milliseconds += ms
                timed += 1
                timedMs += ms
                time.all += ms
                if age == 0 { time.today += ms }
                if age < 7 { time.week += ms }
                if age < 30 { time.month += ms }
            }
            retention.count(group, passed: pass)
            if group != .learning {
                let local = at.milliseconds + Int64(zone) * 1000
                let hour = Int(((local % 86_400_000) + 86_400_000) % 86_400_000 / 3_600_000)
                byHour[hour].reviews += 1
                if pass { byHour[hour].passed += 1 }
            }
            // Calibration: what FSRS predicted for a card in review with a memory.
            if group != .learning, let b = before, b.stability != nil, let r = fsrs.retrievability(of: b, at: at), r.isFinite {
                let bin = min(9, max(0, Int(r * 10)))
                calibration[bin].reviews += 1
                calibration[bin].predicted += r
                if pass { calibration[bin].passed += 1 }
            }
        }

        /// Adds another part's figures.
        mutating func merge(_ o: LogFigures) {
            reviews += o.reviews
            passed += o.passed
            timed += o.timed
            timedMs += o.timedMs
            time = (time.today + o.time.today, time.week + o.time.week, time.month + o.time.month, time.all + o.time.all)
            retention = retention + o.retention
            for (k, r) in o.retentionByPeriod.enumerated() { retentionByPeriod[k] = retentionByPeriod[k] + r }
            for i in calibration.indices {
                calibration[i].reviews += o.calibration[i].reviews
                calibration[i].predicted += o.calibration[i].predicted
                calibration[i].passed += o.calibration[i].passed
            }
            for (group, counts) in o.buttons {
                for (r, n) in counts { buttons[group]?[r, default: 0] += n }
            }
            for (deck, f) in o.decks {
                var d = decks[deck] ?? (0, 0, 0)
                d = (d.reviews + f.reviews, d.passed + f.passed, d.milliseconds + f.milliseconds)
                decks[deck] = d
            }
            if o.reviewsByAge.count > reviewsByAge.count { reviewsByAge += Array(repeating: 0, count: o.reviewsByAge.count - reviewsByAge.count) }
            for (age, n) in o.reviewsByAge.enumerated() { reviewsByAge[age] += n }
            reviewsAfterToday.merge(o.reviewsAfterToday, uniquingKeysWith: +)
            for i in millisecondsByAge.indices { millisecondsByAge[i] += o.millisecondsByAge[i] }
            for h in byHour.indices { byHour[h] = (byHour[h].reviews + o.byHour[h].reviews, byHour[h].passed + o.byHour[h].passed) }
            grades += o.grades
            firstSeen += o.firstSeen
        }
    }
}
