import QuireTerminal
import ArgumentParser
import QuireInterchange

extension Quire {
    /// `quire export json OUT [QUERY]`.
    struct ExportJSON: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "json",
            abstract: "Every note with its cards, and the decks, as one JSON document (docs/JSON.md, \"Export\").",
            discussion: "Example: quire export json cards.json tag:exam")

        @OptionGroup var export: CardExportOptions

        func run() throws {
            try export.export { cards, index, dayEnd in
                CardExport.json(cards, decks: index.deckTree(now: export.options.now, dayEnd: dayEnd)).serialized(pretty: true) + "\n"
            }
        }
    }
}
