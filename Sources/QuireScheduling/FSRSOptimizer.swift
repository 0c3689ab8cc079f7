import Foundation
import QuireSupport

/// Fits the 21 FSRS-6 weights to a review history by minimising the recency-weighted log loss of
/// its predictions (the figure ``FSRSEvaluation`` reports), the way fsrs-rs's `compute_parameters`
/// does (see ``fit(_:predictions:epochs:batchSize:progress:)``), and measures a fit on reviews it
/// has not seen (``crossValidate(_:current:epochs:)``). The memory model runs forward once per card
/// over all its reviews and back once for the derivatives (reverse mode, where fsrs-rs replays
/// each item's history anew), the cards shared among the cores.
public enum FSRSOptimizer {
    /// A card's reviews, and which of them are predicted and with what weight.
    struct Sequence: Sendable {
        var reviews: [FSRSReview]
        /// Index of a predicted review in `reviews`, with its recency weight.
        var predicted: [(index: Int, weight: Float)]
    }

    /// The weighted log loss of `sequences` under `w`, and its gradient.
    static func lossAndGradient(_ sequences: [Sequence], w: [Float]) -> (loss: Float, gradient: SIMD32<Float>) {
        let s = sums(sequences[...], w: w)
        guard s.weightSum > 0 else { return (0, .zero) }
        return (s.loss / s.weightSum, s.gradient / s.weightSum)
    }

    /// The weighted log loss of `sequences` summed, its gradient by the 21 weights summed, and the
    /// weights' sum. Reverse-mode differentiation written out: each card's reviews are run forward
    /// once through the memory model (``FSRSModel``'s formulas), keeping the state before each
    /// review, then walked back from the last review carrying the derivatives of the loss by the
    /// stability and difficulty, each review adding its formulas' partial derivatives by the weights.
    static func sums(_ sequences: ArraySlice<Sequence>, w: [Float]) -> Sums {
        var total = Sums()
        var tape = Tape()
        let model = FSRSModel(w)
        for sequence in sequences {
            model.add(sequence, into: &total, tape: &tape)
        }
        total.gradient[20] = -(total.decayAdjoint + total.factorAdjoint * model.factorByDecay)
        return total
    }

    /// The state before each review of a card and the facts the backward walk needs, kept from the
    /// forward run (reused from card to card).
    struct Tape {
        var stability: [Float] = []
        var difficulty: [Float] = []
        var recall: [Float] = []
        /// Whether the new stability and difficulty were within their bounds (else their derivative is 0).
        var stabilityInside: [Bool] = []
        var difficultyInside: [Bool] = []

        mutating func clear() {
            stability.removeAll(keepingCapacity: true)
            difficulty.removeAll(keepingCapacity: true)
            recall.removeAll(keepingCapacity: true)
            stabilityInside.removeAll(keepingCapacity: true)
            difficultyInside.removeAll(keepingCapacity: true)
        }
    }

