import QuireTerminal
import QuireSupport
import ArgumentParser
import Foundation
import QuireApp
import QuireIndex
import QuireInterchange
import QuireModel
import QuireReview
import QuireSystem

extension Quire {
    /// `quire export anki OUT.apkg [QUERY]`.
    struct ExportAnki: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "anki",
            abstract: "Cards as an Anki package, with their scheduling and review history.",
            discussion: """
                The legacy package format (collection.anki2), which every Anki since 2.1 imports: a \
                "Quire Basic" note per basic card, "Quire Definition" per definition, "Quire Basic \
                (and reversed card)" per reversed pair, "Quire Cloze" per cloze group; sides as HTML \
                with math as \\(…\\) and \\[…\\]; notes dated by their created key; decks and tags; each \
                card's due date, interval, ease, reps, lapses, suspension, burial and FSRS memory \
                state; every answer of the log; the images the sides embed. docs/INTERCHANGE.md.

                Example: quire export anki biology.apkg deck:Biology
                """)

        @OptionGroup var export: CardExportOptions

        func run() throws {
            let q = try export.options.query(export.query)
            let context = try StudyContext(export.options)
            let (bytes, summary): ([UInt8], AnkiExport.Summary)
            do { (bytes, summary) = try context.ankiPackage(q) } catch { throw CLIError(error.description) }
            if export.out == "-" {
                guard !Output.isTerminal else { throw CLIError("an Anki package is binary: give a file name, or send it to a pipe") }
                StandardStreams.write(bytes, to: 1)
            } else {
                try OutputFile.write(bytes, to: export.out, what: "export")
                Output.line("Exported \(Plural.counted(summary.cards, "card")) in \(Plural.counted(summary.notes, "note")), "
                            + "\(Plural.counted(summary.reviews, "review")), \(Plural.counted(summary.media, "media file")) to \(export.out).")
            }
            try context.loaded.finish()
        }
    }
}
