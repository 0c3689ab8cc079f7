import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireIndex
import QuireSupport

extension Quire {
    /// `quire decks`.
    struct Decks: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decks",
            abstract: "Show the deck tree with note, card, new, learning and due counts (sub-decks included).",
            discussion: "Example: quire decks --json")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let loaded = try LoadedVault(options)
            let tree = loaded.index.deckTree(now: options.now, dayEnd: try loaded.dayEnd(at: options.now))
            if listing.json {
                Output.line(JSONValue.array(tree.map(JSONRepresentation.deck)).serialized(pretty: true))
                return try loaded.finish()
            }
            // A tree: each deck under its parent by its own name (--json has the full paths).
            var rows: [[String]] = []
            func add(_ node: DeckNode, prefix: String, last: Bool, top: Bool) {
                let c = node.counts
                let name = top ? node.path.description : prefix + (last ? "└─ " : "├─ ") + (node.path.components.last ?? "")
                rows.append([name, String(c.notes), String(c.cards), String(c.new), String(c.learning), String(c.due), String(c.suspended)])
                let inner = top ? "" : prefix + (last ? "   " : "│  ")
                for (i, child) in node.children.enumerated() {
                    add(child, prefix: inner, last: i == node.children.count - 1, top: false)
                }
            }
            for node in tree { add(node, prefix: "", last: true, top: true) }
            Table.print(rows, header: ["DECK", "NOTES", "CARDS", "NEW", "LEARNING", "DUE", "SUSPENDED"], tabs: false,
                        rightAligned: [1, 2, 3, 4, 5, 6])
            try loaded.finish()
        }
    }
}
