/// A quiz's score: 10 points a right answer, plus a streak bonus (2 points for each right answer
/// in a row before it, at most 10), and the time taken.
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
        let points = right ? 10 + min(2 * streak, 10) : 0
        streak = right ? streak + 1 : 0
        longestStreak = max(longestStreak, streak)
        answers.append(Answer(right: right, milliseconds: milliseconds, points: points))
        return points
    }
}
