import Foundation

/// What fsrs-rs does before gradient descent (its `prepare_training_data` and
/// `initialize_stability_parameters`), done the same way so that a fit starts from where the
/// reference starts: the outlier filter, and the four initial stabilities fitted to how well each
/// first answer was recalled at its first interval.
enum FSRSPretraining {
    /// The items the fit learns from, those its initial stabilities are fitted to, and the count
    /// of first reviews behind each first answer.
    struct Selection {
        /// Predictions kept, in time order.
        var train: [FSRSHistory.Prediction]
        /// First reviews on a later day kept for the initial stabilities (an item whose history is
        /// only the first answer's day).
        var initial: [FSRSHistory.Prediction]
        /// Cards left out as outliers.
        var removedCards: Int
    }

    /// fsrs-rs's outlier filter (dataset.rs, `compute_outlier_analysis`): the first reviews on a
    /// later day are grouped by first answer and interval; for each first answer, the smallest
    /// groups (then the shortest intervals) go while fewer than max(20, 5 %) of them have gone,
    /// and a group that would pass that share stays only with 6 items or more and an interval of
    /// at most 100 days (365 after Easy). A card whose first answer and first interval were
    /// removed leaves the training set with all its items.
    static func select(_ history: FSRSHistory, _ predictions: [FSRSHistory.Prediction]) -> Selection {
        var groups: [Int: [Int: [FSRSHistory.Prediction]]] = [:]
        for p in predictions where history.cards[p.card].predicted.first == p.index {
            let card = history.cards[p.card]
            groups[card.reviews[0].rating, default: [:]][card.reviews[p.index].deltaDays, default: []].append(p)
        }
        var removed: Set<Key> = []
        var initial: [FSRSHistory.Prediction] = []
        for rating in groups.keys.sorted() {
            let subgroups = (groups[rating] ?? [:]).sorted { ($0.value.count, $0.key) < ($1.value.count, $1.key) }
            let total = subgroups.reduce(0) { $0 + $1.value.count }
            let threshold = max(20, total / 20)
            var gone = 0
            for (interval, items) in subgroups {
                if gone + items.count >= threshold {
                    if items.count >= 6, interval <= (rating != 4 ? 100 : 365) {
                        initial += items
                    } else {
                        removed.insert(Key(rating: rating, interval: interval))
                    }
                } else {
                    gone += items.count
                    removed.insert(Key(rating: rating, interval: interval))
                }
            }
        }
        func kept(_ card: FSRSHistory.Card) -> Bool {
            guard let first = card.predicted.first else { return false }
            return !removed.contains(Key(rating: card.reviews[0].rating, interval: card.reviews[first].deltaDays))
        }
        let train = predictions.filter { kept(history.cards[$0.card]) }
        let removedCards = Set(predictions.map(\.card)).filter { !kept(history.cards[$0]) }.count
        return Selection(train: train, initial: initial, removedCards: removedCards)
    }

    struct Key: Hashable { var rating: Int, interval: Int }

    /// The initial stabilities (w0–w3) and the count of first reviews behind each first answer,
    /// fitted as fsrs-rs fits them (parameter_initialization.rs): for each first answer, the
    /// stability whose forgetting curve (with the default decay) best predicts the recall at each
    /// first interval — the recall smoothed toward `averageRecall` as one more review, a pull of
    /// |s − default| / 16 toward the default — found by a ternary search over 0.001–100; then
    /// ``smoothAndFill(_:counts:)``. Nil without any first review.
    static func initialStabilities(_ history: FSRSHistory, initial: [FSRSHistory.Prediction], averageRecall: Float)
        -> (stabilities: [Float], counts: [Int: Int])? {
        var groups: [Int: [Int: (recalled: Int, count: Int)]] = [:]
        for p in initial {
            let card = history.cards[p.card], review = card.reviews[p.index]
            var g = groups[card.reviews[0].rating, default: [:]][review.deltaDays, default: (0, 0)]
            g.count += 1
            if review.rating > 1 { g.recalled += 1 }
            groups[card.reviews[0].rating, default: [:]][review.deltaDays] = g
        }
        let defaults = FSRSParameters.fsrs6Defaults.values.map { Double(Float($0)) }
        let decay = -defaults[20], factor = pow(0.9, 1 / decay) - 1
        var found: [Int: Float] = [:], counts: [Int: Int] = [:]
        for (rating, byInterval) in groups {
            let points = byInterval.map { (t: Double($0.key), recall: Double($0.value.recalled) / Double($0.value.count), count: Double($0.value.count)) }
            counts[rating] = byInterval.values.reduce(0) { $0 + $1.count }
            func loss(_ s: Double) -> Double {
                var total = abs(s - defaults[rating - 1]) / 16
                for point in points {
                    let smoothed = (point.recall * point.count + Double(averageRecall)) / (point.count + 1)
                    let r = pow(point.t / s * factor + 1, decay)
                    total -= point.count * (smoothed * log(r) + (1 - smoothed) * log(1 - r))
                }
                return total
            }
            var low = 0.001, high = 100.0, best = defaults[rating - 1], rounds = 0
            while high - low > Double.ulpOfOne, rounds < 1000 {
                rounds += 1
                let m1 = low + (high - low) / 3, m2 = high - (high - low) / 3
                if loss(m1) < loss(m2) { high = m2 } else { low = m1 }
                best = (high + low) / 2
            }
            found[rating] = Float(best)
        }
        guard let filled = smoothAndFill(found, counts: counts) else { return nil }
        return (filled, counts)
    }

