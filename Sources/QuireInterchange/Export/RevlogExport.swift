import QuireModel
import QuireReview
import QuireScheduling

/// The review log in the FSRS optimizer's CSV form (`quire export revlog`), for fsrs-rs,
/// fsrs-optimizer and other tools that fit FSRS parameters to a history:
/// `card_id,review_time,review_rating,review_state,review_duration`.
///
/// - `card_id`: a whole number per card (1, 2, … in card-ID order); a card reset (`reset`) goes on
///   under a new number, since the optimizer has no reset and what came before no longer counts;
/// - `review_time`: milliseconds since 1970 (UTC);
/// - `review_rating`: 1 Again, 2 Hard, 3 Good, 4 Easy;
/// - `review_state`: the card's state before the answer: 0 new, 1 learning, 2 review,
///   3 relearning (the log replayed with the settings of each answer);
/// - `review_duration`: `ms=` in milliseconds, 0 when not logged.
///
/// Undone answers are not in it (the log is read with the undo rules); suspensions and burials
/// change nothing.
public enum RevlogExport {
    /// The header line's fields.
    public static let header = "card_id,review_time,review_rating,review_state,review_duration"

    /// One answer in the log: the card's number, its ID, the answer and the state before it.
    public struct Record: Sendable {
        public var number: Int
        public var card: CardID
        public var time: Timestamp
        public var rating: Int
        /// 0 new, 1 learning, 2 review, 3 relearning.
        public var state: Int
        public var milliseconds: Int
    }

    /// The CSV text (LF line ends) for the cards `include` admits.
    ///
    /// - Parameter settings: the scheduler settings of a logged event on a card, as
    ///   ``SettingsResolver`` finds them (asked with the log's event for each settings number).
    public static func csv(_ log: StatisticsLog, include: (CardID) -> Bool,
                           settings: (ReviewEvent, CardID) -> SchedulerSettings) -> (text: String, cards: Int, reviews: Int) {
        var out = header + "\n"
        let (records, numbers) = records(log, include: include, settings: settings)
        for r in records { out += "\(r.number),\(r.time.milliseconds),\(r.rating),\(r.state),\(r.milliseconds)\n" }
        return (out, numbers, records.count)
    }

    /// The review history of the cards `include` admits, for the FSRS optimizer: each answer's
    /// card number, time and rating (``FSRSHistory/Row``), and the card each number stands for.
    public static func history(_ log: StatisticsLog, include: (CardID) -> Bool,
                               settings: (ReviewEvent, CardID) -> SchedulerSettings) -> (rows: [FSRSHistory.Row], cards: [Int: CardID]) {
        let records = records(log, include: include, settings: settings).records
        var cards: [Int: CardID] = [:]
        for r in records { cards[r.number] = r.card }
        return (records.map { FSRSHistory.Row(card: $0.number, time: $0.time, rating: $0.rating) }, cards)
    }

    /// The answers in the log of the cards `include` admits, and how many card numbers were given.
    public static func records(_ log: StatisticsLog, include: (CardID) -> Bool,
                               settings: (ReviewEvent, CardID) -> SchedulerSettings) -> (records: [Record], numbers: Int) {
        var out: [Record] = []
        var number = 0
        for k in log.cards.indices where include(log.cards[k]) {
            let card = log.cards[k]
            number += 1
            var state: SchedulingState?
            var key: Int?
            var eventSettings = SchedulerSettings()
            for event in log.events(ofCard: k) {
                if key != event.settings {
                    key = event.settings
                    eventSettings = settings(log.settingsEvents[event.settings], card)
                }
                switch event.action {
                case .grade(let rating):
                    let before = state?.state ?? .new
                    let code = switch before {
                    case .new: 0
                    case .learning: 1
                    case .review: 2
                    case .relearning: 3
                    }
                    let duration = event.milliseconds.map { $0 >= 0 && $0 < 3_600_000 ? $0 : 0 } ?? 0
                    out.append(Record(number: number, card: card, time: event.time, rating: rating.rawValue, state: code, milliseconds: duration))
                case .reset:
                    number += 1
                default:
                    break
                }
                state = ReviewTransition.apply(event.action, to: state, at: event.time, card: card, settings: eventSettings,
                                               set: event.setState.map { log.setStates[$0] })
            }
        }
        return (out, number)
    }
}