    /// The sums of ``sums(_:w:)`` over `sequences`, the work shared by every core.
    static func parallelSums(_ sequences: ArraySlice<Sequence>, w: [Float]) -> Sums {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, sequences.count / 16))
        guard parts > 1 else { return sums(sequences, w: w) }
        let size = (sequences.count + parts - 1) / parts
        let slots = ResultSlots<Sums>(count: parts)
        inParallelChunks(of: parts, chunk: 1, concurrency: parts) { range in
            for k in range {
                let low = sequences.startIndex + k * size, high = min(sequences.endIndex, low + size)
                if low < high { slots[k] = sums(sequences[low..<high], w: w) }
            }
            return true
        }
        let results = (0..<parts).compactMap { slots.take($0) }
        return results.reduce(Sums(), +)
    }

    /// A part's sums.
    struct Sums: Sendable {
        var loss: Float = 0
        /// By the weights (the 21 first lanes).
        var gradient = SIMD32<Float>.zero
        var weightSum: Float = 0
        /// By the decay and by the factor of the forgetting curve, before they are made the last weight's.
        var decayAdjoint: Float = 0
        var factorAdjoint: Float = 0

        static func + (a: Sums, b: Sums) -> Sums {
            Sums(loss: a.loss + b.loss, gradient: a.gradient + b.gradient, weightSum: a.weightSum + b.weightSum,
                 decayAdjoint: a.decayAdjoint + b.decayAdjoint, factorAdjoint: a.factorAdjoint + b.factorAdjoint)
        }
    }

    /// Why no fit was made.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Fewer than 8 predictions left after the outlier filter (fsrs-rs's least).
        case tooLittleHistory(predictions: Int)
        /// No card's first review on a later day was left to fit the initial stabilities to.
        case noFirstReviews
        /// The fit went to infinity or NaN.
        case notFinite

        public var description: String {
            switch self {
            case .tooLittleHistory(let n):
                "too little history to fit: \(Plural.counted(n, "prediction")) left after the outlier filter "
                    + "(reviews on a later day than the card's review before); 8 at least, and some hundreds to fit well"
            case .noFirstReviews:
                "too little history to fit: no first answer has 20 cards reviewed again on a later day"
            case .notFinite:
                "the fit did not converge (a weight became infinite)"
            }
        }
    }

    /// Parameters fitted, and what they were fitted on.
    public struct Fit: Sendable {
        public var parameters: FSRSParameters
        /// Predictions learnt from, after the outlier filter.
        public var predictions: Int
        /// Cards the outlier filter left out.
        public var removedCards: Int
        /// Whether only the initial stabilities were fitted (fewer than 64 predictions, or every
        /// one a card's first review on a later day): the other weights are the defaults.
        public var initialOnly: Bool
    }

    /// How far each weight may move from its start before the L2 penalty counts it as far
    /// (fsrs-rs's `PARAMS_STDDEV`, the spread of weights fitted to many collections).
    static let spread: [Float] = [6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33,
                                  0.3, 0.09, 0.16, 0.57, 0.25, 1.03, 0.31, 0.32, 0.14, 0.27]

    /// The bounds in training (fsrs-rs's clipper with one relearning step and short-term
    /// stability on): ``FSRSParameters/bounds``, with w19 at least 0.01.
    static let trainingBounds: [(Float, Float)] = FSRSParameters.bounds.enumerated().map { k, range in
        (k == 19 ? 0.01 : Float(range.lowerBound), Float(range.upperBound))
    }

    /// The longest item trained on, in reviews (fsrs-rs's `max_seq_len`).
    static let longestItem = 256

    /// FSRS-6 parameters fitted to `history` (or to the first `predictions` of it), as fsrs-rs's
    /// `compute_parameters` fits them:
    /// 1. the outlier filter and the initial stabilities (``FSRSPretraining``);
    /// 2. with 64 predictions or more, from those stabilities and the other default weights, Adam
    ///    (β 0.9/0.999, ε 1e-8) over `epochs` passes on the recency-weighted log loss summed over
    ///    each batch, plus an L2 pull toward the start (each weight's squared distance over its
    ///    ``spread`` squared, times the batch's share of the predictions); batches of `batchSize`
    ///    predictions of items of like length (``batches(_:_:size:)``), their order shuffled each
    ///    epoch from a fixed seed;
    ///    the learning rate 0.04 annealed by a cosine each batch; every weight clipped to its
    ///    bounds after each step; the last step's weights kept;
    /// 3. the initial stabilities smoothed and filled again with the first reviews' counts.
    /// `progress` hears each epoch (done, total).
    public static func fit(_ history: FSRSHistory, predictions: [FSRSHistory.Prediction]? = nil, epochs: Int = 5,
                           batchSize: Int = 512, progress: (Int, Int) -> Void = { _, _ in }) throws(Failure) -> Fit {
        let selection = FSRSPretraining.select(history, predictions ?? history.predictions)
        let train = selection.train
        guard train.count >= 8 else { throw .tooLittleHistory(predictions: train.count) }
        let recalled = train.filter { history.cards[$0.card].reviews[$0.index].rating > 1 }.count
        guard let (initial, counts) = FSRSPretraining.initialStabilities(
            history, initial: selection.initial, averageRecall: Float(recalled) / Float(train.count)) else { throw .noFirstReviews }
        let start = initial + FSRSParameters.fsrs6Defaults.values.dropFirst(4).map { Float($0) }
        var w = start
        let initialOnly = train.count < 64 || train.count == selection.initial.count
        if !initialOnly {
            let batches = Self.batches(history, train, size: batchSize)
            let total = batches.reduce(0) { $0 + $1.predictions }
            var m = [Double](repeating: 0, count: 21), v = [Double](repeating: 0, count: 21)
            let beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, rate = 0.04, gamma = 1.0
            let period = Double((total / batchSize + 1) * max(1, epochs))
            var step = 0
            var seed: UInt64 = 2023
            var order = Array(batches.indices)
            for epoch in stride(from: 1, through: epochs, by: 1) {
                for k in stride(from: order.count - 1, to: 0, by: -1) {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    order.swapAt(k, Int((seed >> 33) % UInt64(k + 1)))
                }
                for b in order {
                    let lr = rate * (1 + cos(Double.pi * Double(step) / period)) / 2
                    step += 1
                    let sums = parallelSums(batches[b].sequences[...], w: w)
                    let share = gamma * Double(batches[b].predictions) / Double(total)
                    for i in 0..<21 {
                        let g = Double(sums.gradient[i]) + 2 * Double(w[i] - start[i]) / Double(spread[i] * spread[i]) * share
                        m[i] = beta1 * m[i] + (1 - beta1) * g
                        v[i] = beta2 * v[i] + (1 - beta2) * g * g
                        let mHat = m[i] / (1 - pow(beta1, Double(step))), vHat = v[i] / (1 - pow(beta2, Double(step)))
                        w[i] -= Float(lr * mHat / (vHat.squareRoot() + epsilon))
                        w[i] = min(max(w[i], trainingBounds[i].0), trainingBounds[i].1)
                    }
                }
                progress(epoch, epochs)
            }
            guard w.allSatisfy(\.isFinite) else { throw .notFinite }
            var trained: [Int: Float] = [:]
            for rating in 1...4 { trained[rating] = w[rating - 1] }
            guard let smoothed = FSRSPretraining.smoothAndFill(trained, counts: counts) else { throw .noFirstReviews }
            w.replaceSubrange(0..<4, with: smoothed)
        }
        // Back in double precision within the bounds (a bound in single precision can lie a hair outside).
        let values = w.enumerated().map { k, x in min(max(Double(x), FSRSParameters.bounds[k].lowerBound), FSRSParameters.bounds[k].upperBound) }
        guard let parameters = try? FSRSParameters(values) else { throw .notFinite }
        return Fit(parameters: parameters, predictions: train.count, removedCards: selection.removedCards, initialOnly: initialOnly)
    }

    /// Figures of parameters on reviews they were not fitted to.
    public struct Validation: Sendable {
        /// The parameters fitted on the reviews before each fold.
        public var fitted: FSRSEvaluation.Result
        /// The parameters given (the current ones) on the same reviews.
        public var current: FSRSEvaluation.Result
        /// Reviews predicted.
        public var tested: Int
    }

    /// Time-series cross-validation, as fsrs-rs's `evaluate_with_time_series_splits`: the
    /// predictions in time order cut into six parts; for each of the last five, parameters are
    /// fitted (``fit(_:predictions:epochs:batchSize:progress:)``) on every prediction before it and
    /// predict it; the five parts' figures are pooled, each prediction weighted 1. Beside them, the
    /// `current` parameters' figures on the same predictions. `progress` hears each fold.
    public static func crossValidate(_ history: FSRSHistory, current: FSRSParameters, epochs: Int = 5,
                                     progress: (Int, Int) -> Void = { _, _ in }) throws(Failure) -> Validation {
        let n = history.predictions.count, part = n / 6
        guard part > 0 else { throw .tooLittleHistory(predictions: n) }
        var tested: [FSRSHistory.Prediction] = [], fitted: [Float] = [], given: [Float] = []
        for fold in 0..<5 {
            let before = Array(history.predictions.prefix((fold + 1) * part))
            let after = Array(history.predictions[((fold + 1) * part)..<(fold == 4 ? n : (fold + 2) * part)])
            let fit = try fit(history, predictions: before, epochs: epochs)
            fitted += FSRSEvaluation.predict(history, after, parameters: fit.parameters)
            given += FSRSEvaluation.predict(history, after, parameters: current)
            tested += after
            progress(fold + 1, 5)
        }
        let outcomes = FSRSEvaluation.Outcomes(history, tested), ones = [Float](repeating: 1, count: tested.count)
        do {
            return Validation(fitted: try FSRSEvaluation.figures(outcomes, predictions: fitted, weights: ones),
                              current: try FSRSEvaluation.figures(outcomes, predictions: given, weights: ones), tested: tested.count)
        } catch { throw .notFinite }
    }

    /// A batch: the cards of its predictions, and how many predictions it holds.
    struct Batch {
        var sequences: [Sequence] = []
        var predictions = 0
    }

    /// The training batches, as fsrs-rs makes them when given no card ids (the way Anki calls
    /// it): the predictions (of items of at most ``longestItem`` reviews) with their recency
    /// weights by place in `train`, stably sorted by the length of their item, cut into batches of
    /// `size`; within a batch, each card's predictions share one walk through its reviews.
    static func batches(_ history: FSRSHistory, _ train: [FSRSHistory.Prediction], size: Int) -> [Batch] {
        let items = train.enumerated().filter { $0.element.index < longestItem }
            .map { (prediction: $0.element, weight: FSRSEvaluation.recencyWeight($0.offset, of: train.count)) }
            .enumerated().sorted { ($0.element.prediction.index, $0.offset) < ($1.element.prediction.index, $1.offset) }.map(\.element)
        var batches: [Batch] = []
        var start = 0
        while start < items.count {
            let chunk = items[start..<min(items.count, start + size)]
            var byCard: [Int: [(index: Int, weight: Float)]] = [:]
            for item in chunk { byCard[item.prediction.card, default: []].append((item.prediction.index, item.weight)) }
            var batch = Batch(predictions: chunk.count)
            for (card, predicted) in byCard.sorted(by: { $0.key < $1.key }) {
                let last = predicted.map(\.index).max() ?? 0
                batch.sequences.append(Sequence(reviews: Array(history.cards[card].reviews.prefix(last + 1)),
                                                predicted: predicted.sorted { $0.index < $1.index }))
            }
            batches.append(batch)
            start += size
        }
        return batches
    }
}

