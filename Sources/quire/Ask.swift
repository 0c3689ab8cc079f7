import QuireTerminal
import Foundation
import ArgumentParser
import QuireApp
import QuireIndex
import QuireMarkdown
import QuireSearch
import QuireSupport
import QuireSystem

extension Quire {
    /// `quire ask QUESTION [QUERY-FILTERS]`: an answer from the notes, every sentence cited.
    struct Ask: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ask",
            abstract: "Answer a question from the notes, citing the note and line of every sentence.",
            discussion: """
                The notes' chunks that best match the question (by words and, with the search model \
                installed, by meaning) are read, and the sentences that answer it best are quoted, each \
                followed by the number of its source. When nothing relevant is found, it says so. With a \
                language model (the one `quire model install llm` installs, started on this machine for \
                the question; or --llm URL / QUIRE_LLM_URL: an OpenAI-compatible server such as \
                llama.cpp's or Ollama's), the answer is phrased by it from those chunks, and every \
                sentence that cites none of them, or one that does not support it, is dropped; when none \
                is left, the notes are quoted. An endpoint on another machine is refused unless \
                --allow-remote is given; --no-llm quotes the notes.

                Example: quire ask "what does the mitochondrion produce?"
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Option(help: "How many chunks to read for the answer.") var chunks = 6
        @OptionGroup var model: LanguageModelOptions
        @Argument(help: "The question, and query filters.") var words: [String] = []

        func validate() throws {
            if chunks < 1 || chunks > 50 { throw ValidationError("--chunks must be between 1 and 50") }
            if words.allSatisfy({ $0.contains(":") }) { throw ValidationError("give a question") }
        }

        func run() throws {
            // A refused endpoint is an error before any work, not a silent fallback.
            let session = try model.open()
            defer { session?.close() }
            let languageModel = session.map { LocalLanguageModel(chat: $0.chat) }
            // The caches alone answer when few notes changed; else the vault is loaded (the same
            // answer either way).
            let vault = try options.open()
            if !options.noCache,
               let asked = QuickSearch.ask(words, in: vault, chunks: chunks, model: languageModel, clock: Clock.now(),
                                           notice: SearchContext.say) {
                return answer(asked)
            }
            let loaded = LoadedVault(opened: vault, options)
            let context = try SearchContext(loaded)
            let asked: AskedQuestion
            do { asked = try context.search.ask(words, chunks: chunks, model: languageModel, now: options.now) } catch {
                throw CLIError(error.description)
            }
            answer(asked)
            try loaded.finish()
        }

        /// Prints the answer (as JSON with `--json`) and the notes about the model.
        private func answer(_ asked: AskedQuestion) {
            for note in asked.modelNotes { Output.error("quire: " + note) }
            if listing.json { return Output.line(asked.json.serialized(pretty: true)) }
            Self.show(asked)
        }

        /// The answer as the terminal shows it: each sentence with its source's number, then the
        /// sources; or the closest passages when nothing answers.
        static func show(_ asked: AskedQuestion) {
            let answer = asked.answer, retrieved = asked.retrieved
            guard answer.found else {
                Output.line("Nothing in your notes answers this" + (retrieved.isEmpty ? "." : "; the closest passages:"))
                for (k, item) in retrieved.prefix(3).enumerated() { Output.line("  \(k + 1). " + Self.citation(item.hit)) }
                return
            }
            for sentence in answer.sentences {
                Output.line(Self.rendered(sentence.text) + " [\(sentence.source)]")
            }
            Output.line()
            for (k, hit) in answer.sources.enumerated() { Output.line("[\(k + 1)] " + Self.citation(hit)) }
            if asked.phrasedByModel {
                Output.line("(Phrased by the language model from these passages, each sentence checked against them; --no-llm quotes them.)")
            }
            if !answer.dropped.isEmpty {
                Output.error("quire: note: \(Plural.counted(answer.dropped.count, "sentence")) of the model's answer left out "
                             + "(not supported by the notes, off the question, or repeated)")
            }
        }

        /// A sentence of the notes as the terminal shows Markdown — a link by its text, emphasis
        /// as emphasis (plain when piped), no control character raw — on one line.
        static func rendered(_ sentence: String) -> String {
            let lines = MarkdownRenderer.ansi(sentence, color: Output.useColor, width: 100_000).split(separator: "\n")
            return lines.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
        }

        /// `path:line — heading › path` (and the card), made safe for a terminal.
        static func citation(_ hit: SearchHit) -> String {
            var text = SearchContext.place(of: hit)
            if !hit.headingPath.isEmpty { text += " — " + TerminalText.visible(hit.headingPath.joined(separator: " › ")) }
            if let card = hit.card { text += " (card \(card))" }
            return text
        }
    }
}
