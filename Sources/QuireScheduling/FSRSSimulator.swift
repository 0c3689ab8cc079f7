import Foundation
import QuireSupport

/// Days of study simulated under FSRS, to weigh desired retentions against each other (the idea
/// of fsrs-rs's simulator and Anki's "optimal retention"): each due card is reviewed on its day
/// (the easiest first, up to the daily limit; the rest wait a day), recalled with the probability
/// the memory model gives, answered Hard, Good or Easy in the shares given, its new interval the
/// one that reaches the desired retention; new cards are learnt up to the daily limit; same-day
/// learning and relearning steps follow fsrs-rs's rating transitions; every answer costs the
/// seconds given for its state and rating. Pure and deterministic: randomness comes from the seed.
public enum FSRSSimulator {
    /// A card at the start: new, or learnt with a memory state.
    public struct Card: Sendable, Equatable {
        /// Days; 0 for a new card.
        public var stability: Double
        public var difficulty: Double
        /// The day of the last review, relative to the first day simulated (0 today, −3 three days ago).
        public var lastDay: Int
        /// The day the card is due, relative likewise (overdue cards are due on day 0).
        public var dueDay: Int

        public init(stability: Double, difficulty: Double, lastDay: Int, dueDay: Int) {
            self.stability = stability
            self.difficulty = difficulty
            self.lastDay = lastDay
            self.dueDay = dueDay
        }

        /// A card not studied yet.
        public static let new = Card(stability: 0, difficulty: 0, lastDay: 0, dueDay: 0)

        var isNew: Bool { !(stability > 0) }
    }

    /// What the simulation assumes of the student.
    public struct Settings: Sendable, Equatable {
        public var days = 365
        public var newPerDay = 20
        public var reviewsPerDay = 200
        public var maximumInterval = 36_500
        public var learningSteps = 2
        public var relearningSteps = 1
        /// The first answer's shares: Again, Hard, Good, Easy (fsrs-rs's defaults, from many collections).
        public var firstRating: [Double] = [0.24, 0.094, 0.495, 0.171]
        /// A recalled review's shares: Hard, Good, Easy.
        public var reviewRating: [Double] = [0.224, 0.631, 0.145]
        /// Seconds an answer takes, by state (learning, review, relearning) and rating (Again … Easy).
        public var costs: [[Double]] = [[19.58, 18.79, 13.78, 10.71], [19.38, 17.59, 12.38, 8.94], [16.44, 15.25, 12.32, 8.03]]
        /// The next same-day rating's shares after Again, Hard and Good, in learning and in relearning steps.
        public var learningTransitions: [[Double]] = [[0.3686, 0.0628, 0.5108, 0.0577], [0.0442, 0.4553, 0.4457, 0.0549], [0.0519, 0.047, 0.8462, 0.055]]
        public var relearningTransitions: [[Double]] = [[0.2157, 0.0643, 0.6595, 0.0604], [0.05, 0.4638, 0.4475, 0.0387], [0.1057, 0.1434, 0.7266, 0.0244]]
        /// Runs averaged for each retention (the same seeds for every retention).
        public var runs = 8

        public init() {}

        /// The shares of first answers and of recalled reviews' ratings, and the seconds answers
        /// take, moved toward what a review log shows (see ``FSRSSimulator/smoothing``); returns
        /// how many answers had a time.
        @discardableResult
        public mutating func learn(from answers: [Answer]) -> Int {
            func blend(_ defaults: [Double], _ counts: [Double]) -> [Double] {
                let n = counts.reduce(0, +)
                guard n > 0 else { return defaults }
                let weight = n / (FSRSSimulator.smoothing + n)
                return zip(defaults, counts).map { weight * ($1 / n) + (1 - weight) * $0 }
            }
            var first = [Double](repeating: 0, count: 4), review = [Double](repeating: 0, count: 3)
            var spent = [[Double]](repeating: [0, 0, 0, 0], count: 3), timed = [[Double]](repeating: [0, 0, 0, 0], count: 3)
            var count = 0
            for a in answers where (1...4).contains(a.rating) && (0...3).contains(a.state) {
                if a.state == 0 { first[a.rating - 1] += 1 }
                if a.state == 2, a.rating > 1 { review[a.rating - 2] += 1 }
                if a.milliseconds > 0, a.milliseconds < FSRSSimulator.longestAnswer {
                    let row = a.state <= 1 ? 0 : a.state == 2 ? 1 : 2
                    spent[row][a.rating - 1] += Double(a.milliseconds) / 1000
                    timed[row][a.rating - 1] += 1
                    count += 1
                }
            }
            firstRating = blend(firstRating, first)
            reviewRating = blend(reviewRating, review)
            for row in 0..<3 {
                for rating in 0..<4 where timed[row][rating] > 0 {
                    let n = timed[row][rating], weight = n / (FSRSSimulator.smoothing + n)
                    costs[row][rating] = weight * spent[row][rating] / n + (1 - weight) * costs[row][rating]
                }
            }
            return count
        }
    }

