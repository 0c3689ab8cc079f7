import ArgumentParser
import QuireModel
import QuireIndex
import QuireSupport

extension Quire {
    /// `quire decks`.
    struct Decks: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the deck tree with note, card, new, learning and due counts (sub-decks included).")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let loaded = try LoadedVault(options)
            let tree = loaded.index.deckTree(now: options.now)
            if listing.json {
                Output.line(JSONValue.array(tree.map(JSONRepresentation.deck)).serialized(pretty: true))
                return try loaded.finish()
            }
            var rows: [[String]] = []
            func add(_ node: DeckNode) {
                let c = node.counts
                rows.append([node.path.description, String(c.notes), String(c.cards), String(c.new), String(c.learning),
                              String(c.due), String(c.suspended)])
                node.children.forEach(add)
            }
            tree.forEach(add)
            Table.print(rows, header: ["DECK", "NOTES", "CARDS", "NEW", "LEARNING", "DUE", "SUSPENDED"], tabs: false,
                        rightAligned: [1, 2, 3, 4, 5, 6])
            try loaded.finish()
        }
    }
}
