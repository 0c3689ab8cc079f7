import QuireApp
import QuireIndex
import QuireInterchange
import QuireModel
import QuireReview
import QuireScheduling
import QuireSupport
import QuireSystem

extension StudyContext {
    /// The review history of the cards in `decks` as the FSRS optimizer reads it (undone answers
    /// left out, a reset card counted anew), in the vault's study days, with each history card's deck.
    func fsrsHistory(_ log: StatisticsLog, decks: [CardID: DeckPath]) -> (history: FSRSHistory, deckOf: [Int: DeckPath]) {
        let (rows, cards) = RevlogExport.history(log, include: { decks[$0] != nil }, settings: eventSettings(decks: decks))
        let calendar = calendar
        let history = FSRSHistory(rows) { calendar.day(containing: $0).number }
        return (history, cards.compactMapValues { decks[$0] })
    }
}

/// Which FSRS parameters a vault's cards use and how well they predict its history, beside the
/// defaults (`quire stats`).
struct ParameterCalibration {
    /// `defaults`, `optimized` (by `quire optimize --write`), `custom` (written by hand), or
    /// `per-deck` (decks with parameters of their own).
    var source: String
    /// The day the vault's parameters were fitted.
    var fitted: String?
    var predictions: Int
    /// The figures of the parameters in use (each card its deck's) and of the defaults; nil
    /// without a prediction.
    var current: FSRSEvaluation.Result?
    var defaults: FSRSEvaluation.Result?

    init(_ context: StudyContext, log: StatisticsLog, decks: [CardID: DeckPath]) {
        let config = context.config
        let (history, deckOf) = context.fsrsHistory(log, decks: decks)
        predictions = history.predictions.count
        fitted = config.parametersFitted
        let own = config.deckSettings.filter { $0.settings.parameters != config.settings.parameters }
        if !own.isEmpty, Set(decks.values).contains(where: { deck in own.contains { deck.isWithin($0.deck) } }) {
            source = "per-deck"
        } else if config.settings.parameters == .fsrs6Defaults {
            source = "defaults"
        } else {
            source = fitted == nil ? "custom" : "optimized"
        }
        current = try? FSRSEvaluation.evaluate(history) { config.settings(for: deckOf[$0] ?? DeckPath.defaultDeck).parameters }
        defaults = try? FSRSEvaluation.evaluate(history, parameters: .fsrs6Defaults)
    }

    /// The dashboard's lines.
    var lines: [String] {
        let what = switch source {
        case "defaults": "FSRS-6 defaults"
        case "optimized": "optimized " + (fitted ?? "")
        case "custom": "set by hand"
        default: "each deck its own"
        }
        var out = ["FSRS parameters: \(what)" + (source == "defaults" ? " (quire optimize fits them to your history)" : "")]
        func figures(_ r: FSRSEvaluation.Result) -> String {
            String(format: "log loss %.4f · RMSE(bins) %.1f%%", r.logLoss, r.rmseBins * 100) + (r.auc.map { String(format: " · AUC %.3f", $0) } ?? "")
        }
        if let current {
            out.append("  on \(Output.counted(predictions, "prediction")): " + figures(current))
            if source != "defaults", let defaults { out.append("  with the defaults:  " + String(repeating: " ", count: max(0, Output.counted(predictions, "prediction").count - 16)) + figures(defaults)) }
        }
        return out
    }

    var json: JSONValue {
        func figures(_ r: FSRSEvaluation.Result?) -> JSONValue {
            guard let r else { return .null }
            func rounded(_ x: Double) -> JSONValue { .double((x * 1e6).rounded() / 1e6) }
            return .object([("log_loss", rounded(r.logLoss)), ("rmse_bins", rounded(r.rmseBins)), ("auc", r.auc.map(rounded) ?? .null)])
        }
        let day: JSONValue = fitted.map { .string($0) } ?? .null
        return .object([("source", .string(source)), ("optimized", day), ("predictions", .int(predictions)),
                        ("current", figures(current)), ("defaults", figures(defaults))])
    }
}
