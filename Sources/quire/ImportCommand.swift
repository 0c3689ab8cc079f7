import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireGeneration
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem
import QuireVault

extension Quire {
    /// `quire import csv|anki …`: bringing cards and notes in from other formats.
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Bring cards and notes in from other formats.",
            discussion: "Everything is checked before anything is written; then the new files are moved into place all together.\n\nExample: quire import csv words.csv --deck Spanish",
            subcommands: [ImportCSV.self, ImportAnki.self, ImportObsidian.self, ImportPDF.self, ImportImage.self, ImportAudio.self, ImportVideo.self])

        /// Prints a plan's problems. With `strict`, an error means nothing is imported: it says so
        /// and fails. Otherwise what can be imported is, and ``finish(errors:what:)`` fails after it.
        /// Returns the number of errors.
        @discardableResult
        static func report(_ diagnostics: [Diagnostic], root: String, strict: Bool = true) throws -> Int {
            Output.diagnostics(diagnostics, root: root, toStandardError: true, color: false)
            let errors = diagnostics.filter { $0.severity == .error }.count
            if errors > 0, strict {
                Output.error("nothing imported: \(Plural.counted(errors, "error"))")
                throw ExitCode(1)
            }
            return errors
        }

        /// After a partial import: when some of it could not be imported, says how much and fails.
        static func finish(errors: Int, what: String) throws {
            guard errors > 0 else { return }
            Output.error("\(Plural.counted(errors, what)) not imported (see the errors above; --strict imports nothing then)")
            throw ExitCode(1)
        }

        /// Writes an import's files all or none, with a progress bar on a terminal; past `budget`
        /// bytes nothing is written, and the message says `rule`.
        static func write(_ files: [StagedFiles.File], to vault: Vault, budget: Int = .max, rule: String? = nil) throws {
            var bar = ProgressBar("Writing", total: files.count)
            do { try ImportedFiles.write(files, to: vault, budget: budget, rule: rule) { bar.update($0) } } catch {
                throw CLIError(error.description)
            }
        }
    }
}
