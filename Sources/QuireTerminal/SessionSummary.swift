import QuireApp
import QuireStudy
import QuireSupport

/// The lines shown when a session ends: cards, accuracy, level, time and streaks.
package enum SessionSummary {
    ///
    /// - Parameter inScreen: whether the review screen is still open to take `r` (after it closes,
    ///   the command that goes over the failed cards is named instead).
    package static func lines(_ controller: ReviewController, context: StudyContext, inScreen: Bool = false) -> [String] {
        let outcome = SessionRules.outcome(of: controller, stats: context.stats, today: context.today)
        let results = outcome.results, streak = outcome.streak
        guard results.answers > 0 else {
            return ["Nothing studied. Streak: \(Plural.counted(streak.current, "day")) (longest \(streak.longest))."]
        }
        let percent = Int((results.accuracy * 100).rounded())
        var lines = [
            "Session done: \(Plural.counted(results.cardsStudied, "card")), \(Plural.counted(results.answers, "answer"))",
            "Accuracy: \(percent)% — \(results.level.rawValue)",
            "Time: \(StudyStats.duration(seconds: (results.milliseconds + 500) / 1000))",
            "Streak: \(Plural.counted(streak.current, "day")) (longest \(streak.longest))",
        ]
        if !results.failed.isEmpty {
            let them = results.failed.count == 1 ? "it" : "them"
            let failed = "\(Plural.counted(results.failed.count, "card")) failed"
            if inScreen {
                lines.append(failed + ": press r to go over \(them) again")
            } else if controller.recordsAnswers {
                lines.append(failed + ": 'quire review --failed-today' goes over \(them) again")
            } else {
                lines.append(failed + " (not recorded: a cram without --reschedule)")
            }
        }
        return lines
    }
}
