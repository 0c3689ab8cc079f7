import ArgumentParser
import QuireInterchange

extension Quire {
    /// `quire export csv OUT [QUERY]`.
    struct ExportCSV: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Cards as CSV, a row each.",
            discussion: """
                Columns: ID, Deck, Kind, Variant, Front, Back, Text (a cloze's whole text), Tags, State, \
                Due, Interval, Stability, Difficulty, Reps, Lapses, Suspended, Path, Line. Sides are \
                Markdown. RFC 4180: commas, CRLF, quotes where needed.

                Example: quire export csv cards.csv deck:Spanish
                """)

        @OptionGroup var export: CardExportOptions

        func run() throws {
            try export.export { cards, _, _ in CardExport.csv(cards) }
        }
    }
}