    /// One logged answer, as the settings learn from it.
    public struct Answer: Sendable {
        /// The card's state before it: 0 new, 1 learning, 2 review, 3 relearning.
        public var state: Int
        /// 1 Again … 4 Easy.
        public var rating: Int
        /// How long it took (0: not logged).
        public var milliseconds: Int

        public init(state: Int, rating: Int, milliseconds: Int) {
            self.state = state
            self.rating = rating
            self.milliseconds = milliseconds
        }
    }

    /// How far `Settings.learn(from:)` moved each share and cost from the defaults: n / (50 + n)
    /// of the way to what `n` answers show (fsrs-rs's smoothing), so a short log changes little.
    static let smoothing = 50.0

    /// An answer timed at 20 minutes or more is a break, not an answer (fsrs-rs's cut).
    static let longestAnswer = 1_200_000

    /// What a desired retention leads to, averaged over the runs.
    public struct Outcome: Sendable, Equatable {
        public var desiredRetention: Double
        /// Long-term reviews a day (same-day steps not counted, their time is).
        public var reviewsPerDay: Double
        public var newPerDay: Double
        public var minutesPerDay: Double
        /// Cards expected to be recalled on the last day simulated.
        public var remembered: Double
        /// The same, had no review been made (the cards learnt before, left to fade).
        public var rememberedWithoutStudy: Double

        /// Minutes of study for each card remembered at the end (fsrs-rs's `optimal_retention`
        /// minimises it).
        public var minutesPerCard: Double {
            remembered > 0 ? minutesPerDay * Double(max(1, days)) / remembered : .infinity
        }

        /// Cards remembered thanks to the study, per hour of it (the curve Anki draws).
        public var rememberedPerHour: Double {
            let hours = minutesPerDay * Double(max(1, days)) / 60
            return hours > 0 ? (remembered - rememberedWithoutStudy) / hours : 0
        }

        var days: Int
    }

    /// The outcomes of each of `retentions`, the runs shared by the cores.
    public static func outcomes(_ cards: [Card], parameters: FSRSParameters, retentions: [Double], settings: Settings) -> [Outcome] {
        let jobs = retentions.flatMap { r in (0..<max(1, settings.runs)).map { (r, UInt64($0)) } }
        let slots = ResultSlots<Outcome>(count: jobs.count)
        inParallelChunks(of: jobs.count, chunk: 1, concurrency: nil) { range in
            for k in range { slots[k] = simulate(cards, parameters: parameters, desiredRetention: jobs[k].0, settings: settings, seed: jobs[k].1) }
            return true
        }
        let results = jobs.indices.compactMap { slots.take($0) }
        return retentions.map { r in
            let runs = results.filter { $0.desiredRetention == r }
            let n = Double(max(1, runs.count))
            func mean(_ f: (Outcome) -> Double) -> Double { runs.reduce(0) { $0 + f($1) } / n }
            return Outcome(desiredRetention: r, reviewsPerDay: mean(\.reviewsPerDay), newPerDay: mean(\.newPerDay), minutesPerDay: mean(\.minutesPerDay),
                           remembered: mean(\.remembered), rememberedWithoutStudy: mean(\.rememberedWithoutStudy), days: settings.days)
        }
    }

    /// The retention to recommend among `outcomes`: the highest whose minutes of study per card
    /// remembered come within 5 % of the least. The least alone is fsrs-rs's "optimal retention";
    /// the cost curve is flat near it (often at the lowest retention tried), so a few per cent
    /// more time buys noticeably more remembered.
    public static func recommended(_ outcomes: [Outcome]) -> Outcome? {
        guard let least = outcomes.map(\.minutesPerCard).min(), least.isFinite, least > 0 else { return nil }
        return outcomes.filter { $0.minutesPerCard <= 1.05 * least }.max { $0.desiredRetention < $1.desiredRetention }
    }

    /// One run.
    public static func simulate(_ cards: [Card], parameters: FSRSParameters, desiredRetention: Double, settings: Settings, seed: UInt64) -> Outcome {
        var run = SimulationRun(cards, parameters: parameters, desiredRetention: desiredRetention, settings: settings, seed: seed)
        let days = run.days
        for day in 0..<days {
            run.reviewDue(on: day)
            run.introduceNew(on: day)
        }
        var remembered = 0.0
        for k in cards.indices where run.learnt[k] {
            remembered += Double(run.model.retrievability(days: Float(days - 1 - run.lastReview[k]), stability: run.s[k]))
        }
        return Outcome(desiredRetention: desiredRetention, reviewsPerDay: Double(run.reviews) / Double(days),
                       newPerDay: Double(run.introduced) / Double(days), minutesPerDay: run.seconds / 60 / Double(days),
                       remembered: remembered, rememberedWithoutStudy: run.withoutStudy, days: days)
    }

