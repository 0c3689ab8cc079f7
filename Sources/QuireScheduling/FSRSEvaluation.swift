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

    /// The calibration bin fsrs-rs puts the item in (its `r_matrix_index`).
    var calibrationBin: BinKey {
        let lapses = reviews.dropLast().filter { $0.rating == 1 && $0.deltaDays > 0 }.count
        return BinKey(delta: current?.deltaDays ?? 0, longTermReviews: longTermReviewCount, lapses: lapses)
    }

    /// A calibration bin: the interval, the number of long-term reviews and of lapses before,
    /// each on a logarithmic scale.
    struct BinKey: Hashable {
        var interval: Int, length: Int, lapses: Int

        init(delta: Int, longTermReviews: Int, lapses: Int) {
            let deltaBin = Int((2.48 * pow(3.62, (log(Double(delta)) / log(3.62)).rounded(.down)) * 100).rounded())
            let length = Double(longTermReviews) + 1
            interval = deltaBin
            self.length = Int((1.99 * pow(1.89, (log(length) / log(1.89)).rounded(.down))).rounded())
            self.lapses = lapses == 0 ? 0 : Int((1.65 * pow(1.73, (log(Double(lapses)) / log(1.73)).rounded(.down))).rounded())
        }
    }
}

/// How well FSRS parameters predict a review history, as fsrs-rs measures it: the log loss of the
/// predicted recall of each item's last review, and RMSE over calibration bins, both weighted by
/// recency (an item's weight 0.25 + 0.75·(k / (n − 1))³, k its place in the order given — oldest
/// first); and the AUC (how often a recalled review was given a higher recall than a forgotten one,
/// weighted alike; fsrs-rs has none, the Python FSRS optimizer reports sklearn's). Computed in
/// single precision, as fsrs-rs does, so that the figures agree with it.
public enum FSRSEvaluation {
    /// The figures.
    public struct Result: Sendable, Equatable {
        public var logLoss: Double
        public var rmseBins: Double
        /// Nil when every review was recalled, or none.
        public var auc: Double?
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
        let p = try predict(items, parameters: parameters)
        return try figures(Outcomes(items), predictions: p, weights: items.indices.map { recencyWeight($0, of: items.count) })
    }

    /// The figures for `history`'s predictions (or the ones given, in their order), each card's
    /// reviews walked once; each weighted by recency, or 1.
    public static func evaluate(_ history: FSRSHistory, predictions: [FSRSHistory.Prediction]? = nil, parameters: FSRSParameters,
                                recencyWeighted: Bool = true) throws(Failure) -> Result {
        let predictions = predictions ?? history.predictions
        let p = predict(history, predictions, parameters: parameters)
        let weights = recencyWeighted ? predictions.indices.map { recencyWeight($0, of: predictions.count) } : [Float](repeating: 1, count: predictions.count)
        return try figures(Outcomes(history, predictions), predictions: p, weights: weights)
    }

    /// The figures for `history`'s predictions, each card's by its own parameters
    /// (`parameters(card id)`: decks may have their own), weighted by recency.
    public static func evaluate(_ history: FSRSHistory, parameters: (Int) -> FSRSParameters) throws(Failure) -> Result {
        var groups: [FSRSParameters: [Int]] = [:]
        for (k, p) in history.predictions.enumerated() { groups[parameters(history.cards[p.card].id), default: []].append(k) }
        var p = [Float](repeating: 0, count: history.predictions.count)
        for (set, positions) in groups {
            for (k, value) in zip(positions, predict(history, positions.map { history.predictions[$0] }, parameters: set)) { p[k] = value }
        }
        let weights = history.predictions.indices.map { recencyWeight($0, of: history.predictions.count) }
        return try figures(Outcomes(history, history.predictions), predictions: p, weights: weights)
    }

    /// What happened at each predicted review, and its calibration bin.
    struct Outcomes {
        var recalled: [Bool] = []
        var bins: [FSRSItem.BinKey] = []

        init(_ items: [FSRSItem]) {
            recalled = items.map { ($0.current?.rating ?? 0) > 1 }
            bins = items.map(\.calibrationBin)
        }

        init(_ history: FSRSHistory, _ predictions: [FSRSHistory.Prediction]) {
            recalled = predictions.map { history.cards[$0.card].reviews[$0.index].rating > 1 }
            bins = [FSRSItem.BinKey](repeating: FSRSItem.BinKey(delta: 1, longTermReviews: 0, lapses: 0), count: predictions.count)
            for (card, wanted) in FSRSEvaluation.byCard(predictions, of: history) {
                let reviews = history.cards[card].reviews
                var longTerm = 0, lapses = 0, next = 0
                for (k, review) in reviews.enumerated() where next < wanted.count {
                    if review.deltaDays > 0 { longTerm += 1 }
                    if wanted[next].index == k {
                        bins[wanted[next].position] = FSRSItem.BinKey(delta: review.deltaDays, longTermReviews: longTerm, lapses: lapses)
                        next += 1
                    }
                    if review.rating == 1, review.deltaDays > 0 { lapses += 1 }
                }
            }
        }
    }

