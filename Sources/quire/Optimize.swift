import ArgumentParser
import Foundation
import QuireInterchange
import QuireModel
import QuireScheduling
import QuireSystem

extension Quire {
    /// `quire optimize [--evaluate] [QUERY] [--revlog FILE] [--day-start HOUR] [--parameters LIST] [--epochs N]`.
    struct Optimize: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fit the FSRS-6 parameters to the review history, or measure the current ones (--evaluate): log loss and RMSE(bins), as fsrs-rs computes them.",
            discussion: """
                The history is the vault's review logs (the cards a query selects; undone answers left out, a \
                reset card counted anew), or --revlog FILE: a review log in the FSRS optimizer's CSV form \
                (card_id,review_time,review_rating…; times in milliseconds or ISO 8601), no vault needed. Each \
                review on a later study day than the one before is predicted from the card's history. The fit \
                starts from the current parameters and minimises the recency-weighted log loss (Adam in mini-batches \
                of 512 predictions over 5 epochs, learning rate 0.04 annealed by a cosine, every weight within \
                its bounds), then prints the figures before \
                and after and the fsrs_parameters line to put in .quire/config.yaml. Deterministic: the same \
                history gives the same parameters.
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Only measure the current parameters on the history.") var evaluate = false
        @Option(help: ArgumentHelp("Read this review log (FSRS optimizer CSV) instead of the vault's.", valueName: "FILE")) var revlog: String?
        @Option(help: ArgumentHelp("With --revlog: the local hour a study day starts (default 4).", valueName: "HOUR")) var dayStart = 4
        @Option(help: ArgumentHelp("With --revlog: the 21 FSRS-6 parameters to evaluate, comma-separated (default FSRS-6's).", valueName: "LIST"))
        var parameters: String?
        @Option(help: "Passes over the history (epochs) of the fit.") var epochs = 5
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards (default: every card).") var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            if epochs < 1 || epochs > 100 { throw ValidationError("--epochs is from 1 to 100") }
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
            let day: (Timestamp) -> Int = { time in
                Day(containing: time, utcOffsetSeconds: Clock.utcOffset(at: time), rolloverHour: rollover).number
            }
            let items = FSRSHistory.items(rows, day: day)
            let cards = Set(rows.map(\.card)).count
            func describe(_ p: FSRSParameters) -> String { p.values.map { String(format: "%.4f", $0) }.joined(separator: ", ") }
            do {
                let before = try FSRSEvaluation.evaluate(items, parameters: evaluated)
                Output.line("\(Output.counted(rows.count, "review")) of \(Output.counted(cards, "card")): \(Output.counted(items.count, "prediction"))")
                Output.line("parameters: " + (evaluated == .fsrs6Defaults ? "FSRS-6 defaults" : describe(evaluated)))
                Output.line(String(format: "log loss %.4f · RMSE(bins) %.4f", before.logLoss, before.rmseBins))
                guard !evaluate else { return }
                guard items.count >= Self.leastPredictions else {
                    throw CLIError("too little history to fit: \(Output.counted(items.count, "prediction")) (reviews on a later day than the card's "
                                   + "review before); \(Self.leastPredictions) at least")
                }
                var bar = ProgressBar("Fitting", total: epochs, minimum: 1)
                let fitted = FSRSOptimizer.fit(FSRSHistory.sequences(rows, day: day), start: evaluated, epochs: epochs) { done, _ in bar.update(done) }
                let after = try FSRSEvaluation.evaluate(items, parameters: fitted)
                Output.line(String(format: "fitted: log loss %.4f · RMSE(bins) %.4f", after.logLoss, after.rmseBins))
                Output.line("fsrs_parameters: [" + describe(fitted) + "]")
            } catch let error as FSRSEvaluation.Failure { throw CLIError(error.description) }
        }

        /// The fewest predictions a fit is made from (fsrs-rs's own minimum for training).
        static let leastPredictions = 8
    }
}