    /// The state of one run of ``simulate(_:parameters:desiredRetention:settings:seed:)``: each
    /// card's memory and day buckets, the random numbers, and the totals so far.
    private struct SimulationRun {
        let model: FSRSModel
        let settings: Settings
        var random: SplitMix64
        /// Days simulated, at least one.
        let days: Int
        /// What a stability is multiplied by to give the interval reaching the desired retention.
        let intervalFactor: Double
        /// Each card's stability and difficulty.
        var s: [Float], d: [Float]
        /// Each card's last review day.
        var lastReview: [Int]
        /// Whether each card has been learnt (before the run or during it).
        var learnt: [Bool]
        /// The cards due on each day; the last bucket holds those due after the run.
        var buckets: [[Int]]
        /// The new cards, in order, and how many of them have been introduced.
        var fresh: [Int] = []
        var next = 0
        var reviews = 0, introduced = 0, seconds = 0.0
        /// Cards expected to be recalled on the last day had no review been made.
        var withoutStudy = 0.0

        /// A run at its start: states out of the model's range (a hand-edited note) brought within it.
        init(_ cards: [Card], parameters: FSRSParameters, desiredRetention: Double, settings: Settings, seed: UInt64) {
            let model = FSRSModel(parameters.values.map { Float($0) })
            self.model = model
            self.settings = settings
            random = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
            let days = max(1, settings.days)
            self.days = days
            s = cards.map { $0.isNew ? 0 : Float(min(max($0.stability, Double(model.minS)), Double(model.maxS))) }
            d = cards.map { Float(min(max($0.difficulty.isFinite ? $0.difficulty : 5, 1), 10)) }
            let last = cards.map { min(max($0.lastDay, -36_500), 0) }
            lastReview = last
            learnt = cards.map { !$0.isNew }
            buckets = [[Int]](repeating: [], count: days + 1)
            for (k, card) in cards.enumerated() {
                if card.isNew {
                    fresh.append(k)
                } else {
                    buckets[min(max(card.dueDay, 0), days)].append(k)
                    withoutStudy += Double(model.retrievability(days: Float(days - 1 - last[k]), stability: s[k]))
                }
            }
            intervalFactor = (pow(desiredRetention, 1 / Double(model.decay)) - 1) / Double(model.factor)
        }

        /// The interval, in days, that a stability gives (at least one, at most the maximum).
        func interval(_ stability: Float) -> Int {
            let days = (Double(stability) * intervalFactor).rounded(.toNearestOrAwayFromZero)
            return days.isFinite ? Int(min(Double(settings.maximumInterval), max(1, days))) : settings.maximumInterval
        }

        /// Same-day steps from `state` after a first rating `rating` (nil: after a lapse): fsrs-rs's short-term session.
        mutating func steps(_ state: FSRSModel.State, after rating: Int?, count: Int, transitions: [[Double]], costs: [Double]) -> (FSRSModel.State, Double) {
            var g = rating ?? 1, state = state, cost = 0.0, done = 0
            let need = max(0, g > 2 ? count - 1 : count)
            for _ in 0..<5 {
                if done >= need || g >= 4 { break }
                g = random.pick(transitions[g - 1]) + 1
                state = model.next(FSRSReview(rating: g, deltaDays: 0), state, 1)
                cost += costs[g - 1]
                if g > 2 { done += 1 } else if g == 1 { done = 0 }
            }
            return (state, cost)
        }

        /// Reviews the cards due on `day`, easiest first, up to the day's limit; the rest move to
        /// the next day.
        mutating func reviewDue(on day: Int) {
            let due = buckets[day].sorted { (d[$0], $0) < (d[$1], $1) }
            buckets[day] = []
            for (n, k) in due.enumerated() {
                guard n < settings.reviewsPerDay else {
                    buckets[day + 1].append(k)
                    continue
                }
                let elapsed = max(1, day - lastReview[k])
                let r = model.retrievability(days: Float(elapsed), stability: s[k])
                var state = FSRSModel.State(stability: s[k], difficulty: d[k])
                if random.uniform() < Double(r) {
                    let g = random.pick(settings.reviewRating) + 2
                    state = model.next(FSRSReview(rating: g, deltaDays: elapsed), state, r)
                    seconds += settings.costs[1][g - 1]
                } else {
                    state = model.next(FSRSReview(rating: 1, deltaDays: elapsed), state, r)
                    let (after, cost) = steps(state, after: nil, count: settings.relearningSteps, transitions: settings.relearningTransitions, costs: settings.costs[2])
                    state = after
                    seconds += settings.costs[1][0] + cost
                }
                reviews += 1
                s[k] = state.stability
                d[k] = state.difficulty
                lastReview[k] = day
                buckets[min(days, day + interval(state.stability))].append(k)
            }
        }

        /// Introduces the day's new cards, through their learning steps.
        mutating func introduceNew(on day: Int) {
            for _ in 0..<settings.newPerDay where next < fresh.count {
                let k = fresh[next]
                next += 1
                let g = random.pick(settings.firstRating) + 1
                let (state, cost) = steps(model.initialState(g), after: g, count: settings.learningSteps,
                                          transitions: settings.learningTransitions, costs: settings.costs[0])
                seconds += settings.costs[0][g - 1] + cost
                introduced += 1
                s[k] = state.stability
                d[k] = state.difficulty
                lastReview[k] = day
                learnt[k] = true
                buckets[min(days, day + interval(state.stability))].append(k)
            }
        }
    }
}
