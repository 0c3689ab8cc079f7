import QuireTerminal
import QuireNetwork
import ArgumentParser
import Foundation
import QuireApp
import QuireGeneration
import QuireIndex
import QuireModel
import QuireMarkdown
import QuireParsing
import QuireReview
import QuireSupport
import QuireSystem
import QuireVault

extension Quire {
    /// `quire generate NOTE|QUERY [--formats qa,cloze,definition] [--max N] [--write] [--to FILE] [--json]`.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Propose cards from notes' text, by rules, offline: definitions, questions and cloze deletions.",
            discussion: """
                Shows the proposals with their source lines (a dry run); --write adds each card to its note at the \
                end of the section it came from, so that it is shown under the same headings (--place cards: under a \
                ## Cards heading, made at the end when there is none); --to FILE writes them all into one note \
                instead. Every answer is text of the note; a card the vault already has is not proposed again.

                A language model is asked first only when named: --llm URL (or QUIRE_LLM_URL), a server of \
                your own that reads a whole note and answers in JSON; or --llm installed, the small model \
                `quire model install llm` installs, asked a sentence at a time. Its cards are held to the \
                note like the rules' and ranked with them. The installed model is not asked by default: on \
                the judged real notes 3 of the 15 cards of its that passed the checks were good, against \
                about 85 % of the rules' (docs/BENCHMARKS.md).

                Example: quire generate Biology/Enzymes.md --write
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: ArgumentHelp("The formats, comma-separated: qa, cloze, definition.", valueName: "LIST")) var formats = "qa,cloze,definition"
        @Option(help: ArgumentHelp("The most cards of each format per note (default: one per 100 words of its prose, at least 10).",
                                   valueName: "N"))
        var max: Int?
        @Flag(help: "Write the cards into the notes.") var write = false
        @Option(help: ArgumentHelp("Where --write puts a card: section (the end of its source's section) or cards (## Cards).",
                                   valueName: "PLACE"))
        var place: CardInsertion.Placement = .section
        @Option(help: ArgumentHelp("Write every note's cards into this note of the vault instead (made when missing).", valueName: "FILE"))
        var to: String?
        @Flag(help: "Print the proposals as JSON.") var json = false
        @Flag(help: "With --write or --to: ask about each card first (y keep, n drop, e edit in $EDITOR, a keep the rest, q stop).")
        var pick = false
        @OptionGroup var model: LanguageModelOptions
        @Option(help: ArgumentHelp("Seconds the language model may take per note.", valueName: "SECONDS")) var llmTimeout = 120
        @Argument(help: "A note's path in the vault, or a query (deck:Biology, tag:x …).") var target: [String]

        func validate() throws {
            if target.isEmpty { throw ValidationError("give a note or a query") }
            if let max, max < 1 { throw ValidationError("--max must be 1 or more") }
            for f in formats.split(separator: ",") where CardProposal.Format(rawValue: f.trimmingSpaces()) == nil {
                throw ValidationError("--formats takes qa, cloze and definition")
            }
            if json, write || to != nil { throw ValidationError("--json shows proposals; it does not write them") }
            if llmTimeout < 1 { throw ValidationError("--llm-timeout must be 1 or more") }
            if pick, !write, to == nil { throw ValidationError("--pick chooses what --write or --to writes: give one of them") }
            if place != .section, !write { throw ValidationError("--place says where --write puts the cards: give --write") }
        }

        func run() throws {
            // A refused endpoint is an error before any work, not a silent fallback.
            let session = try model.open(timeoutSeconds: llmTimeout, installedByDefault: false)
            defer { session?.close() }
            let model = session?.chat
            let loaded = try LoadedVault(options)
            let notes = try Self.notes(target, in: loaded, now: options.now)
            let chosen = Set(formats.split(separator: ",").compactMap { CardProposal.Format(rawValue: $0.trimmingSpaces()) })
            // Near-duplicates by meaning, with the search model installed.
            let meaning = MeaningFilter.isAvailable ? (try? SearchContext(loaded)).flatMap { MeaningFilter($0.search) } : nil
            let proposed = loaded.proposeCards(for: notes, formats: chosen, maximum: max, model: model, style: session?.cardStyle ?? .note, meaning: meaning)
            for (path, problem) in proposed.problems { Output.error("quire: warning: \(TerminalText.visible(path)): \(problem)") }
            if !proposed.duplicates.isEmpty {
                Output.error("quire: note: \(Plural.counted(proposed.duplicates.count, "card")) left out as saying what another card says (by meaning): "
                             + proposed.duplicates.prefix(3).map { TerminalText.visible($0.0.markdown) + " ≈ " + TerminalText.visible($0.1) }.joined(separator: "; "))
            }
            let results = proposed.results
            if json {
                Output.line(proposed.json.serialized(pretty: true))
                return try loaded.finish()
            }
            let total = Self.show(results)
            if total == 0 { Output.line("No cards to propose.") }
            guard write || to != nil, total > 0 else {
                if total > 0 { Output.line("\(Plural.counted(total, "card")) proposed; --write adds them to the notes.") }
                return try loaded.finish()
            }
            try write(pick ? try Self.picked(results) : results, vault: loaded.vault)
            try loaded.finish()
        }

        /// The notes `target` names: a note's path, else the notes it selects as a query.
        static func notes(_ target: [String], in loaded: LoadedVault, now: Timestamp) throws -> [Note] {
            let relative = target.joined(separator: " ")
            if let note = try? Self.note(relative, in: loaded) { return [note] }
            let query = try LoadedVault.query(target, in: loaded.vault)
            let dayEnd = try loaded.dayEnd(at: now)
            let notes = loaded.index.notes.filter { query.matches(note: $0, now: now, dayEnd: dayEnd) }
            if notes.isEmpty { throw CLIError("no note is '\(TerminalText.visible(relative))', and no note matches it as a query") }
            return notes
        }

        /// Lists the proposals note by note; how many there are.
        static func show(_ results: [(note: Note, cards: [CardProposal])]) -> Int {
            var total = 0
            for (note, cards) in results where !cards.isEmpty {
                Output.line(TerminalText.visible(note.path))
                for card in cards {
                    Output.line("  \(card.line): [\(card.format.rawValue)] " + TerminalText.visible(card.markdown))
                }
                total += cards.count
            }
            return total
        }

        /// The cards the user keeps, asked one by one on standard input (a terminal or a script's
        /// lines): `y` (or Enter) keeps it, `n` drops it, `e` opens it in `$EDITOR` and keeps what
        /// is written there, `a` keeps it and the rest, `q` (or the input's end) drops it and the rest.
        static func picked(_ results: [(note: Note, cards: [CardProposal])]) throws -> [(note: Note, cards: [CardProposal])] {
            let total = results.reduce(0) { $0 + $1.cards.count }
            var n = 0
            var keepRest = false, stop = false
            var out: [(note: Note, cards: [CardProposal])] = []
            for (note, cards) in results {
                var kept: [CardProposal] = []
                for var card in cards {
                    n += 1
                    if stop { continue }
                    if keepRest { kept.append(card); continue }
                    asking: while true {
                        Output.line("[\(n)/\(total)] \(TerminalText.visible(note.path)):\(card.line) \(card.format.rawValue) · " + TerminalText.visible(card.markdown))
                        Output.flush()
                        StandardStreams.write(Array("keep it? y yes · n no · e edit · a yes to the rest · q stop [y] ".utf8), to: 2)
                        guard let answer = readLine() else { stop = true; break asking }
                        switch answer.trimmingSpaces().lowercased() {
                        case "", "y", "yes": kept.append(card)
                        case "n", "no": break
                        case "a": kept.append(card); keepRest = true
                        case "q": stop = true
                        case "e":
                            if let text = try EditorCommand.text(startingWith: card.markdown + "\n", nothingDone: "the card is kept as it was") {
                                card.edited = text.trimmingSpaces()
                            }
                            kept.append(card)
                        default:
                            Output.line("answer y, n, e, a or q")
                            continue asking
                        }
                        break asking
                    }
                }
                out.append((note, kept))
            }
            return out
        }

        /// The note `target` names: its path in the vault (or from the vault's folder, or `./…`).
        static func note(_ target: String, in loaded: LoadedVault) throws -> Note {
            var relative = target
            while relative.hasPrefix("./") { relative.removeFirst(2) }
            guard let note = loaded.index.notes.first(where: { $0.path == relative || loaded.vault.root + "/" + $0.path == target }) else {
                throw CLIError("no note '\(TerminalText.visible(target))' (a note's path in the vault)")
            }
            return note
        }

        /// Writes the cards: into each note, or all into `--to`. Each file is checked to read back
        /// with exactly the cards added and no new error, then replaced atomically (refused when it
        /// changed on disk meanwhile).
        func write(_ results: [(note: Note, cards: [CardProposal])], vault: Vault) throws {
            var targets: [(path: String, cards: [CardProposal], source: String?)] = []
            if let to {
                var path = to
                while path.hasPrefix("./") { path.removeFirst(2) }
                if !path.hasSuffix(".md") { path += ".md" }
                for (note, cards) in results where !cards.isEmpty {
                    let placed = cards.map { var c = $0; c.source = note.path; return c }
                    if let k = targets.firstIndex(where: { $0.path == path }) { targets[k].cards += placed } else { targets.append((path, placed, nil)) }
                }
            } else {
                targets = results.filter { !$0.cards.isEmpty }.map { ($0.note.path, $0.cards, nil) }
            }
            if targets.isEmpty { Output.line("No card kept; nothing written.") }
            var failed = 0
            for target in targets {
                do {
                    do { try CardInsertion.write(target.cards, to: target.path, in: vault, created: options.now, placement: place) } catch {
                        throw CLIError("\(target.path): \(error.description)")
                    }
                    Output.line("wrote \(Plural.counted(target.cards.count, "card")) to \(TerminalText.visible(target.path))")
                } catch let error as CLIError {
                    Output.error("quire: error: \(error.description)")
                    failed += 1
                }
            }
            if failed > 0 { throw ExitCode(1) }
        }
    }
}

extension CardInsertion.Placement: ExpressibleByArgument {}