/// The optimizer's backward walk through the memory model.
extension FSRSModel {
    /// Adds the card's loss, gradient and weights to `total`.
    func add(_ sequence: FSRSOptimizer.Sequence, into total: inout FSRSOptimizer.Sums, tape: inout FSRSOptimizer.Tape) {
        let reviews = sequence.reviews
        guard let first = reviews.first else { return }
        tape.clear()
        let firstRating = min(max(first.rating, 1), 4)
        let initial = initialState(first.rating)
        var s = initial.stability, d = initial.difficulty
        // Forward: the state before each review, and the loss of the predicted ones.
        var predicted = 0
        for k in 1..<max(1, reviews.count) {
            let review = reviews[k]
            tape.stability.append(s)
            tape.difficulty.append(d)
            let t = Float(review.deltaDays)
            let r = retrievability(days: t, stability: s)
            tape.recall.append(r)
            if predicted < sequence.predicted.count, sequence.predicted[predicted].index == k {
                let p = min(max(r, 1e-7), 1 - 1e-7)
                total.loss -= sequence.predicted[predicted].weight * (review.rating > 1 ? log(p) : log(1 - p))
                total.weightSum += sequence.predicted[predicted].weight
                predicted += 1
            }
            let (newS, newD) = next(review, s, d, r)
            tape.stabilityInside.append(newS >= minS && newS <= maxS)
            tape.difficultyInside.append(newD >= minD && newD <= maxD)
            s = min(max(newS, minS), maxS)
            d = review.rating == 0 ? newD : min(max(newD, minD), maxD)
        }
        // Backward: the derivatives of the loss by the state after each review, last first.
        var gS: Float = 0, gD: Float = 0
        predicted = sequence.predicted.count - 1
        for k in stride(from: reviews.count - 1, through: 1, by: -1) {
            let review = reviews[k]
            let s = tape.stability[k - 1], d = tape.difficulty[k - 1], r = tape.recall[k - 1]
            var gR: Float = 0
            if predicted >= 0, sequence.predicted[predicted].index == k {
                if r > 1e-7, r < 1 - 1e-7 {
                    gR -= sequence.predicted[predicted].weight * (review.rating > 1 ? 1 / r : -1 / (1 - r))
                }
                predicted -= 1
            }
            if review.rating == 0 { continue }
            let gNewS = tape.stabilityInside[k - 1] ? gS : 0
            let gNewD = tape.difficultyInside[k - 1] ? gD : 0
            (gS, gD) = backward(review, s, d, r, gNewS: gNewS, gNewD: gNewD, gR: gR, into: &total)
        }
        if first.rating != 0 {
            if w[firstRating - 1] >= minS, w[firstRating - 1] <= maxS { total.gradient[firstRating - 1] += gS }
            let d0 = initialDifficulty(firstRating)
            if d0 >= minD, d0 <= maxD {
                total.gradient[4] += gD
                total.gradient[5] -= gD * exp(w[5] * Float(firstRating - 1)) * Float(firstRating - 1)
            }
        }
    }

