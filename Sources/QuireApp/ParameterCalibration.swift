import QuireIndex
import QuireInterchange
import QuireModel
import QuireReview
import QuireScheduling
import QuireSupport

extension StudyContext {
    /// The review history of the cards in `decks` as the FSRS optimizer reads it (undone answers
    /// left out, a reset card counted anew), in the vault's study days, with each history card's deck.
    public func fsrsHistory(_ log: StatisticsLog, decks: [CardID: DeckPath]) -> (history: FSRSHistory, deckOf: [Int: DeckPath]) {
        let (rows, cards) = RevlogExport.history(log, include: { decks[$0] != nil }, settings: eventSettings(decks: decks))
        let calendar = calendar
        let history = FSRSHistory(rows) { calendar.day(containing: $0).number }
        return (history, cards.compactMapValues { decks[$0] })
    }
}

/// Which FSRS parameters a vault's cards use and how well they predict its history, beside the
/// defaults (`quire stats`).
public struct ParameterCalibration: Sendable {
    /// Where the parameters in use come from.
    public enum Source: String, Sendable {
        /// FSRS-6's defaults.
        case defaults
        /// Fitted by `quire optimize --write`.
        case optimized
        /// Written by hand.
        case custom
        /// Decks with parameters of their own.
        case perDeck = "per-deck"
    }

    public var source: Source
    /// The day the vault's parameters were fitted.
    public var fitted: String?
    public var predictions: Int
    /// The figures of the parameters in use (each card its deck's) and of the defaults; nil
    /// without a prediction.
    public var current: FSRSEvaluation.Result?
    public var defaults: FSRSEvaluation.Result?

    public init(_ context: StudyContext, log: StatisticsLog, decks: [CardID: DeckPath]) {
        let config = context.config
        let (history, deckOf) = context.fsrsHistory(log, decks: decks)
        predictions = history.predictions.count
        fitted = config.parametersFitted
        let own = config.deckSettings.filter { $0.settings.parameters != config.settings.parameters }
        if !own.isEmpty, Set(decks.values).contains(where: { deck in own.contains { deck.isWithin($0.deck) } }) {
            source = .perDeck
        } else if config.settings.parameters == .fsrs6Defaults {
            source = .defaults
        } else {
            source = fitted == nil ? .custom : .optimized
        }
        current = try? FSRSEvaluation.evaluate(history) { config.settings(for: deckOf[$0] ?? DeckPath.defaultDeck).parameters }
        defaults = try? FSRSEvaluation.evaluate(history, parameters: .fsrs6Defaults)
    }

    /// The documented `--json` shape of `stats`' `fsrs` (docs/JSON.md).
    public var json: JSONValue {
        func figures(_ r: FSRSEvaluation.Result?) -> JSONValue {
            guard let r else { return .null }
            func rounded(_ x: Double) -> JSONValue { .double((x * 1e6).rounded() / 1e6) }
            return .object([("log_loss", rounded(r.logLoss)), ("rmse_bins", rounded(r.rmseBins)), ("auc", r.auc.map(rounded) ?? .null)])
        }
        let day: JSONValue = fitted.map { .string($0) } ?? .null
        return .object([("source", .string(source.rawValue)), ("optimized", day), ("predictions", .int(predictions)),
                        ("current", figures(current)), ("defaults", figures(defaults))])
    }
}

/// What the FSRS optimizer reads from a vault: the review history of the cards chosen, the
/// parameters in use for them, and when those were fitted.
public struct OptimizerInput {
    public let history: FSRSHistory
    public let current: FSRSParameters
    /// The day the parameters in use were fitted, if they were.
    public let fitted: String?

    public init(history: FSRSHistory, current: FSRSParameters, fitted: String?) {
        self.history = history
        self.current = current
        self.fitted = fitted
    }
}

extension StudyContext {
    /// The history of the cards `query` selects within `deck` (every deck when nil), in the
    /// vault's study days, with that deck's parameters (`quire optimize`).
    public func optimizerInput(query: Query, deck: DeckPath?) -> OptimizerInput {
        let decks = self.decks(of: loaded.index.cards(matching: query, now: now, dayEnd: dayEnd)).filter { deck.map($0.value.isWithin) ?? true }
        let chosen = deck ?? DeckPath.defaultDeck
        return OptimizerInput(history: fsrsHistory(loaded.vault.statisticsLog(), decks: decks).history,
                              current: config.settings(for: chosen).parameters, fitted: config.parametersFitted(for: chosen))
    }
}
