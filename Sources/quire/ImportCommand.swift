import ArgumentParser
import QuireInterchange
import QuireModel
import QuireSystem

extension Quire {
    /// `quire import csv|anki …`: bringing cards and notes in from other formats.
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Bring cards and notes in from other formats.",
            discussion: "Everything is checked before anything is written; then the new files are moved into place all together.",
            subcommands: [ImportCSV.self, ImportAnki.self, ImportObsidian.self])

        /// Imports write Quire's card syntax: a vault reading another is refused.
        static func requireQuireSyntax(_ vault: Vault) throws {
            guard case .quire = vault.cardSyntax().syntax else {
                throw CLIError("this vault's card_syntax is obsidian-sr: imported cards are written in Quire's syntax")
            }
        }

        /// Whether a path of the vault is taken (something is there, or it is not a path a note
        /// or an imported file may have).
        static func taken(in vault: Vault) -> (String) -> Bool {
            { path in
                let full = path.hasSuffix(".md") ? try? vault.notePath(path) : try? vault.filePath(path)
                return full.map { vault.io.linkStamp($0) != nil } ?? true
            }
        }

        /// Prints a plan's problems; when one is an error, says nothing is imported and fails.
        static func report(_ diagnostics: [Diagnostic], root: String) throws {
            Output.diagnostics(diagnostics, root: root, toStandardError: true, color: false)
            let errors = diagnostics.filter { $0.severity == .error }.count
            guard errors == 0 else {
                Output.error("nothing imported: \(Output.counted(errors, "error"))")
                throw ExitCode(1)
            }
        }

        /// Writes an import's files all or none, with a progress bar on a terminal.
        static func write(_ files: [StagedFiles.File], to vault: Vault) throws {
            var bar = ProgressBar("Writing", total: files.count)
            do {
                try StagedFiles.write(files, to: vault) { bar.update($0) }
            } catch {
                throw CLIError(error.description)
            }
        }
    }
}
