import QuireTerminal
import ArgumentParser
import QuireApp
import QuireGeneration
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSupport

extension Quire {
    /// `quire summarize NOTE [--sentences N] [--write] [--json]`.
    struct Summarize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summarize",
            abstract: "Summarise a note by its most central sentences (extractive, offline); --write stores it as summary: in its front matter.",
            discussion: "Example: quire summarize Biology/Enzymes.md --write")

        @OptionGroup var options: VaultOptions
        @Option(help: "How many sentences.") var sentences = 3
        @Flag(help: "Store the summary as the note's summary: key.") var write = false
        @Flag(help: "Print the summary as JSON.") var json = false
        @Argument(help: "A note's path in the vault.") var note: String

        func validate() throws {
            if sentences < 1 || sentences > 20 { throw ValidationError("--sentences is from 1 to 20") }
            if json, write { throw ValidationError("--json shows the summary; it does not write it") }
        }

        func run() throws {
            let loaded = try LoadedVault(options)
            let found = try Generate.note(note, in: loaded)
            let (statistics, files) = loaded.termStatistics(keeping: [found.path])
            let bytes = files[found.path] ?? []
            let summary = Summarizer.summarize(NoteProse.sentences(of: found, bytes: bytes), statistics: statistics, count: sentences)
            let text = summary.map(\.text).joined(separator: " ")
            if json {
                Output.line(JSONValue.object([("path", .string(found.path)), ("summary", .string(text)),
                                              ("sentences", .array(summary.map { .object([("line", .int($0.line)), ("text", .string($0.text))]) }))])
                    .serialized(pretty: true))
                return try loaded.finish()
            }
            if summary.isEmpty {
                Output.line("No sentences to summarise in \(TerminalText.visible(found.path)).")
                return try loaded.finish()
            }
            for s in summary { Output.line("\(s.line): " + TerminalText.visible(s.text)) }
            guard write else { return try loaded.finish() }
            try loaded.edit(.set(key: "summary", value: text), queryWords: ["path:" + found.path], options: options, edit: try EditOptions.parse([]),
                            verb: "stored the summary in")
        }
    }
}
