import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy

/// What a study session's front end may ask of the card it shows, besides a grade and undo —
/// whichever key or button asked it: the terminal's keys (`s`, `b`, `!`, `p`, `P`) and the page's
/// names (`skip`, `bury`, …) map here, and ``ReviewController/perform(_:on:clock:)`` does it and
/// words it once for all of them.
public enum SessionCommand: String, CaseIterable, Sendable {
    /// The card goes to the end of the queue; nothing is recorded.
    case skip
    /// Buried until the study day ends.
    case bury
    case suspend
    /// A StudyFlow card moved up a stage.
    case promote
    /// A StudyFlow card moved down a stage.
    case demote

    /// The terminal's key for it.
    public var key: Character {
        switch self {
        case .skip: "s"
        case .bury: "b"
        case .suspend: "!"
        case .promote: "p"
        case .demote: "P"
        }
    }

    /// The command the terminal's key `key` asks for, nil for any other key.
    public init?(key: Character) {
        guard let command = Self.allCases.first(where: { $0.key == key }) else { return nil }
        self = command
    }
}

/// What a session command did, as every front end says it.
public struct ActionNotice: Sendable, Equatable {
    public var command: SessionCommand
    /// Whether the card left the screen (false when the command was refused for this card).
    public var done: Bool
    /// How the plain review says it: `skipped`, `buried until 2026-11-23T04:00:00Z`, `suspended`, …
    public var phrase: String
    /// How the full screen and the page say it: `Skipped: the card comes back at the end.`, …
    public var message: String
}

extension ReviewController {
    /// Does `command` to `entry`: a skip moves it to the end of the queue, reading no clock; the
    /// others are recorded through the writer at the clock's time, read once. Promoting or
    /// demoting a card no StudyFlow scheduler schedules is refused with the reason, nothing
    /// recorded (``ActionNotice/done`` false); a writer's refusal is thrown.
    public mutating func perform(_ command: SessionCommand, on entry: StudySession.Entry, clock: StudyClock) throws(ReviewError) -> ActionNotice {
        let action: ReviewAction
        switch command {
        case .skip:
            skip(entry)
            return ActionNotice(command: command, done: true, phrase: "skipped", message: "Skipped: the card comes back at the end.")
        case .promote, .demote:
            let kind = settings(for: entry).kind
            guard kind == .flow else {
                let refusal = "p and P promote and demote StudyFlow cards; this card's scheduler is \(kind.rawValue)"
                return ActionNotice(command: command, done: false, phrase: refusal, message: refusal + ".")
            }
            action = command == .promote ? .promote : .demote
        case .bury: action = .bury(until: session.dayEnd)
        case .suspend: action = .suspend
        }
        try apply(action, to: entry, at: clock.now())
        return switch command {
        case .bury: ActionNotice(command: command, done: true, phrase: "buried until \(session.dayEnd)", message: "Buried until tomorrow.")
        case .suspend: ActionNotice(command: command, done: true, phrase: "suspended",
                                    message: "Suspended: 'quire unsuspend' brings it back.")
        default: ActionNotice(command: command, done: true, phrase: command.rawValue + "d", message: command.rawValue.capitalized + "d.")
        }
    }
}
