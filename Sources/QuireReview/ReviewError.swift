import QuireModel
import QuireSystem

/// Why a review, undo or replay could not be recorded. Whenever one is thrown, the note was not
/// changed.
public enum ReviewError: Error, Sendable, CustomStringConvertible {
    /// The note cannot be read as a note; the diagnostic has the location.
    case unreadableNote(Diagnostic)
    /// The card is not in the note (it was edited away or moved).
    case cardNotFound(card: CardID, path: String)
    /// The scheduling line could not be written without changing other bytes.
    case edit(path: String, line: Int, column: Int, message: String)
    /// A file could not be read or written (including a note that changed on disk since it was read).
    case io(FileIOError)
    /// The note was not written, but the review log already had the event and the compensating
    /// `undo` could not be appended either; `quire replay` makes the note match the log.
    case logAheadOfNote(path: String, cause: FileIOError)
    /// The deck grades with 3 buttons and the rating is `hard`.
    case ratingNotOffered(Rating, deck: DeckPath)
    /// `.quire/device` holds something that is not a device ID.
    case invalidDevice(path: String, text: String)
    /// No review of this device is left to undo.
    case nothingToUndo
    /// The session does not write (cramming), so it cannot take this action.
    case notInThisSession(String)
    /// A grade timed before the card's last review.
    case beforeLastReview(card: CardID, last: Timestamp, at: Timestamp)

    public var description: String {
        switch self {
        case .unreadableNote(let d): d.description
        case .cardNotFound(let card, let path): "\(path): card \(card) is not in this note (edited or moved?)"
        case .edit(let path, let line, let column, let message): "\(path):\(line):\(column): error: \(message); nothing written"
        case .io(let e): e.description
        case .logAheadOfNote(let path, let cause):
            "\(cause.description); the review log already has the event for \(path): run 'quire replay' to apply it"
        case .ratingNotOffered(let r, let deck):
            "deck '\(deck)' grades with 3 buttons (again, good, easy); '\(r.name)' is not one of them"
        case .invalidDevice(let path, let text): "\(path): '\(text)' is not a device ID (letters, digits, - and _)"
        case .nothingToUndo: "nothing to undo: this device has no review left that is not undone"
        case .notInThisSession(let why): why
        case .beforeLastReview(let card, let last, let at):
            "card \(card) was last reviewed at \(last), after \(at): a grade cannot come before it (nothing written)"
        }
    }
}
