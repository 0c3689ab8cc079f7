/// A quiz's score: 10 points a right answer, plus a streak bonus (2 points for each right answer
/// in a row before it, at most 10), and the time taken. A match round's pairs each earn their share
/// of the 10 points.
public struct QuizScore: Sendable, Equatable {
    /// One answered question.
    public struct Answer: Sendable, Equatable {
        public var right: Bool
        public var milliseconds: Int
        public var points: Int
    }

    public private(set) var answers: [Answer] = []
    public private(set) var streak = 0
    public private(set) var longestStreak = 0

    public init() {}

    public var points: Int { answers.reduce(0) { $0 + $1.points } }
    public var right: Int { answers.filter(\.right).count }

    /// Records an answer; returns its points.
    @discardableResult
    public mutating func record(right: Bool, milliseconds: Int) -> Int {
        record(parts: right ? 1 : 0, of: 1, milliseconds: milliseconds)
    }

    /// Records an answer in parts (a match round's pairs), `parts` of `total` right: each right
    /// part earns its share of the 10 points; the streak bonus, and the streak, need all of them.
    @discardableResult
    public mutating func record(parts: Int, of total: Int, milliseconds: Int) -> Int {
        let right = total > 0 && parts >= total
        let share = total > 0 ? (10 * max(0, min(parts, total)) + total / 2) / total : 0
        let points = right ? 10 + min(2 * streak, 10) : share
        streak = right ? streak + 1 : 0
        longestStreak = max(longestStreak, streak)
        answers.append(Answer(right: right, milliseconds: milliseconds, points: points))
        return points
    }
}
