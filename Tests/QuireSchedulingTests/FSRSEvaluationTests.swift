import Foundation
import Testing
import QuireModel
@testable import QuireScheduling

/// Quire's evaluation of FSRS parameters against fsrs-rs-python's on the same items: log loss and
/// RMSE(bins) within 1e-3, for the defaults and for other parameters.
@Suite struct FSRSEvaluationTests {
    /// Review histories of `cards` cards drawn from a seeded generator: each card's items (its
    /// history up to each review on a later day), in card order.
    static func items(cards: Int, seed: UInt64) -> [FSRSItem] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var items: [FSRSItem] = []
        for _ in 0..<cards {
            var reviews = [FSRSReview(rating: Int(next() % 4) + 1, deltaDays: 0)]
            for _ in 0..<(Int(next() % 10) + 1) {
                let sameDay = next() % 5 == 0
                let delta = sameDay ? 0 : Int(next() % 60) + 1
                let rating = next() % 6 == 0 ? 1 : Int(next() % 3) + 2
                reviews.append(FSRSReview(rating: rating, deltaDays: delta))
                let item = FSRSItem(reviews)
                if item.isPredictable { items.append(item) }
            }
        }
        return items
    }

    static func reference(_ items: [FSRSItem], _ parameters: [[Double]]) throws -> [[String: Double]] {
        let input: [String: Any] = ["items": items.map { $0.reviews.map { [$0.rating, $0.deltaDays] } }, "parameters": parameters]
        return try #require(try oracle("fsrs_evaluate.py", input) as? [[String: Double]])
    }

    @Test func agreesWithFSRSRS() throws {
        let items = Self.items(cards: 400, seed: 7)
        #expect(items.count > 1000)
        var other = FSRSParameters.fsrs6Defaults.values
        for k in other.indices { other[k] = min(max(other[k] * (k % 2 == 0 ? 1.3 : 0.8), FSRSParameters.bounds[k].lowerBound), FSRSParameters.bounds[k].upperBound) }
        let sets = [FSRSParameters.fsrs6Defaults.values, other]
        let reference = try Self.reference(items, sets)
        for (values, expected) in zip(sets, reference) {
            let result = try FSRSEvaluation.evaluate(items, parameters: try FSRSParameters(values))
            #expect(abs(result.logLoss - (expected["log_loss"] ?? 0)) < 1e-3, "\(result) vs \(expected)")
            #expect(abs(result.rmseBins - (expected["rmse_bins"] ?? 0)) < 1e-3, "\(result) vs \(expected)")
        }
    }

    @Test func unpredictableItemsAreRefused() {
        #expect(throws: FSRSEvaluation.Failure.noItems) { try FSRSEvaluation.evaluate([], parameters: .fsrs6Defaults) }
        let sameDay = FSRSItem([FSRSReview(rating: 3, deltaDays: 0), FSRSReview(rating: 3, deltaDays: 0)])
        #expect(throws: FSRSEvaluation.Failure.notPredictable(index: 0)) { try FSRSEvaluation.evaluate([sameDay], parameters: .fsrs6Defaults) }
    }

    /// The AUC against its definition (every recalled–forgotten pair, ties half), weighted and
    /// not, with many ties; nil with one outcome only.
    @Test func aucIsTheShareOfPairsInOrder() {
        var state: UInt64 = 9
        func next(_ n: UInt64) -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (state >> 33) % n
        }
        let p = (0..<300).map { _ in Float(next(20)) / 20 }
        let recalled = p.map { next(100) < UInt64($0 * 100) }
        for weights in [[Float](repeating: 1, count: 300), (0..<300).map { _ in Float(next(10) + 1) / 4 }] {
            var area = 0.0, pairs = 0.0
            for i in p.indices where recalled[i] {
                for j in p.indices where !recalled[j] {
                    let w = Double(weights[i]) * Double(weights[j])
                    pairs += w
                    area += p[i] > p[j] ? w : p[i] == p[j] ? w / 2 : 0
                }
            }
            let auc = FSRSEvaluation.auc(p, recalled: recalled, weights: weights)
            #expect(abs((auc ?? 0) - area / pairs) < 1e-9, "\(String(describing: auc)) vs \(area / pairs)")
        }
        #expect(FSRSEvaluation.auc([0.5, 0.7], recalled: [true, true], weights: [1, 1]) == nil)
    }

    /// The evaluation of a history (each card walked once) equals that of its items (each replayed).
    @Test func historyEvaluationEqualsItemEvaluation() throws {
        let day: Int64 = 86_400_000
        var rows: [FSRSHistory.Row] = []
        for (k, item) in Self.items(cards: 200, seed: 4).enumerated() where k % 3 == 0 {
            var t: Int64 = 0
            for review in item.reviews {
                t += Int64(review.deltaDays) * day + 60_000
                rows.append(FSRSHistory.Row(card: k, time: Timestamp(milliseconds: t), rating: review.rating))
            }
        }
        let history = FSRSHistory(rows) { Int($0.milliseconds / day) }
        #expect(history.predictions.count > 100)
        var other = FSRSParameters.fsrs6Defaults.values
        other[20] = 0.4
        other[8] = 1.2
        for values in [FSRSParameters.fsrs6Defaults.values, other] {
            let parameters = try FSRSParameters(values)
            let walked = try FSRSEvaluation.evaluate(history, parameters: parameters)
            let replayed = try FSRSEvaluation.evaluate(history.items, parameters: parameters)
            #expect(abs(walked.logLoss - replayed.logLoss) < 1e-6 && abs(walked.rmseBins - replayed.rmseBins) < 1e-6)
            #expect(walked.auc == replayed.auc)
        }
    }
}

/// Review rows made into items: study days between reviews, one item per later-day review, oldest first.
@Suite struct FSRSHistoryTests {
    @Test func itemsFromRows() {
        let day: Int64 = 86_400_000
        let rows = [
            FSRSHistory.Row(card: 2, time: Timestamp(milliseconds: 5 * day), rating: 3),
            FSRSHistory.Row(card: 1, time: Timestamp(milliseconds: 0), rating: 3),
            FSRSHistory.Row(card: 1, time: Timestamp(milliseconds: 3_600_000), rating: 1),   // the same day
            FSRSHistory.Row(card: 1, time: Timestamp(milliseconds: 2 * day), rating: 3),
            FSRSHistory.Row(card: 2, time: Timestamp(milliseconds: 6 * day), rating: 4),
            FSRSHistory.Row(card: 1, time: Timestamp(milliseconds: 9 * day), rating: 9),      // not a rating: left out
        ]
        let items = FSRSHistory.items(rows) { Int($0.milliseconds / day) }
        #expect(items.map { $0.reviews.map { [$0.rating, $0.deltaDays] } } == [
            [[3, 0], [1, 0], [3, 2]],
            [[3, 0], [4, 1]],
        ])
    }
}
