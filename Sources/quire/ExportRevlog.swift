import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireInterchange
import QuireModel
import QuireReview

extension Quire {
    /// `quire export revlog OUT [QUERY]`.
    struct ExportRevlog: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revlog",
            abstract: "The review history in the FSRS optimizer's CSV form.",
            discussion: """
                card_id,review_time,review_rating,review_state,review_duration: a number per card (a \
                reset card goes on under a new one), the time in milliseconds since 1970, the rating \
                1–4, the state before the answer (0 new, 1 learning, 2 review, 3 relearning) and the \
                answer's duration in milliseconds (0 when not logged). Undone answers are left out.

                Example: quire export revlog revlog.csv
                """)

        @OptionGroup var export: CardExportOptions

        func run() throws {
            let q = try export.options.query(export.query)
            let context = try StudyContext(export.options, readLog: false)
            let decks = context.decks(of: context.loaded.index.cards(matching: q, now: context.now, dayEnd: context.dayEnd))
            let log = context.loaded.vault.statisticsLog()
            let result = RevlogExport.csv(log, include: { decks[$0] != nil }, settings: context.eventSettings(decks: decks))
            if export.out == "-" {
                Output.write(result.text)
            } else {
                try OutputFile.write(Array(result.text.utf8), to: export.out, what: "export")
                Output.line("Exported \(Plural.counted(result.reviews, "review")) of \(Plural.counted(decks.count, "card")) to \(export.out).")
            }
            try context.loaded.finish()
        }
    }
}
