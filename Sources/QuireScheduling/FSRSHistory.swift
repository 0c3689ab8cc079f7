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

    /// Each card's reviews counted in study days (`day` gives the study day of an instant), with its
    /// predicted reviews — those on a later day than the one before — as (index, time); in card
    /// order (a dictionary's order changes from run to run, and the fit must not).
    static func cards(_ rows: [Row], day: (Timestamp) -> Int) -> [(card: Int, reviews: [FSRSReview], predicted: [(index: Int, time: Timestamp)])] {
        var byCard: [Int: [Row]] = [:]
        for row in rows where (1...4).contains(row.rating) { byCard[row.card, default: []].append(row) }
        return byCard.sorted(by: { $0.key < $1.key }).map { card, rows in
            var reviews: [FSRSReview] = []
            var predicted: [(index: Int, time: Timestamp)] = []
            var lastDay: Int?
            for row in rows.sorted(by: { $0.time < $1.time }) {
                let d = day(row.time)
                let delta = lastDay.map { max(0, d - $0) } ?? 0
                reviews.append(FSRSReview(rating: row.rating, deltaDays: delta))
                lastDay = d
                if reviews.count >= 2, delta > 0 { predicted.append((reviews.count - 1, row.time)) }
            }
            return (card, reviews, predicted)
        }
    }

    /// The predicted reviews of ``cards(_:day:)`` in the order items take: by time, then card.
    static func predictions(_ cards: [(card: Int, reviews: [FSRSReview], predicted: [(index: Int, time: Timestamp)])])
        -> [(time: Timestamp, card: Int, position: Int, index: Int)] {
        var out: [(time: Timestamp, card: Int, position: Int, index: Int)] = []
        for (position, card) in cards.enumerated() {
            for p in card.predicted { out.append((p.time, card.card, position, p.index)) }
        }
        return out.sorted { ($0.time, $0.card) < ($1.time, $1.card) }
    }

    /// The items of `rows`; `day` gives the study day of an instant.
    public static func items(_ rows: [Row], day: (Timestamp) -> Int) -> [FSRSItem] {
        let cards = cards(rows, day: day)
        return predictions(cards).map { FSRSItem(Array(cards[$0.position].reviews.prefix($0.index + 1))) }
    }

    /// The same history as whole card sequences for the optimizer: each card's reviews once, its
    /// predicted reviews marked with the weight their item has in ``items(_:day:)``'s order.
    public static func sequences(_ rows: [Row], day: (Timestamp) -> Int) -> [FSRSOptimizer.Sequence] {
        let cards = cards(rows, day: day)
        var sequences = cards.map { FSRSOptimizer.Sequence(reviews: $0.reviews, predicted: []) }
        let ordered = predictions(cards)
        for (k, p) in ordered.enumerated() {
            sequences[p.position].predicted.append((p.index, FSRSEvaluation.recencyWeight(k, of: ordered.count)))
        }
        return sequences.filter { !$0.predicted.isEmpty }
    }
}
