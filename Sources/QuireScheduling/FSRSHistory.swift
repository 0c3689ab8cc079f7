import Foundation
import QuireModel

/// Review logs made into the items the FSRS optimizer learns from and is measured on (fsrs-rs's
/// `FSRSItem`s): each card's reviews in time order, the days between them counted in study days
/// (a review the same study day has 0), and one item per review on a later day than the one
/// before — the card's history up to it. Items are ordered by the time of the review they predict,
/// oldest first (recency weighting counts on it).
public enum FSRSHistory {
    /// One logged answer.
    public struct Row: Sendable, Equatable {
        public var card: Int
        public var time: Timestamp
        /// 1 Again … 4 Easy.
        public var rating: Int

        public init(card: Int, time: Timestamp, rating: Int) {
            self.card = card
            self.time = time
            self.rating = rating
        }
    }

    /// The items of `rows`; `day` gives the study day of an instant.
    public static func items(_ rows: [Row], day: (Timestamp) -> Int) -> [FSRSItem] {
        var byCard: [Int: [Row]] = [:]
        for row in rows where (1...4).contains(row.rating) { byCard[row.card, default: []].append(row) }
        var dated: [(time: Timestamp, card: Int, item: FSRSItem)] = []
        // In card order: a dictionary's order changes from run to run, and the fit must not.
        for (card, reviews) in byCard.sorted(by: { $0.key < $1.key }) {
            let sorted = reviews.sorted { $0.time < $1.time }
            var history: [FSRSReview] = []
            var lastDay: Int?
            for row in sorted {
                let d = day(row.time)
                let delta = lastDay.map { max(0, d - $0) } ?? 0
                history.append(FSRSReview(rating: row.rating, deltaDays: delta))
                lastDay = d
                let item = FSRSItem(history)
                if item.isPredictable { dated.append((row.time, card, item)) }
            }
        }
        return dated.sorted { ($0.time, $0.card) < ($1.time, $1.card) }.map(\.item)
    }

    /// The same history as whole card sequences for the optimizer: each card's reviews once, its
    /// predicted reviews marked with the weight their item has in ``items(_:day:)``'s order.
    public static func sequences(_ rows: [Row], day: (Timestamp) -> Int) -> [FSRSOptimizer.Sequence] {
        var byCard: [Int: [Row]] = [:]
        for row in rows where (1...4).contains(row.rating) { byCard[row.card, default: []].append(row) }
        var sequences: [FSRSOptimizer.Sequence] = []
        var predicted: [(time: Timestamp, card: Int, sequence: Int, index: Int)] = []
        // In card order: a dictionary's order changes from run to run, and the fit must not.
        for (card, reviews) in byCard.sorted(by: { $0.key < $1.key }) {
            var history: [FSRSReview] = []
            var lastDay: Int?
            for row in reviews.sorted(by: { $0.time < $1.time }) {
                let d = day(row.time)
                let delta = lastDay.map { max(0, d - $0) } ?? 0
                history.append(FSRSReview(rating: row.rating, deltaDays: delta))
                lastDay = d
                if history.count >= 2, delta > 0 { predicted.append((row.time, card, sequences.count, history.count - 1)) }
            }
            sequences.append(FSRSOptimizer.Sequence(reviews: history, predicted: []))
        }
        predicted.sort { ($0.time, $0.card) < ($1.time, $1.card) }
        let n = Float(max(1, predicted.count - 1))
        for (k, p) in predicted.enumerated() {
            sequences[p.sequence].predicted.append((p.index, 0.25 + 0.75 * pow(Float(k) / n, 3)))
        }
        return sequences.filter { !$0.predicted.isEmpty }
    }
}
