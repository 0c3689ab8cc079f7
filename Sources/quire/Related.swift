import QuireTerminal
import ArgumentParser
import QuireApp
import QuireMarkdown
import QuireSearch
import QuireSupport

extension Quire {
    /// `quire related NOTE|CARD`: the notes nearest a note or a card.
    struct Related: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "related",
            abstract: "List the notes nearest a note or a card: by meaning with the model installed, else by shared words.",
            discussion: "Example: quire related Biology/Cells/organelles.md")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Option(help: "The most notes to list.") var limit = 10
        @Argument(help: "A note's path in the vault, or a card's ID (or a unique prefix of at least 4 characters).") var target: String

        func validate() throws { if limit < 1 { throw ValidationError("--limit must be 1 or more") } }

        func run() throws {
            let loaded = try LoadedVault(options)
            let index = loaded.index
            var path: String
            var lines: ClosedRange<Int>?
            var relative = target
            while relative.hasPrefix("./") { relative.removeFirst(2) }
            if let note = index.notes.first(where: { $0.path == relative || loaded.vault.root + "/" + $0.path == target }) {
                path = note.path
            } else if let loc = index.location(of: target) {
                path = index.notes[loc.note].path
                lines = index.card(at: loc).lines
            } else {
                throw CLIError("no note or card '\(TerminalText.visible(target))' (a note's path in the vault, or a card ID)")
            }
            let context = try SearchContext(loaded)
            let hits: [SearchHit]
            do { hits = try context.index.related(toNote: path, lines: lines, encoder: context.encoder, limit: limit) } catch {
                throw CLIError("\(error)")
            }
            if listing.json {
                Output.line(JSONValue.array(hits.map { hit in
                    .object(SearchContext.fields(of: hit) + [("score", .double(hit.score))])
                }).serialized(pretty: true))
                return try loaded.finish()
            }
            if hits.isEmpty { Output.line("No related notes found.") }
            for (n, hit) in hits.enumerated() { Output.line("\(n + 1). " + Ask.citation(hit)) }
            try loaded.finish()
        }
    }
}
