import QuireModel

/// Review logs made into the items the FSRS optimizer learns from and is measured on (fsrs-rs's
/// `FSRSItem`s): each card's reviews in time order, the days between them counted in study days
/// (a review the same study day has 0), and one item per review on a later day than the one
/// before — the card's history up to it. Items are ordered by the time of the review they predict,
/// oldest first (recency weighting and time-series splits count on it).
public struct FSRSHistory: Sendable {
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

    /// A card's reviews, counted in study days.
    public struct Card: Sendable {
        public var id: Int
        public var reviews: [FSRSReview]
        /// The reviews predicted: those on a later day than the one before (never the first).
        public var predicted: [Int]
    }

    /// A predicted review: card `card` (a position in ``cards``), review `index` of it.
    public struct Prediction: Sendable, Equatable {
        public var card: Int
        public var index: Int
    }

    /// The cards in id order (a dictionary's order changes from run to run; the fit must not).
    public let cards: [Card]
    /// Every predicted review, by time, then card id: the items' order.
    public let predictions: [Prediction]
    /// How many answers were read (ratings 1–4).
    public let reviewCount: Int
    /// For each card, the place in ``predictions`` of each of its predicted reviews.
    let places: [[Int]]

    /// The history of `rows`; `day` gives the study day of an instant.
    public init(_ rows: [Row], day: (Timestamp) -> Int) {
        var byCard: [Int: [Row]] = [:]
        var count = 0
        for row in rows where (1...4).contains(row.rating) {
            byCard[row.card, default: []].append(row)
            count += 1
        }
        var cards: [Card] = []
        var timed: [(time: Timestamp, id: Int, prediction: Prediction)] = []
        for (id, rows) in byCard.sorted(by: { $0.key < $1.key }) {
            var card = Card(id: id, reviews: [], predicted: [])
            var lastDay: Int?
            for row in rows.sorted(by: { $0.time < $1.time }) {
                let d = day(row.time)
                let delta = lastDay.map { max(0, d - $0) } ?? 0
                card.reviews.append(FSRSReview(rating: row.rating, deltaDays: delta))
                lastDay = d
                if card.reviews.count >= 2, delta > 0 {
                    card.predicted.append(card.reviews.count - 1)
                    timed.append((row.time, id, Prediction(card: cards.count, index: card.reviews.count - 1)))
                }
            }
            cards.append(card)
        }
        timed.sort { ($0.time, $0.id) < ($1.time, $1.id) }
        var places = cards.map { [Int](repeating: 0, count: $0.predicted.count) }
        var seen = [Int](repeating: 0, count: cards.count)
        for (k, t) in timed.enumerated() {
            places[t.prediction.card][seen[t.prediction.card]] = k
            seen[t.prediction.card] += 1
        }
        self.cards = cards
        self.places = places
        predictions = timed.map(\.prediction)
        reviewCount = count
    }

    /// The item of a prediction: its card's reviews up to it.
    public func item(_ p: Prediction) -> FSRSItem { FSRSItem(Array(cards[p.card].reviews.prefix(p.index + 1))) }

    /// Every item, oldest first.
    public var items: [FSRSItem] { predictions.map(item) }

    /// The items of `rows`; `day` gives the study day of an instant.
    public static func items(_ rows: [Row], day: (Timestamp) -> Int) -> [FSRSItem] { FSRSHistory(rows, day: day).items }
}
