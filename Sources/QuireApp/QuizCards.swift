import QuireIndex
import QuireModel
import QuireQuiz
import QuireReview

/// The cards a quiz asks and those that lend their answers as wrong options, for any front end:
/// every card of the vault but suspended ones and archived notes' lends; the query chooses those
/// asked; each carries the answers typed wrongly for it before (the log's `typed=`, the five most
/// recent).
public struct QuizCards {
    public var pool: [QuizItem] = []
    public var asked: [QuizItem] = []
    /// The note each card is in (to record an answer).
    public var paths: [CardID: String] = [:]

    /// Answers typed wrongly kept for a card.
    static let typedKept = 5

    public init(_ context: StudyContext, query: Query?) {
        var typedBefore: [CardID: [String]] = [:]
        for event in context.loaded.vault.reviewLog().events.reversed() where event.action.word == "grade" {
            if let typed = event.field("typed"), (typedBefore[event.card]?.count ?? 0) < Self.typedKept {
                typedBefore[event.card, default: []].append(typed)
            }
        }
        let now = context.now, dayEnd = context.dayEnd
        for note in context.loaded.index.notes where !note.archived {
            for card in note.cards where card.schedule?.suspended != true {
                let item = QuizItem(card, deck: note.deck, wrongAnswers: typedBefore[card.id] ?? [])
                pool.append(item)
                paths[card.id] = note.path
                if query?.matches(card: card, in: note, now: now, dayEnd: dayEnd) ?? true { asked.append(item) }
            }
        }
    }
}
