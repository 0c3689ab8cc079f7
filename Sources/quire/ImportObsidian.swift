import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireReview

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
            let root = context.loaded.vault.root
            let migration = ObsidianMigration(context, strip: strip)
            Output.diagnostics(migration.settingsDiagnostics, root: root, toStandardError: true, color: false)
            for (path, reason) in migration.unreadable { Output.error("quire: error: \(path): \(reason)") }
            var failed = !migration.unreadable.isEmpty
            let plan = migration.plan
            try ImportCommand.report(plan.diagnostics, root: root)
            let summary = "\(Plural.counted(plan.cardCount, "card")) in \(Plural.counted(plan.changes.count, "note"))"
            if dryRun {
                for change in plan.changes { Output.write(UnifiedDiff.make(old: change.original, new: change.edited, path: change.path)) }
                if migration.changesSyntax { Output.line("would set card_syntax: obsidian-sr in .quire/config.yaml") }
                Output.line("Would migrate \(summary). Nothing written (--dry-run).")
                return
            }
            guard !plan.changes.isEmpty else {
                Output.line("No schedule of the plugin to migrate.")
                if failed { throw ExitCode(1) }
                return
            }
            try migration.write { step in
                switch step {
                case .syntaxSet(let file): Output.line("set card_syntax: obsidian-sr in \(file)")
                case .migrated(let path, let cards): Output.line("migrated \(path) (\(Plural.counted(cards, "card")))")
                case .failed(let path, let reason):
                    Output.error("quire: error: \(path): \(reason); run quire replay to bring its schedule from the log")
                    failed = true
                }
            }
            if plan.reviewedNotes > 0 {
                Output.line("\(Plural.counted(plan.reviewedNotes, "note")) with the plugin's note-review keys (sr-due, sr-interval, sr-ease) left as they are.")
            }
            Output.line("Migrated \(summary).")
            try context.loaded.finish()
            if failed { throw ExitCode(1) }
        }
    }
}
