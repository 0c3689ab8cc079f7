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
        let w = parameters.values.map { Float($0) }
        var loss: Float = 0, weightSum: Float = 0
        var bins: [FSRSItem.BinKey: (predicted: Float, actual: Float, count: Float, weight: Float)] = [:]
        for (k, item) in items.enumerated() {
            guard item.isPredictable, let current = item.current else { throw .notPredictable(index: k) }
            let weight = recencyWeight(k, of: items.count)
            let state = FSRSModel.forward(item.reviews.dropLast(), w: w)
            let p = FSRSModel.retrievability(w: w, days: Float(current.deltaDays), stability: state.stability)
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

/// The FSRS-6 memory model as fsrs-rs trains it (its `step` and `forward_reviews`), in single
/// precision: a review a later day updates stability by the recall or lapse formula, a review the
/// same day by the short-term one; the first review sets the initial state.
enum FSRSModel {
    static let minimumStability: Float = 0.001, maximumStability: Float = 36_500
    static let minimumDifficulty: Float = 1, maximumDifficulty: Float = 10

    struct State { var stability: Float, difficulty: Float }

    static func retrievability(w: [Float], days: Float, stability: Float) -> Float {
        let decay = -w[20]
        let factor = exp(log(Float(0.9)) / decay) - 1
        return pow(days / stability * factor + 1, decay)
    }

    static func initialStability(_ w: [Float], _ rating: Int) -> Float { w[min(max(rating, 1), 4) - 1] }

    static func initialDifficulty(_ w: [Float], _ rating: Int) -> Float { w[4] - exp(w[5] * Float(max(rating, 1) - 1)) + 1 }

    /// The state after `reviews` (a card's history).
    static func forward(_ reviews: ArraySlice<FSRSReview>, w: [Float]) -> State {
        guard let first = reviews.first else { return State(stability: 0, difficulty: 0) }
        var state: State
        if first.rating == 0 {
            state = State(stability: minimumStability, difficulty: minimumDifficulty)
        } else {
            state = State(stability: clamp(initialStability(w, first.rating), minimumStability, maximumStability),
                          difficulty: clamp(initialDifficulty(w, first.rating), minimumDifficulty, maximumDifficulty))
        }
        for (offset, review) in reviews.dropFirst().enumerated() {
            state = step(w, review, state, nth: offset + 1)
        }
        return state
    }

    static func clamp(_ x: Float, _ low: Float, _ high: Float) -> Float { min(max(x, low), high) }

    static func step(_ w: [Float], _ review: FSRSReview, _ state: State, nth: Int) -> State {
        let lastS = clamp(state.stability, minimumStability, maximumStability)
        let lastD = clamp(state.difficulty, minimumDifficulty, maximumDifficulty)
        let rating = Float(review.rating), deltaT = Float(review.deltaDays)
        let r = retrievability(w: w, days: deltaT, stability: lastS)
        var newS: Float
        if review.deltaDays == 0 {
            let sinc = exp(w[17] * (rating - 3 + w[18])) * pow(lastS, -w[19])
            newS = lastS * (rating >= 2 ? max(sinc, 1) : sinc)
        } else if review.rating == 1 {
            let s = w[11] * pow(lastD, -w[12]) * (pow(lastS + 1, w[13]) - 1) * exp((1 - r) * w[14])
            newS = min(s, lastS / exp(w[17] * w[18]))
        } else {
            let hard: Float = review.rating == 2 ? w[15] : 1, easy: Float = review.rating == 4 ? w[16] : 1
            newS = lastS * (exp(w[8]) * (11 - lastD) * pow(lastS, -w[9]) * (exp((1 - r) * w[10]) - 1) * hard * easy + 1)
        }
        let delta = -w[6] * (rating - 3)
        var newD = lastD + (10 - lastD) * delta / 9
        newD = clamp(w[7] * (initialDifficulty(w, 4) - newD) + newD, minimumDifficulty, maximumDifficulty)
        if nth == 0, state.stability == 0 {
            newS = initialStability(w, review.rating)
            newD = clamp(initialDifficulty(w, review.rating), minimumDifficulty, maximumDifficulty)
        }
        if review.rating == 0 {
            newS = lastS
            newD = lastD
        }
        return State(stability: clamp(newS, minimumStability, maximumStability), difficulty: newD)
    }
}