    /// fsrs-rs's `smooth_and_fill`: initial stabilities made to grow with the answer (the one with
    /// more first reviews wins a disagreement), the missing ones filled from the others by fixed
    /// ratios, each within 0.001–100. Nil without any.
    static func smoothAndFill(_ stabilities: [Int: Float], counts: [Int: Int]) -> [Float]? {
        var rs = stabilities.filter { counts[$0.key] != nil }
        for (a, b) in [(1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)] {
            guard let x = rs[a], let y = rs[b], x > y else { continue }
            if (counts[a] ?? 0) > (counts[b] ?? 0) { rs[b] = x } else { rs[a] = y }
        }
        let w1: Float = 0.41, w2: Float = 0.54
        let defaults = FSRSParameters.fsrs6Defaults.values.prefix(4).map { Float($0) }
        var r1 = rs[1], r2 = rs[2], r3 = rs[3], r4 = rs[4]
        func p(_ x: Float, _ y: Float) -> Float { pow(x, y) }
        switch rs.count {
        case 0:
            return nil
        case 1:
            guard let (k, value) = rs.first else { return nil }
            let f = value / defaults[k - 1]
            return defaults.map { min(max($0 * f, 0.001), 100) }.sorted()
        case 2:
            switch (r1, r2, r3, r4) {
            case (nil, nil, let r3?, let r4?):
                let x = p(r3, 1 / (1 - w2)) * p(r4, 1 - 1 / (1 - w2))
                r2 = x
                r1 = p(x, 1 / w1) * p(r3, 1 - 1 / w1)
            case (nil, let r2?, nil, let r4?):
                let x = p(r2, 1 - w2) * p(r4, w2)
                r3 = x
                r1 = p(r2, 1 / w1) * p(x, 1 - 1 / w1)
            case (nil, let r2?, let r3?, nil):
                r4 = p(r2, 1 - 1 / w2) * p(r3, 1 / w2)
                r1 = p(r2, 1 / w1) * p(r3, 1 - 1 / w1)
            case (let r1?, nil, nil, let r4?):
                let den = (w1 + w2).addingProduct(w1, -w2)
                r2 = p(r1, w1 / den) * p(r4, 1 - w1 / den)
                r3 = p(r1, 1 - w2 / den) * p(r4, w2 / den)
            case (let r1?, nil, let r3?, nil):
                let x = p(r1, w1) * p(r3, 1 - w1)
                r2 = x
                r4 = p(x, 1 - 1 / w2) * p(r3, 1 / w2)
            case (let r1?, let r2?, nil, nil):
                let x = p(r1, 1 - 1 / (1 - w1)) * p(r2, 1 / (1 - w1))
                r3 = x
                r4 = p(r2, 1 - 1 / w2) * p(x, 1 / w2)
            default:
                return nil
            }
        case 3:
            if r1 == nil, let r2, let r3 { r1 = p(r2, 1 / w1) * p(r3, 1 - 1 / w1) }
            if r2 == nil, let r1, let r3 { r2 = p(r1, w1) * p(r3, 1 - w1) }
            if r3 == nil, let r2, let r4 { r3 = p(r2, 1 - w2) * p(r4, w2) }
            if r4 == nil, let r2, let r3 { r4 = p(r2, 1 - 1 / w2) * p(r3, 1 / w2) }
        default:
            break
        }
        guard let r1, let r2, let r3, let r4 else { return nil }
        return [r1, r2, r3, r4].map { min(max($0, 0.001), 100) }
    }
}
