import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireParsing
import QuireReview

extension Quire {
    /// `quire undo`.
    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo",
            abstract: "Undo this device's last review.",
            discussion: """
                Logs an undo, then restores the card's front matter exactly as it was before the review \
                (or, if the note's front matter changed since, the card's state without that review).

                Example: quire undo
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Print the card's restored state as JSON.")
        var json = false

        func run() throws {
            let now = options.now
            var context = try ReviewContext(options)
            let outcome: ReviewWriter.UndoOutcome
            let writer = context.writer
            do {
                outcome = try writer.undoLast(at: now) { card in
                    let loaded = context.index()
                    guard let loc = loaded.index.location(exactly: card) else { return nil }
                    return loaded.index.notes[loc.note].path
                }
            } catch {
                throw CLIError(error.description)
            }
            if json {
                let note = (try? context.vault.io.read(context.vault.fullPath(outcome.path)).bytes)
                    .flatMap { NoteParser.parse($0, path: outcome.path, syntax: context.vault.cardSyntax().syntax).note }
                if let note, let value = ReviewContext.json(outcome.undone.card, state: outcome.state, in: note) {
                    Output.line(value.serialized(pretty: true))
                }
                return
            }
            let word = if case .grade(let r) = outcome.undone.action { r.name } else { outcome.undone.action.word }
            Output.line("undid \(word) of \(outcome.undone.card) at \(outcome.undone.time) (\(outcome.path)); now \(ReviewContext.summary(outcome.state, now: now))")
        }
    }
}
