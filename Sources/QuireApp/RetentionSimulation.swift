import QuireIndex
import QuireInterchange
import QuireModel
import QuireScheduling
import QuireSupport

/// A year (or any span) of the user's FSRS cards studied at each desired retention from 0.70 to
/// 0.97, for `quire retention` or any front end: the cards as they stand, the deck's settings, how
/// the user answers and how long answers take from the log; fsrs-rs's simulator run with fixed
/// seeds, so the outcome is the same each time.
public struct RetentionSimulation {
    /// The retentions simulated.
    public static let retentions = (70...97).map { Double($0) / 100 }

    /// The cards simulated, as they stand (new cards as new).
    public let cards: [FSRSSimulator.Card]
    /// The settings of the deck simulated (its parameters and desired retention).
    public let settings: SchedulerSettings
    /// Days, runs, daily limits and steps.
    public let simulation: FSRSSimulator.Settings
    /// Answers in the log that taught the simulator how the user answers, and how many of them timed.
    public let answers: Int, timedAnswers: Int
    /// Cards the query selects that another scheduler schedules (left out).
    public let otherSchedulers: Int
    /// When the deck's parameters were optimized, if they were.
    public let fitted: String?
    /// One outcome per retention, and the one recommended.
    public let outcomes: [FSRSSimulator.Outcome]
    public let recommended: FSRSSimulator.Outcome?

    /// Cards already learnt (the rest are new).
    public var learnt: Int { cards.filter { $0.stability > 0 }.count }

    /// Where the parameters come from: `defaults`, `optimized 2026-11-20`, or `custom`.
    public var parameterSource: String {
        settings.parameters == .fsrs6Defaults ? "defaults" : fitted.map { "optimized \($0)" } ?? "custom"
    }

    /// The documented `--json` shape (docs/JSON.md).
    public var json: JSONValue {
        func row(_ o: FSRSSimulator.Outcome) -> JSONValue {
            .object([("desired_retention", .double(o.desiredRetention)), ("reviews_per_day", .double(o.reviewsPerDay)),
                     ("new_per_day", .double(o.newPerDay)), ("minutes_per_day", .double(o.minutesPerDay)),
                     ("remembered", .double(o.remembered)), ("remembered_without_study", .double(o.rememberedWithoutStudy)),
                     ("minutes_per_card", .double(o.minutesPerCard)), ("remembered_per_hour", .double(o.rememberedPerHour))])
        }
        return .object([
            ("cards", .int(cards.count)), ("learnt", .int(learnt)), ("days", .int(simulation.days)), ("runs", .int(simulation.runs)),
            ("parameters", .string(parameterSource)), ("timed_answers", .int(timedAnswers)), ("current", .double(settings.desiredRetention)),
            ("recommended", recommended.map { .double($0.desiredRetention) } ?? .null), ("outcomes", .array(outcomes.map(row))),
        ])
    }
}

extension StudyContext {
    /// Simulates the FSRS cards `query` selects (within `deck` and its sub-decks, under its
    /// settings, when given) for `days` days, `runs` runs a retention. A deck another scheduler
    /// schedules, or no FSRS card selected, is an error.
    public func simulateRetention(query: Query, deck: DeckPath?, days: Int, runs: Int) throws(AppError) -> RetentionSimulation {
        let index = loaded.index
        let chosen = deck ?? DeckPath.defaultDeck
        let settings = config.settings(for: chosen)
        guard settings.kind == .fsrs else {
            throw .retention("deck \(chosen) is scheduled by \(settings.kind.rawValue), not FSRS: nothing to simulate")
        }
        let today = self.today.number, calendar = self.calendar
        func day(_ t: Timestamp) -> Int { calendar.day(containing: t).number - today }
        var cards: [FSRSSimulator.Card] = []
        var decks: [CardID: DeckPath] = [:]
        var otherSchedulers = 0
        for location in index.cards(matching: query, now: now, dayEnd: dayEnd) {
            let note = index.notes[location.note], card = index.card(at: location)
            guard !note.archived, deck.map({ note.deck.isWithin($0) }) ?? true else { continue }
            guard config.settings(for: note.deck).kind == .fsrs else {
                otherSchedulers += 1
                continue
            }
            let s = card.schedule
            if s?.suspended == true { continue }
            decks[card.id] = note.deck
            if let s, s.state != .new, let stability = s.stability, let difficulty = s.difficulty, let last = s.lastReview {
                cards.append(FSRSSimulator.Card(stability: stability, difficulty: difficulty, lastDay: day(last), dueDay: s.due.map(day) ?? 0))
            } else {
                cards.append(.new)
            }
        }
        guard !cards.isEmpty else {
            throw .retention("no FSRS card to simulate" + (otherSchedulers > 0 ? " (\(otherSchedulers) scheduled otherwise)" : ""))
        }
        var simulation = FSRSSimulator.Settings()
        simulation.days = days
        simulation.runs = runs
        simulation.newPerDay = config.study.newPerDay
        simulation.reviewsPerDay = config.study.reviewsPerDay
        simulation.maximumInterval = settings.maximumInterval
        simulation.learningSteps = settings.learningSteps.count
        simulation.relearningSteps = settings.relearningSteps.count
        let records = RevlogExport.records(loaded.vault.statisticsLog(), include: { decks[$0] != nil },
                                           settings: eventSettings(decks: decks)).records
        let timed = simulation.learn(from: records.map { FSRSSimulator.Answer(state: $0.state, rating: $0.rating, milliseconds: $0.milliseconds) })
        let outcomes = FSRSSimulator.outcomes(cards, parameters: settings.parameters, retentions: RetentionSimulation.retentions, settings: simulation)
        return RetentionSimulation(cards: cards, settings: settings, simulation: simulation, answers: records.count, timedAnswers: timed,
                                   otherSchedulers: otherSchedulers, fitted: config.parametersFitted(for: chosen),
                                   outcomes: outcomes, recommended: FSRSSimulator.recommended(outcomes))
    }
}
