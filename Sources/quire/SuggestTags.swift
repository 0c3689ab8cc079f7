import QuireTerminal
import ArgumentParser
import QuireApp
import QuireGeneration
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSupport

extension Quire {
    /// `quire suggest-tags [QUERY] [--limit N] [--apply] [--dry-run] [--json]`.
    struct SuggestTags: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest-tags",
            abstract: "Propose tags the vault already uses for notes whose key words or title match them; --apply adds them.",
            discussion: "Example: quire suggest-tags Biology/Enzymes.md")

        @OptionGroup var options: VaultOptions
        @Option(help: "The most tags per note.") var limit = 3
        @Flag(help: "Add the proposed tags to the notes.") var apply = false
        @Flag(help: "With --apply: show the changes as a diff and write nothing.") var dryRun = false
        @Flag(help: "Print the proposals as JSON.") var json = false
        @Argument(parsing: .allUnrecognized, help: "A query selecting notes (default: every note).", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            if limit < 1 { throw ValidationError("--limit must be 1 or more") }
            if json, apply { throw ValidationError("--json shows proposals; it does not apply them") }
        }

        func run() throws {
            let loaded = try LoadedVault(options)
            let index = loaded.index
            let selection = try options.query(query)
            let now = options.now, dayEnd = try loaded.dayEnd(at: now)
            let chosen = Set(index.notes(matching: selection, now: now, dayEnd: dayEnd).map { index.notes[$0].path })
            let (statistics, files) = loaded.termStatistics(keeping: chosen)
            let vaultTags = Set(index.notes.flatMap(\.tags))
            var proposals: [(path: String, suggestions: [TagSuggester.Suggestion])] = []
            for note in index.notes where chosen.contains(note.path) {
                guard let bytes = files[note.path] else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                let s = TagSuggester.suggest(title: note.title, text: text, tags: note.tags, vaultTags: Array(vaultTags), statistics: statistics, limit: limit)
                if !s.isEmpty { proposals.append((note.path, s)) }
            }
            if json {
                Output.line(JSONValue.array(proposals.map { path, s in
                    .object([("path", .string(path)), ("tags", .array(s.map { .object([("tag", .string($0.tag.name)), ("evidence", .string($0.evidence))]) }))])
                }).serialized(pretty: true))
                return try loaded.finish()
            }
            if proposals.isEmpty { Output.line("No tags to propose.") }
            for (path, s) in proposals {
                Output.line(TerminalText.visible(path) + ": " + s.map { "#" + TerminalText.visible($0.tag.name) + " (" + $0.evidence + ")" }.joined(separator: ", "))
            }
            guard apply, !proposals.isEmpty else { return try loaded.finish() }
            let edit = try EditOptions.parse(dryRun ? ["--dry-run"] : [])
            for (path, s) in proposals {
                for suggestion in s {
                    try loaded.edit(.addTag(suggestion.tag), queryWords: ["path:" + path], options: options, edit: edit, verb: "tagged #\(suggestion.tag.name)")
                }
            }
        }
    }
}