    /// Given the loss's derivatives by a review's new stability and difficulty (and by its
    /// recall, from the prediction), adds those by the weights to `total` and returns those by
    /// the stability and difficulty before the review.
    func backward(_ review: FSRSReview, _ s: Float, _ d: Float, _ r: Float, gNewS: Float, gNewD: Float, gR: Float,
                  into total: inout FSRSOptimizer.Sums) -> (Float, Float) {
        let rating = Float(review.rating)
        var gS: Float = 0, gD: Float = 0, gR = gR
        if gNewS != 0 {
            if review.deltaDays == 0 {
                let sinc = exp(w[17] * (w[18] + rating - 3)) * pow(s, -w[19])
                if review.rating >= 2, sinc < 1 {
                    gS += gNewS
                } else {
                    let newS = s * sinc
                    gS += gNewS * sinc * (1 - w[19])
                    total.gradient[17] += gNewS * newS * (w[18] + rating - 3)
                    total.gradient[18] += gNewS * newS * w[17]
                    total.gradient[19] -= gNewS * newS * log(s)
                }
            } else if review.rating == 1 {
                let b = pow(d, -w[12]), a = pow(s + 1, w[13]), x = exp((1 - r) * w[14])
                let fail = w[11] * b * (a - 1) * x
                let shrink = exp(w[17] * w[18]), floor = s / shrink
                if fail < floor {
                    total.gradient[11] += gNewS * b * (a - 1) * x
                    gD -= gNewS * fail * w[12] / d
                    total.gradient[12] -= gNewS * fail * log(d)
                    gS += gNewS * w[11] * b * x * w[13] * a / (s + 1)
                    total.gradient[13] += gNewS * w[11] * b * x * a * log(s + 1)
                    gR -= gNewS * fail * w[14]
                    total.gradient[14] += gNewS * fail * (1 - r)
                } else {
                    gS += gNewS / shrink
                    total.gradient[17] -= gNewS * floor * w[18]
                    total.gradient[18] -= gNewS * floor * w[17]
                }
            } else {
                let f = exp(w[8]), g = 11 - d, h = pow(s, -w[9]), x = exp((1 - r) * w[10])
                let hard: Float = review.rating == 2 ? w[15] : 1, easy: Float = review.rating == 4 ? w[16] : 1
                let m = hard * easy
                let bonus = f * g * h * (x - 1) * m
                gS += gNewS * (1 + bonus * (1 - w[9]))
                total.gradient[8] += gNewS * s * bonus
                gD -= gNewS * s * f * h * (x - 1) * m
                total.gradient[9] -= gNewS * s * bonus * log(s)
                gR -= gNewS * s * f * g * h * m * x * w[10]
                total.gradient[10] += gNewS * s * f * g * h * m * x * (1 - r)
                if review.rating == 2 { total.gradient[15] += gNewS * s * f * g * h * (x - 1) * easy }
                if review.rating == 4 { total.gradient[16] += gNewS * s * f * g * h * (x - 1) * hard }
            }
        }
        if gNewD != 0 {
            let delta = -w[6] * (rating - 3)
            let newD = d + (10 - d) * delta / 9
            total.gradient[7] += gNewD * (initialDifficulty(4) - newD)
            total.gradient[4] += gNewD * w[7]
            total.gradient[5] -= gNewD * w[7] * 3 * exp(3 * w[5])
            let gNewD1 = gNewD * (1 - w[7])
            gD += gNewD1 * (1 - delta / 9)
            total.gradient[6] -= gNewD1 * (10 - d) * (rating - 3) / 9
        }
        if gR != 0 {
            let t = Float(review.deltaDays)
            let base = t * factor / s + 1
            let byBase = decay * r / base
            gS -= gR * byBase * t * factor / (s * s)
            total.factorAdjoint += gR * byBase * t / s
            total.decayAdjoint += gR * r * log(base)
        }
        return (gS, gD)
    }
}
