import ArgumentParser
import Foundation
import QuireApp
import QuireIndex
import QuireInterchange
import QuireModel
import QuireScheduling
import QuireSupport
import QuireSystem

extension Quire {
    /// `quire retention [QUERY] [--deck PREFIX] [--days N] [--runs N] [--json]`.
    struct Retention: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retention",
            abstract: "Simulate a year of your reviews at desired retentions from 0.70 to 0.97: workload a day, cards remembered, and a recommendation.",
            discussion: """
                The simulation starts from your FSRS cards as they are (their memory states and due days; new cards \
                learnt at new_per_day, reviews up to reviews_per_day), under the FSRS parameters in use, with how \
                you answer (first answers, Hard/Good/Easy shares) and how long answers take taken from your review \
                log, moved from fsrs-rs's defaults as the log grows. Each retention is run several times with the \
                same seeds, so the table is deterministic. Recommended: the highest retention whose minutes of \
                study per card remembered come within 5% of the least (the least alone is fsrs-rs's "optimal \
                retention"); set it as desired_retention in .quire/config.yaml (a deck's under decks:).

                Example: quire retention --deck Languages
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Option(help: ArgumentHelp("Simulate the cards of this deck and its sub-decks, with its settings.", valueName: "PREFIX"), completion: .custom(QueryCompletion.decks)) var deck: String?
        @Option(help: "Days simulated.") var days = 365
        @Option(help: "Runs averaged for each retention.") var runs = 8
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards (default: every card).", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            if !(7...3650).contains(days) { throw ValidationError("--days is from 7 to 3650") }
            if !(1...64).contains(runs) { throw ValidationError("--runs is from 1 to 64") }
            if let deck, DeckPath(deck) == nil { throw ValidationError("'\(deck)' is not a deck name") }
        }

        /// The retentions simulated.
        static let retentions = (70...97).map { Double($0) / 100 }

        func run() throws {
            let q = try LoadedVault.query(query)
            let context = try StudyContext(options, readLog: false)
            let config = context.config, index = context.loaded.index
            let deckPath = deck.flatMap(DeckPath.init)
            let chosen = deckPath ?? DeckPath.defaultDeck
            let settings = config.settings(for: chosen)
            guard settings.kind == .fsrs else { throw CLIError("deck \(chosen) is scheduled by \(settings.kind.rawValue), not FSRS: nothing to simulate") }
            let today = context.today.number
            func day(_ t: Timestamp) -> Int { context.calendar.day(containing: t).number - today }
            var cards: [FSRSSimulator.Card] = []
            var decks: [CardID: DeckPath] = [:]
            var otherSchedulers = 0
            for location in index.cards(matching: q, now: context.now, dayEnd: context.dayEnd) {
                let note = index.notes[location.note], card = index.card(at: location)
                guard !note.archived, deckPath.map({ note.deck.isWithin($0) }) ?? true else { continue }
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
            guard !cards.isEmpty else { throw CLIError("no FSRS card to simulate" + (otherSchedulers > 0 ? " (\(otherSchedulers) scheduled otherwise)" : "")) }
            var simulation = FSRSSimulator.Settings()
            simulation.days = days
            simulation.runs = runs
            simulation.newPerDay = config.study.newPerDay
            simulation.reviewsPerDay = config.study.reviewsPerDay
            simulation.maximumInterval = settings.maximumInterval
            simulation.learningSteps = settings.learningSteps.count
            simulation.relearningSteps = settings.relearningSteps.count
            let records = RevlogExport.records(context.loaded.vault.statisticsLog(), include: { decks[$0] != nil },
                                               settings: context.eventSettings(decks: decks)).records
            let timed = simulation.learn(from: records.map { FSRSSimulator.Answer(state: $0.state, rating: $0.rating, milliseconds: $0.milliseconds) })
            let outcomes = FSRSSimulator.outcomes(cards, parameters: settings.parameters, retentions: Self.retentions, settings: simulation)
            let recommended = FSRSSimulator.recommended(outcomes)
            let fitted = config.parametersFitted(for: chosen)
            let learnt = cards.filter { $0.stability > 0 }.count
            if listing.json {
                func row(_ o: FSRSSimulator.Outcome) -> JSONValue {
                    .object([("desired_retention", .double(o.desiredRetention)), ("reviews_per_day", .double(o.reviewsPerDay)),
                             ("new_per_day", .double(o.newPerDay)), ("minutes_per_day", .double(o.minutesPerDay)),
                             ("remembered", .double(o.remembered)), ("remembered_without_study", .double(o.rememberedWithoutStudy)),
                             ("minutes_per_card", .double(o.minutesPerCard)), ("remembered_per_hour", .double(o.rememberedPerHour))])
                }
                let parameters: JSONValue = .string(settings.parameters == .fsrs6Defaults ? "defaults" : fitted.map { "optimized \($0)" } ?? "custom")
                Output.line(JSONValue.object([
                    ("cards", .int(cards.count)), ("learnt", .int(learnt)), ("days", .int(days)), ("runs", .int(runs)),
                    ("parameters", parameters), ("timed_answers", .int(timed)), ("current", .double(settings.desiredRetention)),
                    ("recommended", recommended.map { .double($0.desiredRetention) } ?? .null), ("outcomes", .array(outcomes.map(row))),
                ]).serialized(pretty: true))
                try context.loaded.finish()
                return
            }
            let which = settings.parameters == .fsrs6Defaults ? "FSRS-6 defaults" : fitted.map { "optimized \($0)" } ?? "set by hand"
            Output.line("\(days) days simulated for \(Output.counted(cards.count, "card")) (\(learnt) learnt, \(cards.count - learnt) new at "
                        + "\(simulation.newPerDay) a day; \(simulation.reviewsPerDay) reviews a day at most), \(Output.counted(runs, "run")) each;")
            let answers = records.isEmpty ? "fsrs-rs's defaults (nothing logged yet)" : "as in your log (\(Output.counted(records.count, "answer")), \(timed) timed)"
            Output.line("parameters: \(which); answers \(answers)"
                        + (otherSchedulers > 0 ? "; \(otherSchedulers) cards with other schedulers left out" : ""))
            Output.line("")
            Output.line("retention  reviews/day  minutes/day  remembered at the end  minutes per card")
            let shown = Set((0...13).map { 70 + 2 * $0 } + [97, Int((settings.desiredRetention * 100).rounded()), Int(((recommended?.desiredRetention ?? 0) * 100).rounded())])
            for o in outcomes where shown.contains(Int((o.desiredRetention * 100).rounded())) {
                let share = Double(cards.count) > 0 ? o.remembered / Double(cards.count) * 100 : 0
                var line = String(format: "     %.2f  %11.1f  %11.1f  %12.0f (%3.0f%%)  %16.2f", o.desiredRetention, o.reviewsPerDay, o.minutesPerDay, o.remembered, share, o.minutesPerCard)
                if abs(o.desiredRetention - settings.desiredRetention) < 0.005 { line += "  current" }
                if o.desiredRetention == recommended?.desiredRetention { line = " →" + line.dropFirst(2) + "  recommended" }
                Output.line(line)
            }
            if let recommended, let cheapest = outcomes.min(by: { $0.minutesPerCard < $1.minutesPerCard }) {
                Output.line("")
                Output.line(String(format: "recommended: desired_retention: %.2f — the highest retention within 5%% of the fewest minutes per card remembered (%.2f at %.2f)",
                                   recommended.desiredRetention, cheapest.minutesPerCard, cheapest.desiredRetention))
            }
            try context.loaded.finish()
        }
    }
}
