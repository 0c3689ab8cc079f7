import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireIndex
import QuireSupport

extension Quire {
    /// `quire list [QUERY]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the cards (or notes) matching a query.",
            discussion: """
                Plain output has one card per line: ID, state, due, location, front — separated by tabs \
                when piped, aligned on a terminal. See docs/QUERIES.md for queries and docs/JSON.md for --json.

                Example: quire list deck:Biology is:due --json
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Flag(help: "List notes instead of cards.")
        var notes = false
        @Flag(help: "Print only the number of matches.")
        var count = false
        @Argument(parsing: .allUnrecognized, help: "A query, e.g. deck:Biology tag:exam is:due.", completion: .custom(QueryCompletion.words))
        var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
        }

        func run() throws {
            let q = try options.query(query)
            let loaded = try LoadedVault(options)
            let index = loaded.index
            let now = options.now
            let dayEnd = try loaded.dayEnd(at: now)
            if notes {
                Self.listNotes(index.notes(matching: q, now: now, dayEnd: dayEnd), of: index, count: count, json: listing.json)
                return try loaded.finish()
            }
            if count {
                Output.line(String(index.cardCount(matching: q, now: now, dayEnd: dayEnd)))
                return try loaded.finish()
            }
            let found = index.cards(matching: q, now: now, dayEnd: dayEnd)
            if listing.json {
                Output.line(JSONValue.array(found.map { loc in
                    JSONRepresentation.card(index.card(at: loc), in: index.notes[loc.note])
                }).serialized(pretty: true))
            } else {
                let rows = found.map { loc -> [String] in
                    let note = index.notes[loc.note]
                    let card = index.card(at: loc)
                    return [card.id.rawValue, card.state.rawValue, card.schedule?.due?.description ?? "-",
                            "\(note.path):\(card.lines.lowerBound)", Table.oneLine(card.front)]
                }
                Table.print(rows, tabs: !Output.isTerminal, width: Output.isTerminal ? Output.width : nil)
            }
            try loaded.finish()
        }

        /// The notes found: their number, their JSON, or a table of path, deck, cards and title.
        static func listNotes(_ found: [Int], of index: VaultIndex, count: Bool, json: Bool) {
            if count {
                Output.line(String(found.count))
            } else if json {
                Output.line(JSONValue.array(found.map { JSONRepresentation.note(index.notes[$0]) }).serialized(pretty: true))
            } else {
                let rows = found.map { i -> [String] in
                    let n = index.notes[i]
                    return [n.path, n.deck.description, String(n.cards.count), n.title]
                }
                Table.print(rows, tabs: !Output.isTerminal)
            }
        }
    }
}
