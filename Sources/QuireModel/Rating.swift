/// A review answer.
public enum Rating: Int, CaseIterable, Sendable, Codable {
    case again = 1, hard = 2, good = 3, easy = 4

    /// The lower-case name used on the command line and in the log.
    public var name: String {
        switch self {
        case .again: "again"
        case .hard: "hard"
        case .good: "good"
        case .easy: "easy"
        }
    }

    /// Parses a name (`good`) or a number (`3`).
    public init?(name: String) {
        switch name.lowercased() {
        case "again", "1": self = .again
        case "hard", "2": self = .hard
        case "good", "3": self = .good
        case "easy", "4": self = .easy
        default: return nil
        }
    }
}
