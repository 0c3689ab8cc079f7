import QuireModel
import QuireSupport
import QuireReview
import QuireScheduling

/// The figures of `quire stats` (docs/JSON.md), from the review log and the cards as the index
/// holds them, on the vault's study days. Pure: the cards, the history, the time and the time
/// zone come in. Built on ``StudyStats``, which the session results and `quire today` use.
public struct VaultStatistics: Sendable {
    /// Cards by where they stand now.
    public struct Counts: Sendable, Equatable {
        public var total = 0, new = 0, learning = 0, young = 0, mature = 0, suspended = 0, buried = 0
        /// StudyFlow cards mastered, and inactive.
        public var flowMastered = 0, flowInactive = 0
    }

    /// How well cards are known, from their schedule (docs/JSON.md, statistics): *Learning* (new, or in a
    /// learning step), *Developing* (in review, interval under 7 days), *Proficient* (7 to 20 days),
    /// *Mastered* (21 days or more: Anki's mature). StudyFlow: learning, reviewing (Developing),
    /// mastered.
    public enum Mastery: String, CaseIterable, Sendable {
        case learning = "Learning", developing = "Developing", proficient = "Proficient", mastered = "Mastered"
    }

    /// A milestone and the moment it was reached, if it was.
    public struct Milestone: Sendable, Equatable {
        public var name: String
        public var achieved: Bool
        /// When it was reached, where the log tells (Master 50 depends on today's schedules: no date).
        public var reached: Timestamp?

        init(_ name: String, reached: Timestamp?) {
            self.name = name
            achieved = reached != nil
            self.reached = reached
        }

        init(_ name: String, achieved: Bool) {
            self.name = name
            self.achieved = achieved
            reached = nil
        }
    }

    public var counts = Counts()
    public var mastery: [Mastery: Int] = [:]
    /// Grades in the log (undone ones left out).
    public var reviews = 0
    /// Grades other than Again, as a fraction of all (nil without reviews).
    public var successRate: Double?
    /// Milliseconds answering (`ms=`): today, the last 7 and 30 study days, and all time.
    public var time = (today: 0, week: 0, month: 0, all: 0)
    /// Average seconds per answer, from the answers with a time.
    public var secondsPerCard: Double?
    /// Streaks of study days.
    public var streak = (current: 0, longest: 0)
    /// Cards due on each of the next days (index 0: today), and those overdue before today.
    public var forecast: [Int] = []
    public var overdue = 0
    /// Reviews per study day over the past year, oldest first (the last is today).
    public var calendar: [(day: Day, reviews: Int)] = []
    /// True retention over the period asked for: pass counts of reviews of cards that were in
    /// review state when answered, young (interval under 21 days) and mature.
    public var retention = Retention()
    public var milestones: [Milestone] = []

    /// How a card stood when it was answered: new or in (re)learning steps, young (in review with
    /// an interval under 21 days), mature.
    public enum AnswerGroup: String, CaseIterable, Sendable {
        case learning, young, mature
    }

    /// Pass counts of reviews of cards in review, young and mature.
    public struct Retention: Sendable, Equatable {
        public var young = (passed: 0, total: 0), mature = (passed: 0, total: 0)
        /// No reviews yet.
        public init() {}

        /// Counts one review of a card in review.
        mutating func count(_ group: AnswerGroup, passed: Bool) {
            switch group {
            case .learning: return
            case .young: young = (young.passed + (passed ? 1 : 0), young.total + 1)
            case .mature: mature = (mature.passed + (passed ? 1 : 0), mature.total + 1)
            }
        }

        /// Both counts summed.
        static func + (a: Retention, b: Retention) -> Retention {
            var sum = a
            sum.young = (a.young.passed + b.young.passed, a.young.total + b.young.total)
            sum.mature = (a.mature.passed + b.mature.passed, a.mature.total + b.mature.total)
            return sum
        }

        public static func == (a: Retention, b: Retention) -> Bool {
            a.young == b.young && a.mature == b.mature
        }
    }

    /// The periods of the true-retention table, each ending today.
    public enum RetentionPeriod: String, CaseIterable, Sendable {
        case today, yesterday, week, month, year, all
        /// The study days before today it reaches back (nil: the whole log); yesterday alone is apart.
        var daysBack: Int? {
            switch self {
            case .today: 0
            case .yesterday: 1
            case .week: 6
            case .month: 29
            case .year: 364
            case .all: nil
            }
        }
    }

    /// True retention (reviews of cards in review state) over each period, young and mature.
    /// Counts every review in the period, whatever `period` the statistics were asked for.
    public var retentionByPeriod: [RetentionPeriod: Retention] = [:]

