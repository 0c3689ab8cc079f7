/// What happened to a card, as one line of the review log (FORMAT.md §6).
public enum ReviewAction: Hashable, Sendable {
    case grade(Rating)
    case undo(of: Timestamp)
    case suspend, unsuspend
    case bury(until: Timestamp)
    case reset
    case promote, demote, deactivate

    /// Whether the action is a grade.
    public static func isGrade(_ action: ReviewAction) -> Bool {
        if case .grade = action { return true }
        return false
    }

    /// The event word in the log.
    public var word: String {
        switch self {
        case .grade: "grade"
        case .undo: "undo"
        case .suspend: "suspend"
        case .unsuspend: "unsuspend"
        case .bury: "bury"
        case .reset: "reset"
        case .promote: "promote"
        case .demote: "demote"
        case .deactivate: "deactivate"
        }
    }
}

/// One event of the review log.
public struct ReviewEvent: Hashable, Sendable {
    public var time: Timestamp
    public var card: CardID
    public var action: ReviewAction
    /// Extra `key=value` fields (`sched`, `ms`, `path`, and any the reader did not know), in order.
    public var fields: [(key: String, value: String)]

    /// Creates an event.
    public init(time: Timestamp, card: CardID, action: ReviewAction, fields: [(key: String, value: String)] = []) {
        self.time = time
        self.card = card
        self.action = action
        self.fields = fields
    }

    /// The value of a field, if present.
    public func field(_ key: String) -> String? { fields.first { $0.key == key }?.value }

    public static func == (a: ReviewEvent, b: ReviewEvent) -> Bool {
        a.time == b.time && a.card == b.card && a.action == b.action
            && a.fields.elementsEqual(b.fields) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into h: inout Hasher) {
        h.combine(time); h.combine(card); h.combine(action)
    }
}
