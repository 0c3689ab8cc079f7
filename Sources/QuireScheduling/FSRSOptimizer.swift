import Foundation
import QuireSupport

/// A number with its derivatives by the 21 FSRS weights (forward-mode automatic differentiation):
/// the memory model is run once with these, and the loss comes out with its gradient.
struct Dual {
    var value: Float
    var gradient: SIMD32<Float>

    init(_ value: Float, _ gradient: SIMD32<Float> = .zero) {
        self.value = value
        self.gradient = gradient
    }

    /// Weight `k` as a variable.
    static func variable(_ value: Float, _ k: Int) -> Dual {
        var g = SIMD32<Float>.zero
        g[k] = 1
        return Dual(value, g)
    }

    static func + (a: Dual, b: Dual) -> Dual { Dual(a.value + b.value, a.gradient + b.gradient) }
    static func - (a: Dual, b: Dual) -> Dual { Dual(a.value - b.value, a.gradient - b.gradient) }
    static func * (a: Dual, b: Dual) -> Dual { Dual(a.value * b.value, a.gradient * b.value + b.gradient * a.value) }
    static func / (a: Dual, b: Dual) -> Dual {
        Dual(a.value / b.value, (a.gradient * b.value - b.gradient * a.value) / (b.value * b.value))
    }
    static func + (a: Dual, b: Float) -> Dual { Dual(a.value + b, a.gradient) }
    static func - (a: Dual, b: Float) -> Dual { Dual(a.value - b, a.gradient) }
    static func - (a: Float, b: Dual) -> Dual { Dual(a - b.value, -b.gradient) }
    static func * (a: Dual, b: Float) -> Dual { Dual(a.value * b, a.gradient * b) }
    static prefix func - (a: Dual) -> Dual { Dual(-a.value, -a.gradient) }

    func exp() -> Dual {
        let e = Foundation.exp(value)
        return Dual(e, gradient * e)
    }

    func log() -> Dual { Dual(Foundation.log(value), gradient / value) }

    /// `self` to the power `y` (self > 0).
    func pow(_ y: Dual) -> Dual { (y * log()).exp() }

    func pow(_ y: Float) -> Dual {
        let p = Foundation.pow(value, y)
        return Dual(p, gradient * (y * Foundation.pow(value, y - 1)))
    }

    /// Clamped: the bound's derivative (0) outside.
    func clamped(_ low: Float, _ high: Float) -> Dual {
        value < low ? Dual(low) : value > high ? Dual(high) : self
    }
}

/// Fits the 21 FSRS-6 weights to a review history by minimising the recency-weighted log loss of
/// its predictions (the figure ``FSRSEvaluation`` reports), as fsrs-rs trains: from the current
/// weights, Adam in mini-batches over a few epochs, every weight kept within its bounds. The memory
/// model runs once per card over all its reviews with the derivatives by every weight carried
/// along (forward mode, no tape), the cards shared among the cores.
public enum FSRSOptimizer {
    /// A card's reviews, and which of them are predicted and with what weight.
    public struct Sequence: Sendable {
        public var reviews: [FSRSReview]
        /// Index of a predicted review in `reviews`, with its recency weight.
        public var predicted: [(index: Int, weight: Float)]
    }

    /// The weighted log loss of `sequences` under `w`, and its gradient.
    static func lossAndGradient(_ sequences: [Sequence], w: [Float]) -> (loss: Float, gradient: SIMD32<Float>) {
        let (loss, gradient, weightSum) = sums(sequences[...], w: w)
        guard weightSum > 0 else { return (0, .zero) }
        return (loss / weightSum, gradient / weightSum)
    }

