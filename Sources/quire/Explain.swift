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
            discussion: """
                With a language model (the one `quire model install llm` installs, started for the command; \
                or --llm URL), it also explains the card in a few sentences from those passages, each sentence \
                checked against them as `ask` checks its answers and cited; what no passage supports is left \
                out (--no-llm: none).

                Example: quire explain 7k2m9xq4v1ab
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: "How many passages of other notes.") var related = 3
        @Flag(help: "Print the explanation as JSON.") var json = false
        @OptionGroup var model: LanguageModelOptions
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
            let search = try? SearchContext(loaded)
            if related > 0, let search {
                hits = ((try? search.index.related(toNote: note.path, lines: found.lines, encoder: search.encoder, limit: related + 1)) ?? [])
                    .filter { $0.path != note.path }.prefix(related).map { $0 }
            }
            // Phrased by the language model, when there is one, from the same passages.
            var explained: Answer?
            if let search, let session = try model.open() {
                defer { session.close() }
                do {
                    explained = try search.search.explanation(of: found, in: note, context: context, related: hits,
                                                              model: LocalLanguageModel(chat: session.chat))
                } catch { Output.error("quire: warning: \(TerminalText.visible(error.description))") }
            }
            if json {
                Output.line(JSONValue.object([
                    ("card", .string(found.id.rawValue)), ("path", .string(note.path)), ("line", .int(found.lines.lowerBound)),
                    ("heading_path", .array(found.headingPath.map(JSONValue.string))), ("front", .string(found.front)), ("back", .string(found.back)),
                    ("source_line", .optional(context.line)), ("context", .string(context.text)),
                    ("related", .array(hits.map { .object(SearchContext.fields(of: $0) + [("snippet", .string(Search.plain($0.snippet)))]) })),
                    ("explanation", .array((explained?.sentences ?? []).map { sentence in
                        .object([("text", .string(sentence.text)),
                                 ("source", .object(explained.map { SearchContext.fields(of: $0.sources[sentence.source - 1]) } ?? []))])
                    })),
                    ("phrased_by_model", .bool(explained?.found == true)),
                ]).serialized(pretty: true))
                return try loaded.finish()
            }
            Self.show(found, in: note, context: context, related: hits)
            if let explained, explained.found {
                Output.line("")
                Output.line("Explained by the language model (each sentence checked against these passages):")
                for sentence in explained.sentences { Output.line("  " + Ask.rendered(sentence.text) + " [\(sentence.source)]") }
                for (k, hit) in explained.sources.enumerated() { Output.line("  [\(k + 1)] " + Ask.citation(hit)) }
            }
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
