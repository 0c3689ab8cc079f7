import Foundation

/// The FSRS-6 memory model as fsrs-rs trains and evaluates it (its `step` and `forward_reviews`),
/// in single precision so that figures agree with it: the first review sets the initial state, a
/// review on a later day updates stability by the recall or the lapse formula, a review the same
/// day by the short-term one.
struct FSRSModel {
    static let minimumStability: Float = 0.001, maximumStability: Float = 36_500
    static let minimumDifficulty: Float = 1, maximumDifficulty: Float = 10

    /// The 21 weights.
    let w: [Float]
    /// The forgetting curve's exponent (−w20) and factor (0.9^(1/decay) − 1).
    let decay: Float
    let factor: Float
    /// d factor / d decay.
    let factorByDecay: Float
    let minS = minimumStability, maxS = maximumStability
    let minD = minimumDifficulty, maxD = maximumDifficulty

    struct State { var stability: Float, difficulty: Float }

    init(_ w: [Float]) {
        self.w = w
        decay = -w[20]
        let e = exp(log(Float(0.9)) / decay)
        factor = e - 1
        factorByDecay = -e * log(Float(0.9)) / (decay * decay)
    }

    /// The probability of recall `days` after a review that left `stability`.
    func retrievability(days: Float, stability: Float) -> Float {
        pow(days / stability * factor + 1, decay)
    }

    func initialDifficulty(_ rating: Int) -> Float { w[4] - exp(w[5] * Float(rating - 1)) + 1 }

    /// The state a card's first review leaves (a manual change (0): the least stability and difficulty).
    func initialState(_ rating: Int) -> State {
        guard rating != 0 else { return State(stability: minS, difficulty: minD) }
        let g = min(max(rating, 1), 4)
        return State(stability: min(max(w[g - 1], minS), maxS), difficulty: min(max(initialDifficulty(g), minD), maxD))
    }

    /// The state after `reviews` (a card's history).
    func state(after reviews: ArraySlice<FSRSReview>) -> State {
        guard let first = reviews.first else { return State(stability: 0, difficulty: 0) }
        var state = initialState(first.rating)
        for review in reviews.dropFirst() {
            state = next(review, state, retrievability(days: Float(review.deltaDays), stability: state.stability))
        }
        return state
    }

    /// The state after `review`, from `state` and the recall `r` at the review, within bounds.
    func next(_ review: FSRSReview, _ state: State, _ r: Float) -> State {
        let (s, d) = next(review, state.stability, state.difficulty, r)
        return State(stability: min(max(s, minS), maxS), difficulty: review.rating == 0 ? d : min(max(d, minD), maxD))
    }

    /// The new stability and difficulty (before their bounds) after `review` from stability
    /// `s`, difficulty `d` and recall `r` (fsrs-rs's step; a manual change keeps the state).
    func next(_ review: FSRSReview, _ s: Float, _ d: Float, _ r: Float) -> (Float, Float) {
        guard review.rating != 0 else { return (s, d) }
        let rating = Float(review.rating)
        let newS: Float
        if review.deltaDays == 0 {
            let sinc = exp(w[17] * (w[18] + rating - 3)) * pow(s, -w[19])
            newS = s * (review.rating >= 2 ? max(sinc, 1) : sinc)
        } else if review.rating == 1 {
            let fail = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp((1 - r) * w[14])
            newS = min(fail, s / exp(w[17] * w[18]))
        } else {
            let hard: Float = review.rating == 2 ? w[15] : 1, easy: Float = review.rating == 4 ? w[16] : 1
            newS = s * (exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp((1 - r) * w[10]) - 1) * hard * easy + 1)
        }
        let delta = -w[6] * (rating - 3)
        let newD = d + (10 - d) * delta / 9
        return (newS, w[7] * (initialDifficulty(4) - newD) + newD)
    }
}
