import Foundation

/// One review as the FSRS optimizer reads it: a rating (1–4; 0 a manual change) and the whole
/// days since the review before (0 for a card's first review, and for a review the same day).
public struct FSRSReview: Sendable, Equatable {
    public var rating: Int
    public var deltaDays: Int

    public init(rating: Int, deltaDays: Int) {
        self.rating = rating
        self.deltaDays = deltaDays
    }
}

/// A card's reviews up to one whose outcome is predicted (fsrs-rs's `FSRSItem`): the last review
/// is the one predicted, the others its history.
public struct FSRSItem: Sendable, Equatable {
    public var reviews: [FSRSReview]

    public init(_ reviews: [FSRSReview]) { self.reviews = reviews }

    /// The review predicted.
    public var current: FSRSReview? { reviews.last }

    /// Reviews on a later day than the one before.
    public var longTermReviewCount: Int { reviews.filter { $0.deltaDays > 0 }.count }

    /// Whether the item can be predicted: a history, and the predicted review on a later day.
    public var isPredictable: Bool { reviews.count >= 2 && (current?.deltaDays ?? 0) > 0 }

    /// The calibration bin fsrs-rs puts the item in: the interval, the number of long-term reviews
    /// and of lapses before, each on a logarithmic scale (fsrs-rs `r_matrix_index`).
    var calibrationBin: BinKey {
        let delta = Double(current?.deltaDays ?? 0)
        let deltaBin = Int((2.48 * pow(3.62, (log(delta) / log(3.62)).rounded(.down)) * 100).rounded())
        let length = Double(longTermReviewCount) + 1
        let lengthBin = Int((1.99 * pow(1.89, (log(length) / log(1.89)).rounded(.down))).rounded())
        let lapses = reviews.dropLast().filter { $0.rating == 1 && $0.deltaDays > 0 }.count
        guard lapses > 0 else { return BinKey(interval: deltaBin, length: lengthBin, lapses: 0) }
        let lapseBin = Int((1.65 * pow(1.73, (log(Double(lapses)) / log(1.73)).rounded(.down))).rounded())
        return BinKey(interval: deltaBin, length: lengthBin, lapses: lapseBin)
    }

    struct BinKey: Hashable { var interval: Int, length: Int, lapses: Int }
}

/// How well FSRS parameters predict a review history, as fsrs-rs measures it: the log loss of the
/// predicted recall of each item's last review, and RMSE over calibration bins, both weighted by
/// recency (an item's weight 0.25 + 0.75·(k / (n − 1))³, k its place in the order given — oldest
/// first). Computed in single precision, as fsrs-rs does, so that the figures agree with it.
public enum FSRSEvaluation {
    /// The two figures.
    public struct Result: Sendable, Equatable {
        public var logLoss: Double
        public var rmseBins: Double
    }

    /// Why an evaluation has no figure.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noItems
        case notPredictable(index: Int)
        case notFinite

        public var description: String {
            switch self {
            case .noItems: "there is no review to predict: no card was reviewed again on a later day"
            case .notPredictable(let index): "item \(index + 1) cannot be predicted (no history, or its last review the same day)"
            case .notFinite: "the parameters give no finite prediction for this history"
            }
        }
    }

    /// The weight of the `k`-th of `count` items (oldest first): 0.25 + 0.75·(k / (count − 1))³.
    static func recencyWeight(_ k: Int, of count: Int) -> Float {
        0.25 + 0.75 * pow(Float(k) / Float(max(1, count - 1)), 3)
    }

    /// The figures for `items` (in time order) under `parameters` (21 FSRS-6 weights).
    public static func evaluate(_ items: [FSRSItem], parameters: FSRSParameters) throws(Failure) -> Result {
        guard !items.isEmpty else { throw .noItems }
        let model = FSRSModel(parameters.values.map { Float($0) })
        var loss: Float = 0, weightSum: Float = 0
        var bins: [FSRSItem.BinKey: (predicted: Float, actual: Float, count: Float, weight: Float)] = [:]
        for (k, item) in items.enumerated() {
            guard item.isPredictable, let current = item.current else { throw .notPredictable(index: k) }
            let weight = recencyWeight(k, of: items.count)
            let state = model.state(after: item.reviews.dropLast())
            let p = model.retrievability(days: Float(current.deltaDays), stability: state.stability)
            let y: Float = current.rating > 1 ? 1 : 0
            loss += (y * log(p) + (1 - y) * log(1 - p)) * weight
            weightSum += weight
            var bin = bins[item.calibrationBin] ?? (0, 0, 0, 0)
            bin.predicted += p
            bin.actual += y
            bin.count += 1
            bin.weight += weight
            bins[item.calibrationBin] = bin
        }
        let logLoss = -loss / weightSum
        var squares: Float = 0, weights: Float = 0
        for bin in bins.values {
            let difference = bin.predicted / bin.count - bin.actual / bin.count
            squares += difference * difference * bin.weight
            weights += bin.weight
        }
        let rmse = (squares / weights).squareRoot()
        guard logLoss.isFinite, rmse.isFinite else { throw .notFinite }
        return Result(logLoss: Double(logLoss), rmseBins: Double(rmse))
    }
}
