import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireModel
import QuireReview

extension Quire {
    /// `quire replay [--check]`.
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Rebuild every card's scheduling state from the review log.",
            discussion: """
                Replays all devices' logs in time order and rewrites the scheduling lines that differ. \
                Cards the log does not know are left as they are. --check only reports (exit 1 when \
                something differs).

                Example: quire replay --check
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var edit: EditOptions
        @Flag(help: "Only report the differences; write nothing.")
        var check = false

        func run() throws {
            let loaded = try LoadedVault(options)
            // Writing: the log is read, and the notes planned and written, holding the lock, so no
            // grade lands between the replay and its writes.
            if check || edit.dryRun { try run(loaded) } else { try loaded.locked { try run(loaded) } }
        }

        private func run(_ loaded: LoadedVault) throws {
            let (config, configDiagnostics) = try LoadedVault.settings(of: loaded.vault)
            let replay = ReviewReplay(vault: loaded.vault, index: loaded.index, config: config)
            Output.diagnostics(configDiagnostics + replay.diagnostics, root: loaded.vault.root, toStandardError: true, color: false)
            for d in replay.differences { Output.line("\(d.path):\(d.line): \(d.card): \(d.summary)") }
            for m in replay.missingCards {
                Output.error("quire: warning: card \(m.card) is in the review log but not in the vault (last in \(m.lastPath ?? "?"))")
            }
            let edited = replay.fingerprintUpdates.count
            let summary = "\(Plural.counted(replay.eventCount, "event")), \(Plural.counted(replay.replayedCards, "card")) replayed, \(replay.differences.count) differ\(replay.differences.count == 1 ? "s" : "")"
                + (edited == 0 ? "" : ", \(edited) edited since (fingerprint\(edited == 1 ? "" : "s") updated)")
            var failed = replay.diagnostics.contains { $0.severity == .error }
            if check || (replay.differences.isEmpty && replay.fingerprintUpdates.isEmpty) {
                Output.error(summary)
                Output.flush()
                if failed || (check && !replay.differences.isEmpty) || loaded.index.hasErrors { throw ExitCode(1) }
                return
            }
            let plan = replay.plan(vault: loaded.vault)
            Output.diagnostics(plan.diagnostics, root: loaded.vault.root, toStandardError: true, color: false)
            failed = failed || !plan.diagnostics.isEmpty
            if edit.dryRun {
                for e in plan.edits { Output.write(e.diff) }
                Output.error(summary + "; would change \(Plural.counted(plan.edits.count, "note")) (dry run)")
            } else {
                let result = loaded.vault.apply(plan.edits)
                Output.diagnostics(result.diagnostics, root: loaded.vault.root, toStandardError: true, color: false)
                failed = failed || !result.diagnostics.isEmpty
                Output.error(summary + "; rewrote \(Plural.counted(result.written.count, "note"))")
            }
            Output.flush()
            if failed || loaded.index.hasErrors { throw ExitCode(1) }
        }
    }
}