    /// One bin of FSRS calibration: reviews whose predicted recall fell in `range`.
    public struct CalibrationBin: Sendable, Equatable {
        public var range: Range<Double>
        public var reviews = 0
        /// The sum of the predicted recall probabilities, and the reviews passed.
        public var predicted = 0.0, passed = 0
        /// The mean predicted recall and the actual pass rate (nil when empty).
        public var meanPredicted: Double? { reviews == 0 ? nil : predicted / Double(reviews) }
        public var actual: Double? { reviews == 0 ? nil : Double(passed) / Double(reviews) }
    }

    /// FSRS's predicted probability of recall at each review of a card in review with an FSRS
    /// memory, against whether it was passed, in ten bins of predicted recall (0–10 % … 90–100 %).
    public var calibration: [CalibrationBin] = (0..<10).map { CalibrationBin(range: Double($0) / 10..<Double($0 + 1) / 10) }

    /// The root mean square of predicted minus actual over the calibration bins, each weighted
    /// by its reviews (nil without any).
    public var calibrationError: Double? {
        let total = calibration.reduce(0) { $0 + $1.reviews }
        guard total > 0 else { return nil }
        let sum = calibration.reduce(0.0) { acc, bin in
            guard let p = bin.meanPredicted, let a = bin.actual else { return acc }
            return acc + Double(bin.reviews) * (p - a) * (p - a)
        }
        return (sum / Double(total)).squareRoot()
    }

    /// Answer buttons pressed, by how the card stood when answered.
    public var buttons: [AnswerGroup: [Rating: Int]] = [:]

    /// A histogram bucket: a label and its count.
    public struct Bucket: Sendable, Equatable {
        public var label: String
        public var count: Int
    }

    /// Cards in review by interval (days), FSRS cards by stability (days) and by difficulty (1–10).
    public var intervals: [Bucket] = [], stability: [Bucket] = [], difficulty: [Bucket] = []

    /// The upper bounds (days, included) of the interval and stability buckets; the last is open.
    /// 21 days, where cards become mature, begins a bucket.
    static let dayBounds = [1, 3, 7, 14, 20, 30, 60, 90, 180, 365]

    static func dayBuckets(_ values: [Double]) -> [Bucket] {
        var counts = Array(repeating: 0, count: dayBounds.count + 1)
        for v in values {
            counts[dayBounds.firstIndex { v <= Double($0) } ?? dayBounds.count] += 1
        }
        var lower = 0
        return counts.enumerated().map { i, n in
            defer { if i < dayBounds.count { lower = dayBounds[i] + 1 } }
            if i == dayBounds.count { return Bucket(label: ">\(dayBounds[i - 1]) d", count: n) }
            return Bucket(label: lower == dayBounds[i] ? "\(lower) d" : "\(lower)–\(dayBounds[i]) d", count: n)
        }
    }

    /// A deck's figures (its own cards; sub-decks apart).
    public struct DeckFigures: Sendable, Equatable {
        public var deck: DeckPath
        public var cards = 0, mastered = 0, due = 0, reviews = 0, passed = 0, milliseconds = 0
        /// Grades other than Again, as a fraction (nil without reviews).
        public var successRate: Double? { reviews == 0 ? nil : Double(passed) / Double(reviews) }
    }

    /// Each deck's figures, by deck path.
    public var decks: [DeckFigures] = []

    /// The last 30 study days, oldest first: reviews and answer time (milliseconds) each day.
    public var recentDays: [(day: Day, reviews: Int, milliseconds: Int)] = []
    /// Reviews of cards in review, and how many passed, by the local hour they were answered at
    /// (0–23; in the period): when recall is best.
    public var hours: [(reviews: Int, passed: Int)] = Array(repeating: (0, 0), count: 24)
    /// Cards added each of the last 30 study days, oldest first (by their note's `created`).
    public var added: [(day: Day, cards: Int)] = []
    /// Cards with an FSRS memory by their retrievability now (the chance of recall FSRS gives
    /// them at this moment), in ten bins 0–10 %, …, 90–100 %.
    public var retrievability: [Int] = Array(repeating: 0, count: 10)

