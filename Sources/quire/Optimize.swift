import QuireTerminal
import QuireSupport
import ArgumentParser
import Foundation
import QuireApp
import QuireInterchange
import QuireModel
import QuireReview
import QuireScheduling
import QuireSystem

extension Quire {
    /// `quire optimize [QUERY] [--deck PREFIX] [--evaluate] [--write] [--revlog FILE] …`.
    struct Optimize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "optimize",
            abstract: "Fit the FSRS-6 parameters to the review history, or measure the current ones (--evaluate): log loss, RMSE(bins) and AUC.",
            discussion: """
                The history is the vault's review logs (the cards a query or --deck selects; undone answers left \
                out, a reset card counted anew), or --revlog FILE: a review log in the FSRS optimizer's CSV form \
                (card_id,review_time,review_rating…; times in milliseconds or ISO 8601), no vault needed. Each \
                review on a later study day than the one before is predicted from the card's history. The fit \
                follows fsrs-rs's: outlier filter, initial stabilities from the first answers, then Adam on the \
                recency-weighted log loss with a pull toward the start (docs/INTERCHANGE.md). Printed: the \
                figures before and after on the whole history, then on later reviews by parameters fitted only \
                on earlier ones (time-series cross-validation; --no-validation skips it), and the \
                fsrs_parameters line; --write stores it in .quire/config.yaml (under decks: with --deck). \
                Deterministic: the same history gives the same parameters.

                Example: quire optimize --evaluate; quire optimize --write --deck Languages
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Only measure the current parameters on the history.") var evaluate = false
        @Flag(help: "Store the fitted parameters in .quire/config.yaml: the vault's, or with --deck that deck's.") var write = false
        @Option(help: ArgumentHelp("Fit the cards of this deck and its sub-decks (with --write: store the parameters for it).", valueName: "PREFIX"), completion: .custom(QueryCompletion.decks))
        var deck: String?
        @Flag(help: "Skip the time-series cross-validation (five more fits).") var noValidation = false
        @Option(help: ArgumentHelp("Read this review log (FSRS optimizer CSV) instead of the vault's.", valueName: "FILE")) var revlog: String?
        @Option(help: ArgumentHelp("With --revlog: the local hour a study day starts (default 4).", valueName: "HOUR")) var dayStart = 4
        @Option(help: ArgumentHelp("With --revlog: the 21 FSRS-6 parameters to evaluate, comma-separated (default FSRS-6's).", valueName: "LIST"))
        var parameters: String?
        @Option(help: "Passes over the history (epochs) of the fit.") var epochs = 5
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards (default: every card).", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            if epochs < 1 || epochs > 100 { throw ValidationError("--epochs is from 1 to 100") }
            if !(0...23).contains(dayStart) { throw ValidationError("--day-start is an hour from 0 to 23") }
            if revlog != nil, !query.isEmpty || deck != nil { throw ValidationError("a query or --deck selects the vault's cards; --revlog reads a file instead") }
            if revlog != nil, write { throw ValidationError("--write stores parameters in a vault; --revlog reads no vault") }
            if write, evaluate { throw ValidationError("--evaluate fits nothing to write") }
            if let deck, DeckPath(deck) == nil { throw ValidationError("'\(deck)' is not a deck name") }
        }

        func run() throws {
            let (input, context) = try Self.input(self)
            let history = input.history, current = input.current, fitted = input.fitted
            let deckPath = deck.flatMap(DeckPath.init)
            let name = current == .fsrs6Defaults ? "current (defaults)" : fitted.map { "current (fitted \($0))" } ?? "current"
            Output.line("\(Plural.counted(history.reviewCount, "review")) of \(Plural.counted(history.cards.count, "card")): "
                        + Plural.counted(history.predictions.count, "prediction"))
            let before: FSRSEvaluation.Result
            do { before = try FSRSEvaluation.evaluate(history, parameters: current) } catch { throw CLIError(error.description) }
            Output.line(Self.row("", "log loss", "RMSE(bins)", "AUC"))
            Output.line(Self.row(name, before))
            guard !evaluate else {
                try Self.besideDefaults(history, current: current)
                try context?.loaded.finish()
                return
            }
            var bar = ProgressBar("Fitting", total: epochs, minimum: 1)
            let fit: FSRSOptimizer.Fit
            do { fit = try FSRSOptimizer.fit(history, epochs: epochs) { done, _ in bar.update(done) } } catch { throw CLIError(error.description) }
            do { Output.line(Self.row("fitted", try FSRSEvaluation.evaluate(history, parameters: fit.parameters))) } catch { throw CLIError(error.description) }
            if !noValidation { Self.validate(history, current: current, name: name, epochs: epochs) }
            Self.describe(fit, current: current)
            if write, let context {
                do { try context.loaded.vault.setFittedParameters(fit.parameters, fittedOn: context.today, deck: deckPath) } catch {
                    throw CLIError(error.description)
                }
                Output.line("written to .quire/config.yaml" + (deckPath.map { " for deck \($0)" } ?? ""))
            }
            try context?.loaded.finish()
        }

        /// `--evaluate`: the parameters in use beside FSRS-6's defaults, so the figures mean something
        /// (or, when the defaults are in use, how to get fitted ones).
        static func besideDefaults(_ history: FSRSHistory, current: FSRSParameters) throws {
            guard current != .fsrs6Defaults else {
                Output.line("(no fitted parameters: `quire optimize` fits them and shows both rows; --write keeps them)")
                return
            }
            do { Output.line(Self.row("FSRS-6 defaults", try FSRSEvaluation.evaluate(history, parameters: .fsrs6Defaults))) } catch {
                throw CLIError(error.description)
            }
        }

        /// Time-series cross-validation: the parameters in use and the ones fitted on earlier
        /// reviews, judged on later ones (nothing when the history is too short).
        static func validate(_ history: FSRSHistory, current: FSRSParameters, name: String, epochs: Int) {
            var folds = ProgressBar("Validating", total: 5, minimum: 1)
            do {
                let v = try FSRSOptimizer.crossValidate(history, current: current, epochs: epochs) { done, _ in folds.update(done) }
                Output.line("on later reviews, by parameters fitted only on earlier ones (time-series cross-validation, "
                            + Plural.counted(v.tested, "prediction") + "):")
                Output.line(Self.row(name, v.current))
                Output.line(Self.row("fitted", v.fitted))
            } catch {
                folds.clear()
                Output.line("no time-series cross-validation: the first sixth of the history is too little to fit")
            }
        }

        /// How the fit was made, and the parameters as `fsrs_parameters` takes them.
        static func describe(_ fit: FSRSOptimizer.Fit, current: FSRSParameters) {
            var how = "fitted on \(Plural.counted(fit.predictions, "prediction"))"
            if fit.removedCards > 0 { how += "; the outlier filter left out \(Plural.counted(fit.removedCards, "card"))" }
            if fit.initialOnly { how += "; under 64, only the initial stabilities are fitted (the rest stay the defaults)" }
            Output.line(how)
            if fit.parameters == current { Output.line("the fit leaves the parameters as they are") }
            Output.line("fsrs_parameters: [" + fit.parameters.values.map { String(format: "%.4f", $0) }.joined(separator: ", ") + "]")
        }

        /// The history to fit and the parameters it is compared with: from `--revlog` (a CSV of
        /// another program's reviews, `--parameters` or the defaults), or from the vault (its log,
        /// the chosen deck's parameters) with the context that writes them back.
        static func input(_ o: Optimize) throws -> (OptimizerInput, StudyContext?) {
            guard let revlog = o.revlog else {
                let study = try StudyContext(o.options, readLog: false)
                return (study.optimizerInput(query: try o.options.query(o.query), deck: o.deck.flatMap(DeckPath.init)), study)
            }
            let bytes: [UInt8]
            do { bytes = try FileIO().read(revlog).bytes } catch { throw CLIError(error.description) }
            let (rows, diagnostics) = RevlogReader.read(bytes, path: revlog)
            Output.diagnostics(diagnostics, root: "", toStandardError: true, color: false)
            let calendar = StudyCalendar(rolloverHour: o.dayStart, utcOffset: { Clock.utcOffset(at: $0) })
            let current: FSRSParameters
            do {
                current = try o.parameters.map { text in
                    try FSRSParameters(text.split(separator: ",").compactMap { Double($0.trimmingSpaces()) })
                } ?? .fsrs6Defaults
            } catch { throw CLIError("--parameters: \(error)") }
            return (OptimizerInput(history: FSRSHistory(rows) { calendar.day(containing: $0).number }, current: current, fitted: nil), nil)
        }

        /// A row of the figures' table.
        static func row(_ name: String, _ r: FSRSEvaluation.Result) -> String {
            row(name, String(format: "%.4f", r.logLoss), String(format: "%.4f", r.rmseBins), r.auc.map { String(format: "%.4f", $0) } ?? "—")
        }

        static func row(_ name: String, _ a: String, _ b: String, _ c: String) -> String {
            func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
            return name + String(repeating: " ", count: max(0, 20 - name.count)) + pad(a, 9) + pad(b, 12) + pad(c, 8)
        }
    }
}
