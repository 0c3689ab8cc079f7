import QuireModel
import QuireScheduling
import QuireReview

/// What the review log says about the user's studying: reviews per study day, streaks, and each
/// card's record (for `quire today`'s priorities and the session results).
///
/// Pure: the log's events, the local UTC offset at any instant, and the rollover hour go in.
public struct StudyStats: Sendable {
    /// One card's record.
    public struct CardRecord: Sendable, Equatable {
        /// Grades that count (undone ones left out), since the last reset.
        public var reviews = 0
        /// Of those, answers other than Again.
        public var correct = 0
        public var firstReview: Timestamp?
        public var lastReview: Timestamp?

        /// Correct answers as a fraction of reviews; nil before the first review.
        public var accuracy: Double? { reviews == 0 ? nil : Double(correct) / Double(reviews) }
    }

    /// Grades per study day.
    public private(set) var reviewsByDay: [Day: Int] = [:]
    /// Cards graded for the first time (since a reset), per study day.
    public private(set) var newByDay: [Day: Int] = [:]
    /// Each graded card's record.
    public private(set) var cards: [CardID: CardRecord] = [:]
    /// The mean logged answer time (`ms=`), if any grade has one.
    public private(set) var averageAnswerMilliseconds: Int?

    /// Reads the history.
    ///
    /// - Parameters:
    ///   - history: the ordered log without undone events.
    ///   - calendar: the vault's study days.
    public init(history: ReviewHistory, calendar: StudyCalendar) {
        var totalMs = 0, timed = 0
        for (card, events) in history.events {
            var record = CardRecord()
            for event in events {
                switch event.action {
                case .reset:
                    record = CardRecord()
                case .grade(let rating):
                    let day = calendar.day(containing: event.time)
                    reviewsByDay[day, default: 0] += 1
                    if record.reviews == 0 { newByDay[day, default: 0] += 1 }
                    record.reviews += 1
                    if rating != .again { record.correct += 1 }
                    if record.firstReview == nil { record.firstReview = event.time }
                    record.lastReview = event.time
                    if let ms = event.field("ms").flatMap(Int.init), ms >= 0, ms < 3_600_000 {
                        totalMs += ms
                        timed += 1
                    }
                default:
                    break
                }
            }
            if record.reviews > 0 { cards[card] = record }
        }
        averageAnswerMilliseconds = timed == 0 ? nil : totalMs / timed
    }

    /// A time span as the session results, `quire stats` and the report print it: seconds under a
    /// minute, then minutes, then hours and minutes.
    public static func duration(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// Adds one grade made in this process (a session's answers, before the log is read again).
    public mutating func add(_ card: CardID, rating: Rating, at time: Timestamp, day: Day) {
        var record = cards[card] ?? CardRecord()
        reviewsByDay[day, default: 0] += 1
        if record.reviews == 0 { newByDay[day, default: 0] += 1 }
        record.reviews += 1
        if rating != .again { record.correct += 1 }
        if record.firstReview == nil { record.firstReview = time }
        record.lastReview = time
        cards[card] = record
    }

    /// Consecutive study days with at least one review: the run that ends today (or yesterday,
    /// when nothing was studied yet today), and the longest run ever.
    public func streaks(today: Day) -> (current: Int, longest: Int) {
        Self.streaks(reviewsByDay: reviewsByDay, today: today)
    }

    /// ``streaks(today:)`` from reviews per study day.
    public static func streaks(reviewsByDay: [Day: Int], today: Day) -> (current: Int, longest: Int) {
        let days = reviewsByDay.keys.filter { $0 <= today }.sorted()
        var longest = 0, run = 0
        var previous: Day?
        for day in days {
            run = previous.map { $0.advanced(by: 1) == day } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        var current = 0
        var day = reviewsByDay[today] != nil ? today : today.advanced(by: -1)
        while reviewsByDay[day] != nil {
            current += 1
            day = day.advanced(by: -1)
        }
        return (current, longest)
    }
}
