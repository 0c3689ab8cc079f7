import ArgumentParser
import Foundation
import QuireInterchange
import QuireModel
import QuireScheduling
import QuireSystem

extension Quire {
    /// `quire optimize --evaluate [QUERY] [--revlog FILE] [--day-start HOUR]`.
    struct Optimize: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure how well the FSRS parameters predict the review history (--evaluate): log loss and RMSE(bins), as fsrs-rs computes them.",
            discussion: """
                The history is the vault's review logs (the cards a query selects; undone answers left out, a \
                reset card counted anew), or --revlog FILE: a review log in the FSRS optimizer's CSV form \
                (card_id,review_time,review_rating…; times in milliseconds or ISO 8601), no vault needed. Each \
                review on a later study day than the one before is predicted from the card's history. Fitting \
                new parameters to the history is not built yet; --evaluate is required.
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Evaluate the current parameters on the history.") var evaluate = false
        @Option(help: ArgumentHelp("Read this review log (FSRS optimizer CSV) instead of the vault's.", valueName: "FILE")) var revlog: String?
        @Option(help: ArgumentHelp("With --revlog: the local hour a study day starts (default 4).", valueName: "HOUR")) var dayStart = 4
        @Option(help: ArgumentHelp("With --revlog: the 21 FSRS-6 parameters to evaluate, comma-separated (default FSRS-6's).", valueName: "LIST"))
        var parameters: String?
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards (default: every card).") var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            guard evaluate else { throw ValidationError("fitting the parameters is not built yet: pass --evaluate to measure the current ones") }
            if !(0...23).contains(dayStart) { throw ValidationError("--day-start is an hour from 0 to 23") }
            if revlog != nil, !query.isEmpty { throw ValidationError("a query selects the vault's cards; --revlog reads a file instead") }
        }

        func run() throws {
            let rows: [FSRSHistory.Row]
            let rollover: Int
            let evaluated: FSRSParameters
            if let revlog {
                let bytes: [UInt8]
                do { bytes = try FileIO().read(revlog).bytes } catch { throw CLIError("\(revlog): \(error.description)") }
                let (read, diagnostics) = RevlogReader.read(bytes, path: revlog)
                Output.diagnostics(diagnostics, root: "", toStandardError: true, color: false)
                rows = read
                rollover = dayStart
                do {
                    evaluated = try parameters.map { text in
                        try FSRSParameters(text.split(separator: ",").compactMap { Double($0.trimmingSpaces()) })
                    } ?? .fsrs6Defaults
                } catch { throw CLIError("--parameters: \(error)") }
            } else {
                let q = try LoadedVault.query(query)
                let context = try StudyContext(options, readLog: false)
                let decks = context.decks(of: context.loaded.index.cards(matching: q, now: context.now, dayEnd: context.dayEnd))
                let csv = RevlogExport.csv(context.loaded.vault.statisticsLog(), include: { decks[$0] != nil },
                                           settings: context.eventSettings(decks: decks))
                rows = RevlogReader.read(Array(csv.text.utf8), path: "review log").rows
                rollover = context.config.dayRollover
                evaluated = context.config.settings(for: DeckPath.defaultDeck).parameters
                try context.loaded.finish()
            }
            let items = FSRSHistory.items(rows) { time in
                Day(containing: time, utcOffsetSeconds: Clock.utcOffset(at: time), rolloverHour: rollover).number
            }
            let cards = Set(rows.map(\.card)).count
            do {
                let result = try FSRSEvaluation.evaluate(items, parameters: evaluated)
                Output.line("\(Output.counted(rows.count, "review")) of \(Output.counted(cards, "card")): \(Output.counted(items.count, "prediction"))")
                Output.line("parameters: " + (evaluated == .fsrs6Defaults ? "FSRS-6 defaults" : evaluated.values.map { String(format: "%.4f", $0) }.joined(separator: ", ")))
                Output.line(String(format: "log loss %.4f · RMSE(bins) %.4f", result.logLoss, result.rmseBins))
            } catch { throw CLIError(error.description) }
        }
    }
}
