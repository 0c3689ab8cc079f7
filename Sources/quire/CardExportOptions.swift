import QuireTerminal
import ArgumentParser
import QuireApp
import QuireIndex
import QuireInterchange
import QuireModel
import QuireSupport

/// What `quire export csv` and `quire export json` share: where to write, which cards, and the
/// writing.
struct CardExportOptions: ParsableArguments {
    @OptionGroup var options: VaultOptions
    @Argument(help: "The file to write (replaced atomically), or - for standard output.") var out: String
    @Argument(help: "Only the cards this query selects (docs/QUERIES.md).") var query: [String] = []

    /// Writes the selected cards as `render` makes them.
    func export(_ render: ([(card: Card, note: Note)], VaultIndex, _ dayEnd: Timestamp) -> String) throws {
        let q = try options.query(query)
        let loaded = try LoadedVault(options)
        let index = loaded.index
        let dayEnd = try loaded.dayEnd(at: options.now)
        let cards = index.cards(matching: q, now: options.now, dayEnd: dayEnd).map { (card: index.card(at: $0), note: index.notes[$0.note]) }
        let text = render(cards, index, dayEnd)
        if out == "-" {
            Output.write(text)
        } else {
            try OutputFile.write(Array(text.utf8), to: out, what: "export")
            Output.line("Exported \(Plural.counted(cards.count, "card")) to \(out).")
        }
        try loaded.finish()
    }
}
