import QuireIndex
import QuireModel
import QuireScheduling
import QuireStudy

/// The rules a study session follows whatever draws it (the terminal's screen, the page): which
/// changed card joins it, and what its end counts.
public enum SessionRules {
    /// The section a card of a note changed on disk joins a running session in — a card now due
    /// that is not archived and that the session's `query` selects: a learning card as learning,
    /// another as a review — or nil when it does not join.
    public static func joining(_ card: Card, in note: Note, now: Timestamp, dayEnd: Timestamp, query: Query?) -> StudyPlan.Section? {
        guard !note.archived, let s = card.schedule, s.isDue(at: now, dayEnd: dayEnd),
              query?.matches(card: card, in: note, now: now, dayEnd: dayEnd) ?? true else { return nil }
        let learning = s.flow == .learning || (s.flow == nil && (s.state == .learning || s.state == .relearning))
        return learning ? .learning : .reviewing
    }

    /// A session's end in figures: its results, and the streak with its answers counted in — a
    /// cram that recorded nothing is no study day's.
    public struct Outcome: Sendable {
        public var results: SessionResults
        public var streak: (current: Int, longest: Int)
    }

    /// The end of the session `controller` ran, on study day `today`, `stats` the log's before it.
    public static func outcome(of controller: ReviewController, stats: StudyStats, today: Day) -> Outcome {
        var stats = stats
        for answer in controller.session.answers where controller.recordsAnswers {
            stats.add(answer.entry.card, rating: answer.rating, at: answer.time, day: today)
        }
        return Outcome(results: controller.session.results, streak: stats.streaks(today: today))
    }
}
