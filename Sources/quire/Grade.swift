import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireScheduling
import QuireReview

extension Quire {
    /// `quire grade CARD RATING`.
    struct Grade: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grade",
            abstract: "Grade a card: again, hard, good or easy (or 1–4).",
            discussion: """
                Appends the review to this device's log, then rewrites the card's scheduling line in its \
                note. A note that changed on disk since it was read is not overwritten.

                Example: quire grade 7k2m good
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: "The review time (default: now), e.g. 2026-11-22T09:30:00Z.")
        var at: String?
        @Option(help: "How long the answer took, in milliseconds (logged).")
        var ms: Int?
        @Flag(help: "Print the card's new state as JSON (the fields of 'quire list --json').")
        var json = false
        @Argument(help: "The card's ID, or a unique prefix of at least 4 characters.") var card: String
        @Argument(help: "again, hard, good, easy, or 1–4.") var rating: String

        func validate() throws {
            guard Rating(name: rating) != nil else { throw ValidationError("rating must be again, hard, good, easy or 1–4, not '\(rating)'") }
            if let at, Timestamp(iso8601: at) == nil { throw ValidationError("--at must be a time like 2026-11-22T09:00:00Z") }
            if let ms, ms < 0 { throw ValidationError("--ms cannot be negative") }
        }

        func run() throws {
            guard let rating = Rating(name: rating) else { return }
            let now = at.flatMap { Timestamp(iso8601: $0) } ?? options.now
            var context = try ReviewContext(options)
            let writer = context.writer
            let (id, outcome) = try context.onCard(card) { (id, path, known) throws(ReviewError) in
                (id, try writer.grade(id, rating, inNote: path, at: now, answerMilliseconds: ms, known: known,
                                      followsLastReview: at != nil))
            }
            let after = outcome.changes.last?.after
            if json {
                if let value = ReviewContext.json(id, state: after, in: outcome.note) { Output.line(value.serialized(pretty: true)) }
            } else {
                Output.line("\(id) \(rating.name): \(ReviewContext.summary(after, now: now))")
                if outcome.leeches.contains(id) { Output.line(ReviewContext.leechNotice(after, note: outcome.noteAfter)) }
                if let after, after.flow != nil, StudyFlowScheduler.offersPromotion(after) {
                    Output.line("\(after.streak ?? 0) correct in a row: 'quire promote \(id)' moves it up")
                }
            }
        }
    }
}
