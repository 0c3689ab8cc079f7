import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireIndex
import QuireInterchange
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSystem

extension Quire {
    /// `quire import anki FILE.apkg|FILE.colpkg [--into FOLDER] [--strict] [--dry-run] [--max-size SIZE]`.
    struct ImportAnki: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "anki",
            abstract: "Import an Anki package with its review history and scheduling.",
            discussion: """
                Both package formats (Anki 2.1.50's zstd one, and the legacy one). Each Anki note becomes \
                a note in its deck's folder, its cards in Quire's syntax (Basic, reversed, type-in, \
                cloze; other note types as first field → front, the rest → back, reported), fields' \
                HTML as Markdown, media copied into assets/. Each card keeps Anki's state — due date, \
                interval, ease, FSRS memory state, suspended, buried — and its answers become log lines \
                followed by a set line with that state (docs/INTERCHANGE.md). A note whose first card is \
                already in its deck is skipped, so a second run adds only what is new. A note that \
                cannot be imported is listed with its ID and reason, the others are imported, and \
                the exit status is 1; with --strict nothing is written then. The files are moved \
                into place all together, so a killed import leaves nothing half done (the next \
                command finishes it), and an answer already in the log is never logged twice. An \
                import reads and writes at most 40 times the package's size (at least 256 MB): \
                --max-size sets another limit.

                Example: quire import anki collection.apkg --dry-run
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: ArgumentHelp("Put the decks under FOLDER (a folder of the vault).", valueName: "FOLDER"))
        var into: String?
        @Flag(help: "Say what would be imported; write nothing.")
        var dryRun = false
        @Flag(help: "Import nothing when a note cannot be imported.")
        var strict = false
        @Option(name: .customLong("max-size"), help: ArgumentHelp(
            "The most the import may read and write in all (default: 40 times the package, at least 256M).", valueName: "SIZE"))
        var maxSize: ByteSize?
        @Argument(help: "The .apkg or .colpkg file.")
        var file: String

        func run() throws {
            let context = try StudyContext(options, readLog: false)
            let vault = context.loaded.vault
            try ImportedFiles.requireQuireSyntax(vault)
            let folder = try into.map { name -> String in
                guard let f = CSVImport.folder(forDeck: name) else { throw CLIError("--into \(name): not a folder of the vault") }
                return f
            } ?? ""
            let name = String(file.split(separator: "/").last ?? "package.apkg")
            let budget = maxSize?.bytes ?? AnkiPackage.defaultBudget(packageSize: FileIO().stamp(file)?.size ?? 0)
            let package: AnkiPackage
            do { package = try AnkiPackage.read(path: file, name: name, budget: budget) } catch {
                // A located message reads like a compiler's, `NAME: error: …`.
                Output.error(error.description.contains(": error: ") ? error.description : "quire: error: \(error.description)")
                throw ExitCode(1)
            }
            let plan = context.plan(package, file: file, name: name, folder: folder)
            let errors = try ImportCommand.report(plan.diagnostics, root: ".", strict: strict)
            // An empty collection (a profile's first backup, say) is said as such, not as 0 of something.
            if package.notes.isEmpty {
                Output.line("Nothing to import: \(TerminalText.visible(name)) holds no notes.")
                return try context.loaded.finish()
            }
            let summary = Self.summary(plan)
            if dryRun {
                for note in plan.notes { Output.line("would write \(note.path) (\(Plural.counted(note.cards, "card")))") }
                for media in plan.media { Output.line("would copy \(media.path)") }
                Output.line("Would import \(summary). Nothing written (--dry-run).")
                try ImportCommand.finish(errors: errors, what: "note")
                return
            }
            let files = try plan.files(package: file, name: name, format: package.format, log: "anki-" + ReviewWriter.randomEventID(),
                                       budget: budget)
            try ImportCommand.write(files, to: vault, budget: budget, rule: maxSize == nil ? AnkiPackage.budgetRule : "the limit --max-size set")
            Output.line("Imported \(summary).")
            try context.loaded.finish()
            try ImportCommand.finish(errors: errors, what: "note")
        }

        /// `3 cards in 2 notes, 5 reviews, 1 media file; 1 note already in the vault skipped`.
        static func summary(_ plan: AnkiImport) -> String {
            "\(Plural.counted(plan.cardCount, "card")) in \(Plural.counted(plan.notes.count, "note")), "
                + "\(Plural.counted(plan.reviewCount, "review")), \(Plural.counted(plan.media.count, "media file"))"
                + (plan.alreadyThere > 0 ? "; \(Plural.counted(plan.alreadyThere, "note")) already in the vault skipped" : "")
                + (plan.alreadyLogged > 0 ? "; \(Plural.counted(plan.alreadyLogged, "event")) already in the log left out" : "")
        }
    }
}
