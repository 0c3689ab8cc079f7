import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireGeneration
import QuireIndex
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem

extension Quire {
    /// `quire import csv FILE [--deck DECK] [--dry-run]`.
    struct ImportCSV: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Import cards or notes from a CSV or tab-separated file (or an Anki text export).",
            discussion: """
                The first row names the columns: Question,Answer (or Front,Back), Term,Definition, \
                Text (cloze) or Note,Context (each row a note), with Tags, Deck or Notetype columns \
                if wanted; a first row that names no column is a record, and the columns are then \
                the front and the back (further ones added to the back). The separator (comma, tab, semicolon) is found from the file; Anki's \
                header lines (#separator:, #html:, #tags:, #deck:, #columns:, #… column:) are \
                followed, HTML fields turned into Markdown. Cards are written in Quire's syntax into \
                one note per deck and tag set, in the deck's folder (--deck, the Deck column, \
                #deck:, or the file's name), never over an existing file. A card whose front is \
                already in its deck is reported and skipped. A bad row is an error with its line; \
                the other rows are imported and the exit status is 1 (with --strict nothing is \
                written then).

                Example: quire import csv words.csv --deck Spanish --dry-run
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: ArgumentHelp("Put every card in DECK (A::B or A/B; decks are folders).", valueName: "DECK"), completion: .custom(QueryCompletion.decks))
        var deck: String?
        @Flag(help: "Show what would be written; write nothing.")
        var dryRun = false
        @Flag(help: "Import nothing when a row cannot be imported.")
        var strict = false
        @Flag(help: "Also propose cards from each note's text (a Note and Context table), under its ## Cards (as quire generate --write).")
        var generate = false
        @Argument(help: "The file to import.")
        var file: String

        func run() throws {
            let vault = try options.open()
            try ImportedFiles.requireQuireSyntax(vault)
            let bytes: [UInt8]
            do { bytes = try FileIO().read(file).bytes } catch { throw CLIError("\(file): \(error.description)") }
            let shownRoot = file.hasPrefix("/") ? "" : "."
            let (table, problems) = CSVReader.read(bytes, path: file)
            try ImportCommand.report(problems, root: shownRoot)
            guard let table else { throw ExitCode(1) }
            let loaded = try LoadedVault(options)
            let index = loaded.index
            let fronts = CSVImport.fronts(in: index)
            let name = String(file.split(separator: "/").last ?? "Import")
            let base = name.contains(".") ? String(name[..<(name.lastIndex(of: ".") ?? name.endIndex)]) : name
            var plan = CSVImport.plan(table, path: file, options: .init(name: base.isEmpty ? name : base, source: name, deck: deck, created: options.now),
                                      existing: { fronts[$0 + "\n" + $1] },
                                      taken: ImportedFiles.taken(in: vault))
            if generate { Self.addGeneratedCards(&plan) }
            let errors = try ImportCommand.report(plan.diagnostics, root: shownRoot, strict: strict)
            let summary = "\(Plural.counted(plan.cardCount, "card")) in \(Plural.counted(plan.notes.count, "note"))"
                + (plan.duplicates > 0 ? ", \(Plural.counted(plan.duplicates, "duplicate")) skipped" : "")
            if dryRun {
                for note in plan.notes {
                    Output.write(UnifiedDiff.make(old: [], new: note.bytes, path: note.path))
                }
                Output.line("Would import \(summary). Nothing written (--dry-run).")
                try ImportCommand.finish(errors: errors, what: "row")
                return
            }
            try ImportCommand.write(plan.notes.map { .note($0.path, $0.bytes) }, to: vault)
            for note in plan.notes { Output.line("wrote \(note.path) (\(Plural.counted(note.cards, "card")))") }
            Output.line("Imported \(summary).")
            try loaded.finish()
            try ImportCommand.finish(errors: errors, what: "row")
        }

        /// Each planned note with cards proposed from its text (word rarity over the import's notes).
        static func addGeneratedCards(_ plan: inout CSVImport) {
            let statistics = TermStatistics(texts: plan.notes.map { String(decoding: $0.bytes, as: UTF8.self) })
            for k in plan.notes.indices {
                let (bytes, count) = ImportedFiles.withGeneratedCards(path: plan.notes[k].path, bytes: plan.notes[k].bytes, statistics: statistics)
                plan.notes[k].bytes = bytes
                plan.notes[k].cards += count
            }
        }
    }
}