    /// Computes the figures.
    ///
    /// - Parameters:
    ///   - cards: the cards counted (a query's), with whether their note is archived.
    ///   - log: the ordered log without undone events (only these cards' events are counted).
    ///   - now: the time.
    ///   - days: how many days the forecast covers.
    ///   - period: the reviews counted in the review figures (reviews, success, time, retention,
    ///     decks); streaks, the calendar and milestones always read the whole log.
    ///   - settings: the scheduler settings in force for an event on a card (``SettingsResolver``):
    ///     the log is replayed to know how each card stood when it was answered. Asked again only
    ///     when a card's events change their `cfg=` or `sched=`; called from several threads.
    public init(cards: [(card: Card, archived: Bool)], log: StatisticsLog, now: Timestamp,
                calendar studyDays: StudyCalendar, days: Int = 30, period: ClosedRange<Timestamp>? = nil,
                deck: @escaping @Sendable (CardID) -> DeckPath? = { _ in nil },
                created: (CardID) -> Timestamp? = { _ in nil },
                settings: @escaping @Sendable (ReviewEvent, CardID) -> SchedulerSettings = { _, _ in SchedulerSettings() }) {
        let today = studyDays.day(containing: now)
        for m in Mastery.allCases { mastery[m] = 0 }
        forecast = Array(repeating: 0, count: max(1, days))
        var tally = CardTally()
        let nowFSRS = FSRSScheduler()
        let dayEnd = studyDays.end(containing: now)
        for (card, archived) in cards {
            count(card, archived: archived, now: now, today: today, dayEnd: dayEnd, calendar: studyDays, fsrs: nowFSRS, deck: deck,
                  created: created, into: &tally)
        }
        let context = LogFigures.Context(today: today, period: period, utcOffset: studyDays.utcOffset, rolloverHour: studyDays.rolloverHour)
        let figures = Self.logFigures(log, cards: tally.ids, context: context, deck: deck, settings: settings)
        take(figures, tally: tally, today: today)
    }

    /// What the pass over the cards gathers for the figures the log's pass completes.
    private struct CardTally {
        var ids = Set<CardID>()
        var intervalDays: [Double] = [], stabilities: [Double] = [], difficultyCounts = Array(repeating: 0, count: 9)
        var byDeck: [DeckPath: DeckFigures] = [:]
        var addedByDay: [Day: Int] = [:]
    }

    /// Counts one card where it stands now: its deck's figures, when it was added, its
    /// retrievability, state, mastery, interval, stability and difficulty, and when it is due.
    private mutating func count(_ card: Card, archived: Bool, now: Timestamp, today: Day, dayEnd: Timestamp, calendar studyDays: StudyCalendar,
                                fsrs nowFSRS: FSRSScheduler, deck: (CardID) -> DeckPath?, created: (CardID) -> Timestamp?, into tally: inout CardTally) {
        func day(_ t: Timestamp) -> Day { studyDays.day(containing: t) }
        tally.ids.insert(card.id)
        if let c = created(card.id) {
            let d = day(c)
            if d.number > today.number - 30, d.number <= today.number { tally.addedByDay[d, default: 0] += 1 }
        }
        if let s = card.schedule, s.stability != nil, s.state != .new, let r = nowFSRS.retrievability(of: s, at: now), r.isFinite {
            retrievability[min(9, max(0, Int(r * 10)))] += 1
        }
        if let d = deck(card.id) {
            var f = tally.byDeck[d] ?? DeckFigures(deck: d)
            f.cards += 1
            if let s = card.schedule, s.state == .review, (s.interval ?? 0) >= 21 { f.mastered += 1 }
            if let s = card.schedule, !archived,
               s.isDue(at: now, dayEnd: dayEnd) { f.due += 1 }
            tally.byDeck[d] = f
        }
        counts.total += 1
        let s = card.schedule
        if s?.suspended == true { counts.suspended += 1 }
        if let b = s?.buriedUntil, b > now { counts.buried += 1 }
        if s?.flow == .mastered { counts.flowMastered += 1 }
        if s?.flow == .inactive { counts.flowInactive += 1 }
        let state = s?.state ?? .new
        let interval = s?.interval ?? s?.stability.map { Int($0) } ?? 0
        switch state {
        case .new: counts.new += 1
        case .learning, .relearning: counts.learning += 1
        case .review: if interval >= 21 { counts.mature += 1 } else { counts.young += 1 }
        }
        let m: Mastery
        if let flow = s?.flow {
            m = flow == .mastered ? .mastered : flow == .learning ? .learning : .developing
        } else {
            m = state != .review ? .learning : interval >= 21 ? .mastered : interval >= 7 ? .proficient : .developing
        }
        mastery[m, default: 0] += 1
        if state == .review { tally.intervalDays.append(Double(interval)) }
        if let st = s?.stability { tally.stabilities.append(st) }
        if let d = s?.difficulty, d.isFinite { tally.difficultyCounts[min(8, max(0, Int(d) - 1))] += 1 }
        // Due: cards with a schedule, not suspended, in notes not archived.
        if let s, !archived, !s.suspended, s.state != .new || s.flow != nil, let due = s.due {
            let offset = day(due).number - today.number
            if offset < 0 { overdue += 1 } else if offset < forecast.count { forecast[offset] += 1 }
        }
    }

