import QuireTerminal
import ArgumentParser
import QuireApp
import QuireSync

extension Quire {
    /// `quire sync [--rebase | --merge] [--dry-run]`.
    struct SyncCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Commit this vault's changes, pull the other devices' (merging notes), and push.",
            discussion: """
            Commits with a generated message (reviews, notes edited and added), fetches and merges \
            (--rebase: rebases onto; by default as git's branch.NAME.rebase or pull.rebase says) the \
            upstream branch with Quire's merge driver, replays scheduling \
            lines the merged log says are behind, and pushes. A conflict in a note's text stops the \
            sync with what to do next (quire resolve, then git's continue or abort).

            Example: quire sync
            """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "Rebase this clone's commits onto the upstream branch instead of merging it (default: as git's pull.rebase says).")
        var rebase = false
        @Flag(help: "Merge the upstream branch even where git's pull.rebase says to rebase.")
        var merge = false
        @Flag(help: "Say what would be done; change nothing.")
        var dryRun = false

        func validate() throws {
            if rebase && merge { throw ValidationError("--rebase and --merge cannot be used together") }
        }

        func run() throws {
            let vault = try options.open()
            let (config, _) = try LoadedVault.settings(of: vault)
            let report: Sync.Report
            do {
                let sync = try Sync(vault: vault, executable: Quire.executablePath)
                var mode: Sync.PullMode = rebase ? .rebase : .merge
                if !rebase && !merge {
                    let configured = sync.configuredMode()
                    mode = configured.mode
                    if let key = configured.setBy { Output.line("\(mode.rawValue) (git config \(key))") }
                }
                report = try sync.run(mode: mode, dryRun: dryRun, config: config, now: options.now)
            } catch {
                throw CLIError(error.description)
            }
            for step in report.steps { Output.line(step) }
            Output.flush()
            if let stopped = report.stopped {
                Output.error("quire: sync stopped: \(stopped)")
                throw ExitCode(1)
            }
        }
    }
}
