import QuireTerminal
import ArgumentParser
import QuireApp
import QuireSync

extension Quire {
    /// `quire resolve NOTE [--ours | --theirs]`.
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Finish a note git left in conflict: its text from your choice, its schedule from the review log.",
            discussion: """
            With --ours or --theirs, every conflict in the note keeps that side's text; without, the \
            note must have no conflict markers left (you edited it). Its scheduling lines are then set \
            from all devices' review logs, and git is told the note is resolved (git add).

            Example: quire resolve Biology/cells.md --theirs
            """)

        @OptionGroup var options: VaultOptions
        @Argument(help: "The note, relative to the vault.") var note: String
        @Flag(help: "Keep this clone's text in every conflict.") var ours = false
        @Flag(help: "Keep the other side's text in every conflict.") var theirs = false

        func validate() throws {
            if ours && theirs { throw ValidationError("choose one of --ours and --theirs") }
        }

        func run() throws {
            let vault = try options.open()
            let (config, _) = try LoadedVault.settings(of: vault)
            let side: ConflictSide? = ours ? .ours : theirs ? .theirs : nil
            do {
                for line in try ConflictResolution.resolve(path: note, keeping: side, vault: vault, config: config) {
                    Output.line(line)
                }
            } catch {
                throw CLIError(error.description)
            }
            Output.flush()
        }
    }
}
