import QuireTerminal
import ArgumentParser
import QuireApp
import QuireCuration
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
import QuireSupport

extension Quire {
    /// `quire stats [QUERY]`.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Statistics: streaks, cards by state, reviews and time, the due forecast, a year of reviews, retention, milestones.",
            discussion: "Computed from the review log and the cards a query selects (every card without one). --json has every figure (docs/JSON.md).\n\nExample: quire stats deck:Biology --days 14")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @OptionGroup var figures: StatisticsOptions
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards, e.g. deck:Biology.", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
        }

        func run() throws {
            let computed = try figures.compute(options, query: query, calibrate: true)
            if listing.json {
                guard case .object(var fields) = StatisticsJSON.json(computed.statistics) else { return }
                fields.append(("fsrs_parameters", computed.calibration?.json ?? .null))
                fields.append(("curation", StatisticsJSON.json(computed.curation)))
                Output.line(JSONValue.object(fields).serialized(pretty: true))
            } else {
                for line in StatisticsDashboard.dashboard(computed.statistics, color: Output.useColor, parameters: computed.calibration?.lines ?? []) {
                    Output.line(StatisticsDashboard.trimmed(line))
                }
                Output.line("")
                for line in StatisticsDashboard.dashboard(computed.curation) { Output.line(line) }
            }
            try computed.loaded.finish()
            Output.exitWithoutFreeing()
        }

    }
}
