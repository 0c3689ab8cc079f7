import Foundation
import QuireSupport

/// Fits the 21 FSRS-6 weights to a review history by minimising the recency-weighted log loss of
/// its predictions (the figure ``FSRSEvaluation`` reports), as fsrs-rs trains: from the current
/// weights, Adam in mini-batches over a few epochs, every weight kept within its bounds. The memory
/// model runs forward once per card over all its reviews and back once for the derivatives
/// (reverse mode), the cards shared among the cores.
public enum FSRSOptimizer {
    /// A card's reviews, and which of them are predicted and with what weight.
    public struct Sequence: Sendable {
        public var reviews: [FSRSReview]
        /// Index of a predicted review in `reviews`, with its recency weight.
        public var predicted: [(index: Int, weight: Float)]
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

    /// The weights fitted to `sequences` (``FSRSHistory/sequences(_:day:)``), starting from
    /// `start`, as fsrs-rs trains: `epochs` passes over the cards in an order drawn from a fixed
    /// seed, in mini-batches of about `batchSize` predictions, one Adam step each (learning rate
    /// 0.04 annealed by a cosine over all the steps), every weight within its bounds; the weights
    /// with the lowest loss over the whole history at an epoch's end are kept. `progress` hears
    /// each epoch (done, total).
    public static func fit(_ sequences: [Sequence], start: FSRSParameters = .fsrs6Defaults, epochs: Int = 5, batchSize: Int = 512,
                           progress: (Int, Int) -> Void = { _, _ in }) -> FSRSParameters {
        var w = start.values.map { Float($0) }
        let bounds = FSRSParameters.bounds.map { (Float($0.lowerBound), Float($0.upperBound)) }
        var m = SIMD32<Float>.zero, v = SIMD32<Float>.zero
        let beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8, rate: Float = 0.04
        func wholeLoss(_ w: [Float]) -> Float {
            let s = parallelSums(sequences[...], w: w)
            return s.weightSum > 0 ? s.loss / s.weightSum : .infinity
        }
        var best = (loss: wholeLoss(w), w: w)
        let predictions = sequences.reduce(0) { $0 + $1.predicted.count }
        let batchesPerEpoch = max(1, (predictions + batchSize - 1) / batchSize)
        let totalSteps = epochs * batchesPerEpoch
        var step = 0
        var seed: UInt64 = 2023
        var order = Array(sequences.indices)
        for epoch in 1...max(1, epochs) {
            // A fixed shuffle (Fisher–Yates from a linear congruential generator).
            for k in stride(from: order.count - 1, to: 0, by: -1) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                order.swapAt(k, Int((seed >> 33) % UInt64(k + 1)))
            }
            var position = 0
            while position < order.count {
                var batch: [Sequence] = []
                var count = 0
                while position < order.count, count < batchSize {
                    batch.append(sequences[order[position]])
                    count += sequences[order[position]].predicted.count
                    position += 1
                }
                let s = parallelSums(batch[...], w: w)
                guard s.weightSum > 0 else { continue }
                let g = s.gradient / s.weightSum
                step += 1
                m = m * beta1 + g * (1 - beta1)
                v = v * beta2 + g * g * (1 - beta2)
                let mHat = m / (1 - Foundation.pow(beta1, Float(step))), vHat = v / (1 - Foundation.pow(beta2, Float(step)))
                let lr = rate * 0.5 * (1 + Foundation.cos(Float.pi * Float(min(step, totalSteps) - 1) / Float(max(1, totalSteps))))
                for k in 0..<21 where mHat[k].isFinite && vHat[k].isFinite {
                    w[k] -= lr * mHat[k] / (vHat[k].squareRoot() + epsilon)
                    w[k] = min(max(w[k], bounds[k].0), bounds[k].1)
                }
            }
            let loss = wholeLoss(w)
            if loss.isFinite, loss < best.loss { best = (loss, w) }
            progress(epoch, epochs)
        }
        // Back in double precision within the bounds (a bound in single precision can lie a hair outside).
        let values = best.w.enumerated().map { k, x in min(max(Double(x), FSRSParameters.bounds[k].lowerBound), FSRSParameters.bounds[k].upperBound) }
        return (try? FSRSParameters(values)) ?? start
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