    /// The weighted log loss of `sequences` summed, its gradient summed, and the weights' sum.
    static func sums(_ sequences: ArraySlice<Sequence>, w: [Float]) -> (loss: Float, gradient: SIMD32<Float>, weightSum: Float) {
        let weights = (0..<21).map { Dual.variable(w[$0], $0) }
        var total = Dual(0)
        var weightSum: Float = 0
        let minS = FSRSModel.minimumStability, maxS = FSRSModel.maximumStability
        let minD = FSRSModel.minimumDifficulty, maxD = FSRSModel.maximumDifficulty
        let decay = -weights[20]
        let factor = ((decay.pow(-1) * Float(Foundation.log(0.9)))).exp() - 1
        func initialD(_ rating: Int) -> Dual { weights[4] - (weights[5] * Float(max(rating, 1) - 1)).exp() + 1 }
        for sequence in sequences {
            guard let first = sequence.reviews.first else { continue }
            var s = first.rating == 0 ? Dual(minS) : weights[min(max(first.rating, 1), 4) - 1].clamped(minS, maxS)
            var d = first.rating == 0 ? Dual(minD) : initialD(first.rating).clamped(minD, maxD)
            var next = 0
            let predicted = sequence.predicted.sorted { $0.index < $1.index }
            for (k, review) in sequence.reviews.enumerated().dropFirst() {
                let lastS = s.clamped(minS, maxS), lastD = d.clamped(minD, maxD)
                let t = Float(review.deltaDays)
                let r = ((lastS.pow(-1) * t) * factor + 1).pow(decay)
                if next < predicted.count, predicted[next].index == k {
                    let y: Float = review.rating > 1 ? 1 : 0
                    let p = r.clamped(1e-7, 1 - 1e-7)
                    let term = y == 1 ? p.log() : (1 - p).log()
                    total = total + term * (-predicted[next].weight)
                    weightSum += predicted[next].weight
                    next += 1
                }
                let rating = Float(review.rating)
                var newS: Dual
                if review.deltaDays == 0 {
                    let sinc = (weights[17] * (weights[18] + (rating - 3))).exp() * lastS.pow(-weights[19])
                    newS = lastS * (rating >= 2 ? (sinc.value < 1 ? Dual(1) : sinc) : sinc)
                } else if review.rating == 1 {
                    let fail = weights[11] * lastD.pow(-weights[12]) * ((lastS + 1).pow(weights[13]) - 1) * ((1 - r) * weights[14]).exp()
                    let floor = lastS / (weights[17] * weights[18]).exp()
                    newS = fail.value < floor.value ? fail : floor
                } else {
                    var bonus = weights[8].exp() * (11 - lastD) * lastS.pow(-weights[9]) * (((1 - r) * weights[10]).exp() - 1)
                    if review.rating == 2 { bonus = bonus * weights[15] }
                    if review.rating == 4 { bonus = bonus * weights[16] }
                    newS = lastS * (bonus + 1)
                }
                let delta = -weights[6] * (rating - 3)
                var newD = lastD + (10 - lastD) * delta * (1.0 / 9)
                newD = (weights[7] * (initialD(4) - newD) + newD).clamped(minD, maxD)
                if review.rating == 0 {
                    newS = lastS
                    newD = lastD
                }
                s = newS.clamped(minS, maxS)
                d = newD
            }
        }
        return (total.value, total.gradient, weightSum)
    }

    /// The sums of ``sums(_:w:)`` over `sequences`, the work shared by every core.
    static func parallelSums(_ sequences: ArraySlice<Sequence>, w: [Float]) -> (loss: Float, gradient: SIMD32<Float>, weightSum: Float) {
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, sequences.count / 16))
        guard parts > 1 else { return sums(sequences, w: w) }
        let size = (sequences.count + parts - 1) / parts
        let slots = ResultSlots<Sums>(count: parts)
        inParallelChunks(of: parts, chunk: 1, concurrency: parts) { range in
            for k in range {
                let low = sequences.startIndex + k * size, high = min(sequences.endIndex, low + size)
                if low < high {
                    let s = sums(sequences[low..<high], w: w)
                    slots[k] = Sums(loss: s.loss, gradient: s.gradient, weightSum: s.weightSum)
                }
            }
            return true
        }
        let results = (0..<parts).compactMap { slots.take($0) }
        return results.reduce((0, .zero, 0)) { ($0.0 + $1.loss, $0.1 + $1.gradient, $0.2 + $1.weightSum) }
    }

    /// A part's sums.
    struct Sums: Sendable {
        var loss: Float
        var gradient: SIMD32<Float>
        var weightSum: Float
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
