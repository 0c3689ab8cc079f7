import QuireTerminal
import ArgumentParser
import QuireApp
import QuireGeneration
import QuireMarkdown
import QuireModel
import QuireSearch
import QuireSupport

extension Quire {
    /// `quire explain CARD [--related N] [--json]`.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Show a card with the text it was made from (its section, or the source line a generated card names) and the nearest passages of other notes.",
            discussion: "Example: quire explain 7k2m9xq4v1ab")

        @OptionGroup var options: VaultOptions
        @Option(help: "How many passages of other notes.") var related = 3
        @Flag(help: "Print the explanation as JSON.") var json = false
        @Argument(help: "A card's ID (or a unique prefix of at least 4 characters).") var card: String

        func validate() throws { if related < 0 || related > 20 { throw ValidationError("--related is from 0 to 20") } }

        func run() throws {
            let loaded = try LoadedVault(options)
            let index = loaded.index, vault = loaded.vault
            guard let loc = index.location(of: card) else { throw CLIError("no card '\(TerminalText.visible(card))'") }
            let note = index.notes[loc.note], found = index.card(at: loc)
            let bytes = (try? vault.io.read(try vault.notePath(note.path)).bytes) ?? []
            let context = CardContext.context(of: found, in: note, bytes: bytes)
            var hits: [SearchHit] = []
            if related > 0, let search = try? SearchContext(loaded) {
                hits = ((try? search.index.related(toNote: note.path, lines: found.lines, encoder: search.encoder, limit: related + 1)) ?? [])
                    .filter { $0.path != note.path }.prefix(related).map { $0 }
            }
            if json {
                Output.line(JSONValue.object([
                    ("card", .string(found.id.rawValue)), ("path", .string(note.path)), ("line", .int(found.lines.lowerBound)),
                    ("heading_path", .array(found.headingPath.map(JSONValue.string))), ("front", .string(found.front)), ("back", .string(found.back)),
                    ("source_line", .optional(context.line)), ("context", .string(context.text)),
                    ("related", .array(hits.map { .object(SearchContext.fields(of: $0) + [("snippet", .string(Search.plain($0.snippet)))]) })),
                ]).serialized(pretty: true))
                return try loaded.finish()
            }
            Self.show(found, in: note, context: context, related: hits)
            try loaded.finish()
        }

        /// The card, the text it was made from, and related passages, as the terminal shows them.
        static func show(_ found: Card, in note: Note, context: (line: Int?, text: String), related hits: [SearchHit]) {
            Output.line(TerminalText.visible(note.path) + ":\(found.lines.lowerBound)"
                        + (found.headingPath.isEmpty ? "" : " — " + TerminalText.visible(found.headingPath.joined(separator: " › "))))
            Output.line("")
            Output.line("Q: " + TerminalText.visible(found.front))
            Output.line("A: " + TerminalText.visible(found.back))
            if !context.text.isEmpty {
                Output.line("")
                Output.line("From " + (context.line.map { "line \($0)" } ?? "its section") + ":")
                for line in context.text.split(separator: "\n", omittingEmptySubsequences: false) { Output.line("  " + TerminalText.visible(String(line))) }
            }
            if !hits.isEmpty {
                Output.line("")
                Output.line("Related:")
                for (n, hit) in hits.enumerated() {
                    Output.line("  [\(n + 1)] " + Ask.citation(hit))
                    Output.line("      " + TerminalText.visible(Search.plain(hit.snippet)))
                }
            }
        }
    }
}