    /// The log's figures for the counted cards: card by card in ID order, in a fixed number of
    /// chunks summed in order, so that the floating-point sums are the same on any number of cores.
    private static func logFigures(_ log: StatisticsLog, cards ids: Set<CardID>, context: LogFigures.Context,
                                   deck: @escaping @Sendable (CardID) -> DeckPath?,
                                   settings: @escaping @Sendable (ReviewEvent, CardID) -> SchedulerSettings) -> LogFigures {
        let cardEvents = log.cards.indices.filter { ids.contains(log.cards[$0]) }
        let chunkCount = 16
        let chunkSize = max(1, (cardEvents.count + chunkCount - 1) / chunkCount)
        let parts = ResultSlots<LogFigures>(count: chunkCount)
        inParallelChunks(of: cardEvents.count, chunk: chunkSize, concurrency: nil) { range in
            var part = LogFigures()
            for k in range {
                let card = log.cards[cardEvents[k]]
                part.add(card, log.events(ofCard: cardEvents[k]), setStates: log.setStates, deck: deck(card), context: context) { settings(log.settingsEvents[$0], card) }
            }
            parts[range.lowerBound / chunkSize] = part
            return true
        }
        var figures = LogFigures()
        for c in 0..<chunkCount { if let part = parts.take(c) { figures.merge(part) } }
        return figures
    }

    /// Completes the figures from the log's and the cards' (`tally`): review counts, decks,
    /// buckets, the calendar, the last 30 days and the milestones.
    private mutating func take(_ log: LogFigures, tally: CardTally, today: Day) {
        var byDeck = tally.byDeck
        reviews = log.reviews
        buttons = log.buttons
        retention = log.retention
        retentionByPeriod = Dictionary(uniqueKeysWithValues: zip(RetentionPeriod.allCases, log.retentionByPeriod))
        calibration = log.calibration
        time = log.time
        for (d, figures) in log.decks {
            byDeck[d]?.reviews += figures.reviews
            byDeck[d]?.passed += figures.passed
            byDeck[d]?.milliseconds += figures.milliseconds
        }
        let reviewsByDay = log.reviewsByDay(today: today)
        streak = StudyStats.streaks(reviewsByDay: reviewsByDay, today: today)
        let passed = log.passed, timed = log.timed, timedMs = log.timedMs
        intervals = Self.dayBuckets(tally.intervalDays)
        stability = Self.dayBuckets(tally.stabilities)
        difficulty = tally.difficultyCounts.enumerated().map { Bucket(label: $0 == 8 ? "9–10" : "\($0 + 1)–\($0 + 2)", count: $1) }
        successRate = reviews == 0 ? nil : Double(passed) / Double(reviews)
        decks = byDeck.values.sorted { $0.deck < $1.deck }
        secondsPerCard = timed == 0 ? nil : Double(timedMs) / Double(timed) / 1000
        for offset in stride(from: 364, through: 0, by: -1) {
            let d = today.advanced(by: -offset)
            calendar.append((d, reviewsByDay[d] ?? 0))
        }
        for age in stride(from: 29, through: 0, by: -1) {
            let d = today.advanced(by: -age)
            recentDays.append((d, reviewsByDay[d] ?? 0, log.millisecondsByAge[age]))
            added.append((d, tally.addedByDay[d] ?? 0))
        }
        hours = log.byHour

        // Milestones, from the log.
        let grades = log.grades.sorted(), firstSeen = log.firstSeen.sorted()
        milestones = [
            Milestone("First Review", reached: grades.first),
            Milestone("Week Streak", reached: Self.streakReached(7, reviewsByDay: reviewsByDay)),
            Milestone("100 Cards", reached: firstSeen.count >= 100 ? firstSeen[99] : nil),
            Milestone("Master 50", achieved: (mastery[.mastered] ?? 0) >= 50),
            Milestone("1000 Reviews", reached: grades.count >= 1000 ? grades[999] : nil),
            Milestone("Month Streak", reached: Self.streakReached(30, reviewsByDay: reviewsByDay)),
        ]
    }

    /// The start of the first study day on which a streak reached `length` days.
    private static func streakReached(_ length: Int, reviewsByDay: [Day: Int]) -> Timestamp? {
        let days = reviewsByDay.keys.sorted()
        var run = 0
        var previous: Day?
        for day in days {
            run = previous.map { $0.advanced(by: 1) == day } == true ? run + 1 : 1
            if run >= length { return Timestamp(milliseconds: Int64(day.number) * 86_400_000) }
            previous = day
        }
        return nil
    }
}
