import QuireSupport
import QuireApp
import QuireScheduling

extension ParameterCalibration {
    /// The dashboard's lines.
    package var lines: [String] {
        let what = switch source {
        case .defaults: "FSRS-6 defaults"
        case .optimized: "optimized " + (fitted ?? "")
        case .custom: "set by hand"
        case .perDeck: "each deck its own"
        }
        var out = ["FSRS parameters: \(what)" + (source == .defaults ? " (quire optimize fits them to your history)" : "")]
        func figures(_ r: FSRSEvaluation.Result) -> String {
            String(format: "log loss %.4f · RMSE(bins) %.1f%%", r.logLoss, r.rmseBins * 100) + (r.auc.map { String(format: " · AUC %.3f", $0) } ?? "")
        }
        if let current {
            out.append("  on \(Plural.counted(predictions, "prediction")): " + figures(current))
            if source != .defaults, let defaults { out.append("  with the defaults:  " + String(repeating: " ", count: max(0, Plural.counted(predictions, "prediction").count - 16)) + figures(defaults)) }
        }
        return out
    }
}
