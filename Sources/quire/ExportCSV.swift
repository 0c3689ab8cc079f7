import QuireTerminal
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
                Markdown. RFC 4180: commas, CRLF, quotes where needed. A cell that begins with =, +, -, @, a \
                tab or CR gets a leading ' so that a spreadsheet shows it as text rather than running it as a \
                formula (quire import csv takes the ' off again); --raw writes cells as they are.

                Example: quire export csv cards.csv deck:Spanish
                """)

        @OptionGroup var export: CardExportOptions
        @Flag(help: "Write cells as they are, even those a spreadsheet would take for a formula.")
        var raw = false

        func run() throws {
            try export.export { cards, _, _ in CardExport.csv(cards, raw: raw) }
        }
    }
}
