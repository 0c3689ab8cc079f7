import QuireTerminal
import QuireSupport
import ArgumentParser
import Foundation
import QuireApp
import QuireModel

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

        func run() throws {
            let q = try options.query(query)
            let context = try StudyContext(options, readLog: false)
            let simulated: RetentionSimulation
            do { simulated = try context.simulateRetention(query: q, deck: deck.flatMap(DeckPath.init), days: days, runs: runs) } catch {
                throw CLIError(error.description)
            }
            if listing.json {
                Output.line(simulated.json.serialized(pretty: true))
            } else {
                for line in Self.table(simulated) { Output.line(line) }
            }
            try context.loaded.finish()
        }

        /// Reviews the parameters, and so a recommendation, can be trusted from (said as "1,000").
        static let dependableReviews = 1_000

        /// How much the recommendation rests on: the parameters' source and the history behind it.
        static func howSure(_ simulated: RetentionSimulation) -> String {
            let reviews = Plural.counted(simulated.answers, "review")
            if simulated.settings.parameters == .fsrs6Defaults {
                return "how sure: the parameters are FSRS-6's defaults, not fitted to your reviews, so this is an average learner's "
                    + "recommendation; `quire optimize --write` fits them (about 1,000 reviews make them dependable; the log holds \(reviews))"
            }
            if simulated.answers < dependableReviews {
                return "how sure: rough — the log holds \(reviews); about 1,000 or more make the fitted parameters, "
                    + "and so this recommendation, dependable"
            }
            return "how sure: the parameters are fitted to your history (the log holds \(reviews))"
        }

        /// The simulation as the terminal shows it: what was simulated, one row per retention
        /// (every other one, the current and the recommended), and the recommendation.
        static func table(_ simulated: RetentionSimulation) -> [String] {
            let settings = simulated.settings, simulation = simulated.simulation, outcomes = simulated.outcomes
            let cards = simulated.cards.count, learnt = simulated.learnt, recommended = simulated.recommended
            let which = settings.parameters == .fsrs6Defaults ? "FSRS-6 defaults" : simulated.fitted.map { "optimized \($0)" } ?? "set by hand"
            var lines = ["\(simulation.days) days simulated for \(Plural.counted(cards, "card")) (\(learnt) learnt, \(cards - learnt) new at "
                         + "\(simulation.newPerDay) a day; \(simulation.reviewsPerDay) reviews a day at most), \(Plural.counted(simulation.runs, "run")) each;"]
            let answers = simulated.answers == 0 ? "fsrs-rs's defaults (nothing logged yet)"
                : "as in your log (\(Plural.counted(simulated.answers, "answer")), \(simulated.timedAnswers) timed)"
            lines.append("parameters: \(which); answers \(answers)"
                         + (simulated.otherSchedulers > 0 ? "; \(simulated.otherSchedulers) cards with other schedulers left out" : ""))
            lines += ["", "retention  reviews/day  minutes/day  remembered at the end  minutes per card"]
            let shown = Set((0...13).map { 70 + 2 * $0 } + [97, Int((settings.desiredRetention * 100).rounded()),
                                                             Int(((recommended?.desiredRetention ?? 0) * 100).rounded())])
            for o in outcomes where shown.contains(Int((o.desiredRetention * 100).rounded())) {
                let share = cards > 0 ? o.remembered / Double(cards) * 100 : 0
                var line = String(format: "     %.2f  %11.1f  %11.1f  %12.0f (%3.0f%%)  %16.2f", o.desiredRetention, o.reviewsPerDay,
                                  o.minutesPerDay, o.remembered, share, o.minutesPerCard)
                if abs(o.desiredRetention - settings.desiredRetention) < 0.005 { line += "  current" }
                if o.desiredRetention == recommended?.desiredRetention { line = " →" + line.dropFirst(2) + "  recommended" }
                lines.append(line)
            }
            if let recommended, let cheapest = outcomes.min(by: { $0.minutesPerCard < $1.minutesPerCard }) {
                lines.append("")
                lines.append(String(format: "recommended: desired_retention: %.2f — the highest retention within 5%% of the fewest minutes per card remembered (%.2f at %.2f)",
                                    recommended.desiredRetention, cheapest.minutesPerCard, cheapest.desiredRetention))
                lines.append(Self.howSure(simulated))
            }
            return lines
        }
    }
}
