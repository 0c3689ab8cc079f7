import ArgumentParser
import QuireApp
import QuireIndex
import QuireInterchange
import QuireModel
import QuireReview
import QuireScheduling
import QuireSystem

extension Quire {
    /// `quire import obsidian-sr [--strip] [--dry-run]`.
    struct ImportObsidian: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "obsidian-sr",
            abstract: "Move the Obsidian spaced-repetition plugin's schedules into Quire, in place.",
            discussion: """
                Each card the plugin schedules (<!--SR:!DATE,INTERVAL,EASE--> after it, one entry per \
                card of the question) gets Quire's scheduling line and a set line in the log. The \
                vault's card_syntax becomes obsidian-sr, so every card the plugin saw is Quire's too. \
                The comments stay unless --strip; --dry-run shows every change as a diff. \
                docs/INTERCHANGE.md.

                Example: quire import obsidian-sr --dry-run
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Take the plugin's <!--SR:…--> comments out of the notes.")
        var strip = false
        @Flag(help: "Show the changes as a diff; write nothing.")
        var dryRun = false

        func run() throws {
            let context = try StudyContext(options, readLog: false)
            let vault = context.loaded.vault
            let plugin = vault.obsidianSRSettings()
            Output.diagnostics(plugin.diagnostics, root: vault.root, toStandardError: true, color: false)
            var notes: [(path: String, bytes: [UInt8])] = []
            var failed = false
            for note in context.loaded.index.notes {
                do { notes.append((note.path, try vault.io.read(try vault.notePath(note.path)).bytes)) } catch {
                    Output.error("quire: error: \(note.path): \(error.description)")
                    failed = true
                }
            }
            let calendar = context.calendar
            let plan = ObsidianSRImport.plan(notes, settings: plugin.settings, strip: strip, now: context.now, day: { y, m, d in
                // The study day of that date, starting at the rollover hour in the offset of that day.
                let date = Timestamp(year: y, month: m, day: d)
                return calendar.start(of: Day(number: Int(date.milliseconds / 86_400_000)))
            }, eventIDs: { ReviewWriter.randomEventID() })
            try ImportCommand.report(plan.diagnostics, root: vault.root)
            let syntaxChange = context.config.cardSyntax != .obsidianSR
            let summary = "\(Output.counted(plan.cardCount, "card")) in \(Output.counted(plan.changes.count, "note"))"
            if dryRun {
                for change in plan.changes { Output.write(UnifiedDiff.make(old: change.original, new: change.edited, path: change.path)) }
                if syntaxChange { Output.line("would set card_syntax: obsidian-sr in .quire/config.yaml") }
                Output.line("Would migrate \(summary). Nothing written (--dry-run).")
                return
            }
            guard !plan.changes.isEmpty else {
                Output.line("No schedule of the plugin to migrate.")
                if failed { throw ExitCode(1) }
                return
            }
            // The log first (FORMAT.md §6.1), then the settings, then each note if it is as read.
            let text = ReviewLog.header + "\n" + plan.logLines.joined(separator: "\n") + "\n"
            try ImportCommand.write([StagedFiles.File(Vault.logFolder + "/obsidian-sr-" + ReviewWriter.randomEventID() + ".log", .quire) {
                Array(text.utf8)
            }], to: vault)
            let lock = try vault.lockForWriting()
            defer { lock.release() }
            if syntaxChange {
                let rel = Vault.folderName + "/config.yaml"
                do {
                    try vault.setCardSyntax("obsidian-sr")
                    Output.line("set card_syntax: obsidian-sr in \(rel)")
                } catch {
                    throw CLIError("\(rel): \(error); the schedules are in the log: run quire import obsidian-sr again once it can be written")
                }
            }
            for change in plan.changes {
                do {
                    try vault.io.replace(try vault.notePath(change.path), with: change.edited, expected: change.original)
                    Output.line("migrated \(change.path) (\(Output.counted(change.cards, "card")))")
                } catch {
                    Output.error("quire: error: \(change.path): \(error.description); run quire replay to bring its schedule from the log")
                    failed = true
                }
            }
            if plan.reviewedNotes > 0 {
                Output.line("\(Output.counted(plan.reviewedNotes, "note")) with the plugin's note-review keys (sr-due, sr-interval, sr-ease) left as they are.")
            }
            Output.line("Migrated \(summary).")
            try context.loaded.finish()
            if failed { throw ExitCode(1) }
        }
    }
}
