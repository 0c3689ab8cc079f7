import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireMarkdown
import QuireIndex
import QuireReview
import QuireSupport
import QuireVault

extension Quire {
    /// `quire check`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Report every problem in the vault as path:line:column: error|warning: message.",
            discussion: """
                Also reports each card that was re-matched to its history after an edit, and each card whose \
                scheduling line differs from what the review log gives (see quire replay). Exit status 1 when \
                there are errors.

                Example: quire check --errors-only
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Print JSON: an array of {path, line, column, severity, message}.")
        var json = false
        @Flag(help: "Leave out notes (re-matched cards) and warnings.")
        var errorsOnly = false
        @Flag(name: .shortAndLong, help: "Also list every card with the lines it covers (where its back ends).")
        var verbose = false
        @Argument(help: "Notes or folders to check (default: the whole vault); the vault is read whole either way.")
        var paths: [String] = []

        func run() throws {
            let loaded = try LoadedVault(options, reportErrors: false)
            var all = loaded.vault.config().diagnostics + loaded.index.diagnostics
            let replay = ReviewReplay(vault: loaded.vault, index: loaded.index, config: loaded.vault.config().config)
            all += replay.diagnostics + replay.checkDiagnostics
            if errorsOnly { all = all.filter { $0.severity == .error } }
            let within = try Self.within(paths, vault: loaded.vault)
            if !within.isEmpty { all = all.filter { d in within.contains { d.path == $0 || d.path.hasPrefix($0 + "/") } } }
            if json {
                Output.line(JSONValue.array(all.map(JSONRepresentation.diagnostic)).serialized(pretty: true))
            } else {
                Output.diagnostics(all, root: loaded.vault.root, toStandardError: false, color: Output.useColor)
                if verbose {
                    for note in loaded.index.notes where within.isEmpty || within.contains(where: { note.path == $0 || note.path.hasPrefix($0 + "/") }) {
                        for card in note.cards { Output.line(TerminalText.visible(Self.cardLine(card, in: note))) }
                    }
                }
                let errors = all.filter { $0.severity == .error }.count
                let warnings = all.filter { $0.severity == .warning }.count
                let checked = loaded.index.notes.filter { n in within.isEmpty || within.contains { n.path == $0 || n.path.hasPrefix($0 + "/") } }
                let notes = checked.count, cards = checked.reduce(0) { $0 + $1.cards.count }
                Output.error("checked \(Plural.counted(notes, "note")), \(Plural.counted(cards, "card")): "
                             + "\(Plural.counted(errors, "error")), \(Plural.counted(warnings, "warning"))")
            }
            Output.flush()
            if all.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
        }

        /// The vault-relative paths `paths` name (notes or folders); one that names none is an error.
        static func within(_ paths: [String], vault: Vault) throws -> [String] {
            try paths.map { path in
                guard let relative = NotePathWords.relativePath(path, vault: vault, workingDirectory: WorkingDirectory.path())
                        ?? NotePathWords.relativePath(path + ".md", vault: vault, workingDirectory: WorkingDirectory.path())
                        ?? NotePathWords.relativePath(path + "/", vault: vault, workingDirectory: WorkingDirectory.path()) else {
                    throw CLIError("no note or folder '\(TerminalText.visible(path))' in the vault")
                }
                return relative
            }
        }

        /// `path:line:column: card ID kind, lines A–B: front` — the lines show where the card's back ends.
        static func cardLine(_ card: Card, in note: Note) -> String {
            var kind = card.kind.rawValue
            switch card.variant {
            case .single: break
            case .forward, .backward: kind += " " + card.variant.identityText
            case .cloze(let n): kind += " c\(n)"
            }
            let lines = card.lines.count > 1 ? "lines \(card.lines.lowerBound)–\(card.lines.upperBound)" : "line \(card.lines.lowerBound)"
            var front = card.front.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
            if front.count > 60 { front = String(front.prefix(59)) + "…" }
            return "\(note.path):\(card.lines.lowerBound):\(card.column): card \(card.id) \(kind), \(lines): \(front)"
        }
    }
}
