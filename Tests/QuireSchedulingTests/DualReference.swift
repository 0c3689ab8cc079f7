import Foundation
@testable import QuireScheduling

/// A number with its derivatives by the 21 FSRS weights (forward-mode automatic differentiation), the
/// independent check of the optimizer's hand-written reverse mode: the memory model run with these
/// gives the loss with its gradient.
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


/// The weighted log loss of `sequences` summed, its gradient summed, and the weights' sum, by forward mode.
func forwardModeSums(_ sequences: ArraySlice<FSRSOptimizer.Sequence>, w: [Float]) -> (loss: Float, gradient: SIMD32<Float>, weightSum: Float) {
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

