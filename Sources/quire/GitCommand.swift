import QuireTerminal
import ArgumentParser
import Foundation
import QuireSync

extension Quire {
    /// `quire git setup`.
    struct GitCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "git",
            abstract: "Git integration.",
            discussion: "Example: quire git setup",
            subcommands: [Setup.self])

        /// `quire git setup`: the merge driver in this clone.
        struct Setup: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "setup",
                abstract: "Register Quire's merge driver in this clone (once per clone: git does not copy it).",
                discussion: """
                Notes changed on two devices are then merged by git's rules for their text, and their \
                scheduling lines from both devices' review logs: no conflict on scheduling lines.

                Example: quire git setup
                """)

            @OptionGroup var options: VaultOptions

            func run() throws {
                let vault = try options.open()
                do {
                    for line in try GitSetup.register(vault: vault, executable: Quire.executablePath) { Output.line(line) }
                } catch {
                    throw CLIError(error.description)
                }
                Output.flush()
            }
        }
    }

    /// The running `quire`'s own path: for the merge driver's definition, the reminder's timer or
    /// crontab line, and the docs installed beside it.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