    /// The predictions grouped by card, each card's in review order, with their places (for the
    /// history's own predictions, kept since it was built).
    static func byCard(_ predictions: [FSRSHistory.Prediction], of history: FSRSHistory) -> [Int: [(index: Int, position: Int)]] {
        if predictions == history.predictions {
            var out: [Int: [(index: Int, position: Int)]] = [:]
            out.reserveCapacity(history.cards.count)
            for (c, card) in history.cards.enumerated() where !card.predicted.isEmpty {
                out[c] = zip(card.predicted, history.places[c]).map { (index: $0, position: $1) }
            }
            return out
        }
        var out: [Int: [(index: Int, position: Int)]] = [:]
        for (position, p) in predictions.enumerated() { out[p.card, default: []].append((p.index, position)) }
        return out.mapValues { $0.sorted { $0.index < $1.index } }
    }

    /// The predicted recall of each of `predictions`, each card's reviews walked once.
    static func predict(_ history: FSRSHistory, _ predictions: [FSRSHistory.Prediction], parameters: FSRSParameters) -> [Float] {
        let model = FSRSModel(parameters.values.map { Float($0) })
        var out = [Float](repeating: 0, count: predictions.count)
        for (card, wanted) in byCard(predictions, of: history) {
            let reviews = history.cards[card].reviews
            guard let first = reviews.first else { continue }
            var state = model.initialState(first.rating)
            var next = 0
            for k in 1..<max(1, reviews.count) where next < wanted.count {
                let review = reviews[k]
                let r = model.retrievability(days: Float(review.deltaDays), stability: state.stability)
                if wanted[next].index == k {
                    out[wanted[next].position] = r
                    next += 1
                }
                state = model.next(review, state, r)
            }
        }
        return out
    }

    /// The predicted recall of each item's last review.
    static func predict(_ items: [FSRSItem], parameters: FSRSParameters) throws(Failure) -> [Float] {
        let model = FSRSModel(parameters.values.map { Float($0) })
        var out: [Float] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            guard item.isPredictable, let current = item.current else { throw .notPredictable(index: k) }
            let state = model.state(after: item.reviews.dropLast())
            out.append(model.retrievability(days: Float(current.deltaDays), stability: state.stability))
        }
        return out
    }

    /// The figures of `predictions` of reviews with `outcomes`, each weighted by `weights`.
    static func figures(_ outcomes: Outcomes, predictions: [Float], weights: [Float]) throws(Failure) -> Result {
        guard !predictions.isEmpty else { throw .noItems }
        var loss: Float = 0, weightSum: Float = 0
        var bins: [FSRSItem.BinKey: (predicted: Float, actual: Float, count: Float, weight: Float)] = [:]
        for k in predictions.indices {
            let p = predictions[k], weight = weights[k]
            let y: Float = outcomes.recalled[k] ? 1 : 0
            let key = outcomes.bins[k]
            loss += (y * log(p) + (1 - y) * log(1 - p)) * weight
            weightSum += weight
            var bin = bins[key] ?? (0, 0, 0, 0)
            bin.predicted += p
            bin.actual += y
            bin.count += 1
            bin.weight += weight
            bins[key] = bin
        }
        let logLoss = -loss / weightSum
        var squares: Float = 0, binWeights: Float = 0
        // In a fixed order: a dictionary's changes from run to run, and single-precision sums with it.
        for (_, bin) in bins.sorted(by: { ($0.key.interval, $0.key.length, $0.key.lapses) < ($1.key.interval, $1.key.length, $1.key.lapses) }) {
            let difference = bin.predicted / bin.count - bin.actual / bin.count
            squares += difference * difference * bin.weight
            binWeights += bin.weight
        }
        let rmse = (squares / binWeights).squareRoot()
        guard logLoss.isFinite, rmse.isFinite else { throw .notFinite }
        return Result(logLoss: Double(logLoss), rmseBins: Double(rmse), auc: auc(predictions, recalled: outcomes.recalled, weights: weights))
    }

    /// The weighted probability that a recalled review has a higher prediction than a forgotten
    /// one (ties count half): Mann–Whitney over the predictions sorted once. Nil without both kinds.
    static func auc(_ predictions: [Float], recalled: [Bool], weights: [Float]) -> Double? {
        let order = predictions.indices.sorted { predictions[$0] < predictions[$1] }
        var area = 0.0, forgottenBelow = 0.0, recalledTotal = 0.0, forgottenTotal = 0.0
        var k = 0
        while k < order.count {
            var end = k
            var tiedRecalled = 0.0, tiedForgotten = 0.0
            while end < order.count, predictions[order[end]] == predictions[order[k]] {
                let i = order[end]
                if recalled[i] { tiedRecalled += Double(weights[i]) } else { tiedForgotten += Double(weights[i]) }
                end += 1
            }
            area += tiedRecalled * (forgottenBelow + tiedForgotten / 2)
            forgottenBelow += tiedForgotten
            recalledTotal += tiedRecalled
            forgottenTotal += tiedForgotten
            k = end
        }
        guard recalledTotal > 0, forgottenTotal > 0 else { return nil }
        return area / (recalledTotal * forgottenTotal)
    }
}
