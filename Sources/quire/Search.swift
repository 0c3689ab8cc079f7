import QuireTerminal
import Foundation
import ArgumentParser
import QuireApp
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireSearch
import QuireEmbedding
import QuireSupport
import QuireSystem
import QuireVault

extension Quire {
    /// `quire search WORDS [QUERY-FILTERS] [--cards|--notes] [--json]`.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Search the notes and cards: ranked hits with path:line citations.",
            discussion: """
                Every word is required; word* matches a prefix, "two words" a phrase; accents and \
                case are ignored and English words match their other forms (run, runs, running); \
                Chinese, Japanese and Korean text is found by substring. Words with a colon are \
                query filters (deck:, tag:, path:, is:…, docs/QUERIES.md). The index lives in \
                .quire/cache/search.sqlite and is brought up to date with the notes at each search \
                (only changed notes are read again). With the sentence-embedding model installed \
                (`quire model install`), hits are ranked by meaning as well as by words: a search for \
                "heart attack" finds a note about myocardial infarction.

                Example: quire search mitochondria deck:Biology
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Flag(help: "Only cards.") var cards = false
        @Flag(help: "Only the notes' text (no cards).") var notes = false
        @Option(help: "The most hits to show.") var limit = 20
        @Option(help: ArgumentHelp("How to rank: lexical (words), semantic (meaning) or hybrid (both; the default when the model is installed).",
                                   valueName: "MODE")) var mode: SearchMode?
        @Option(help: ArgumentHelp("Open hit N in $VISUAL or $EDITOR at its line.", valueName: "N")) var open: Int?
        @Argument(help: "The words to find, and query filters.") var words: [String] = []

        func validate() throws {
            if cards && notes { throw ValidationError("--cards and --notes cannot be used together") }
            if limit < 1 { throw ValidationError("--limit must be 1 or more") }
            if let open, open < 1 { throw ValidationError("--open takes a hit's number, 1 or more") }
            if words.allSatisfy({ $0.contains(":") }) { throw ValidationError("give the words to search for") }
        }

        func run() throws {
            let scope: SearchScope = cards ? .cards : notes ? .notes : .everything
            // The search index alone answers when no note changed since it was brought up to
            // date; else the vault is loaded and the index refreshed (the same hits either way).
            let vault = try options.open()
            if !options.noCache,
               let (text, hits) = QuickSearch.search(words, in: vault, mode: mode, scope: scope, limit: limit, clock: Clock.now(),
                                                     notice: SearchContext.say) {
                return try answer(hits, text: text, vault: vault)
            }
            let loaded = LoadedVault(opened: vault, options)
            let context = try SearchContext(loaded, semantic: mode != .lexical)
            let found = try context.search.search(words, mode: mode, scope: scope, limit: limit, now: options.now)
            try answer(found.hits, text: found.text, vault: loaded.vault)
            try loaded.finish()
        }

        /// Opens hit `--open` in the editor, or lists the hits (as JSON with `--json`).
        private func answer(_ kept: [SearchHit], text: String, vault: Vault) throws {
            defer { Output.flush() }
            if let open {
                guard open <= kept.count else { throw CLIError("no hit \(open): \(Plural.counted(kept.count, "hit")) for \(TerminalText.visible(text))") }
                let hit = kept[open - 1]
                let (editor, words) = EditorCommand.command
                let file: String
                do { file = try vault.notePath(hit.path) } catch { throw CLIError(error.description) }
                let status = ChildProcess.runAttached(words + ["+\(hit.lines.lowerBound)", file])
                if status != 0 { throw CLIError("the editor (\(editor)) exited with status \(status)") }
                return
            }
            if listing.json {
                Output.line(JSONValue.array(kept.map { hit in
                    .object(SearchContext.fields(of: hit) + [("snippet", .string(Self.plain(hit.snippet))), ("score", .double(hit.score))])
                }).serialized(pretty: true))
                return
            }
            Self.show(kept, text: text)
        }

        /// The hits as the terminal lists them: place, headings, card, the snippet marked.
        static func show(_ kept: [SearchHit], text: String) {
            if kept.isEmpty { Output.line("No match for \(TerminalText.visible(text)).") }
            for (n, hit) in kept.enumerated() {
                var head = "\(n + 1). " + SearchContext.place(of: hit)
                if !hit.headingPath.isEmpty { head += " · " + TerminalText.visible(hit.headingPath.joined(separator: " › ")) }
                if let card = hit.card { head += " · card \(card)" }
                Output.line(head)
                Output.line("   " + Self.marked(hit.snippet))
            }
        }

        /// A snippet on one line, its matches in bold on a colour terminal, else between [ and ];
        /// the note's own text made visible (no terminal escape of a note is ever printed).
        static func marked(_ snippet: String) -> String {
            let color = Output.useColor
            var out = ""
            for c in snippet.split(whereSeparator: { $0 == "\n" }).joined(separator: " ") {
                if String(c) == SearchIndex.marks.open { out += color ? "\u{1B}[1m" : "[" } else if String(c) == SearchIndex.marks.close {
                    out += color ? "\u{1B}[0m" : "]"
                } else {
                    out += TerminalText.visible(String(c))
                }
            }
            return out
        }

        /// A snippet without its marks.
        static func plain(_ snippet: String) -> String {
            snippet.replacing(SearchIndex.marks.open, with: "").replacing(SearchIndex.marks.close, with: "")
        }
    }
}

extension SearchMode: ExpressibleByArgument {}
