import QuireTerminal
import ArgumentParser
import QuireApp
import QuireSystem

/// The `quire` command: a spaced-repetition study system over a folder of Markdown files.
@main
struct Quire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Spaced repetition over a folder of Markdown notes.",
        discussion: """
            Quire finds the vault by looking for a .quire/ folder in the working directory and its \
            parents (like git); -C DIR names it directly. Queries are described in docs/QUERIES.md.
            """,
        version: "0.1.0",
        subcommands: [Init.self, Check.self, List.self, Search.self, Show.self, Decks.self, Tags.self, TagCommand.self,
                      SetCommand.self, Unset.self, Grade.self, Undo.self, Replay.self,
                      CardActionCommand<Suspend>.self, CardActionCommand<Unsuspend>.self, CardActionCommand<Bury>.self,
                      CardActionCommand<Reset>.self, CardActionCommand<Promote>.self, CardActionCommand<Demote>.self,
                      CardActionCommand<Deactivate>.self, Review.self, Today.self, Due.self, Watch.self,
                      GitCommand.self, MergeDriver.self, Resolve.self, SyncCommand.self, Add.self, Curate.self, Notes.self, CategoryCommand.self, SourceTypeCommand.self, New.self, Stats.self, Report.self, ImportCommand.self, ExportCommand.self,
                      ModelCommand.self, IndexCommand.self, Ask.self, Related.self, Record.self, Generate.self, Summarize.self, Explain.self, SuggestTags.self, Optimize.self, Retention.self, Quiz.self, Serve.self, DoctorCommand.self, ConfigCommand.self, Remind.self]
    )

    /// Lets `-C DIR` / `--vault DIR` stand before the subcommand, as with git: moves such options
    /// to just after the subcommand's name(s), where the subcommand reads them.
    static func movingGlobalOptions(_ args: [String]) -> [String] {
        var globals: [String] = []
        var rest = args
        while let first = rest.first {
            if first == "-C" || first == "--vault", rest.count >= 2 {
                globals += rest.prefix(2)
                rest.removeFirst(2)
            } else if first.hasPrefix("--vault=") || (first.hasPrefix("-C") && first.count > 2) {
                globals.append(first)
                rest.removeFirst()
            } else {
                break
            }
        }
        guard !globals.isEmpty else { return args }
        var names = 0
        var command: any ParsableCommand.Type = Quire.self
        while names < rest.count,
              let sub = command.configuration.subcommands.first(where: { $0._commandName == rest[names] }) {
            command = sub
            names += 1
        }
        return Array(rest.prefix(names)) + globals + rest.dropFirst(names)
    }

    static func main() {
        Output.ignoreBrokenPipeSignal()
        Output.unblockTerminationSignals()
        AllocatorTuning.forIndexing()
        Output.configureWriteLock()
        // `quire help TOPIC` is a chapter of the documentation; `quire help COMMAND` the
        // command's help, as the argument parser gives it.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "help", arguments.count == 2 {
            if arguments[1] == "topics" {
                Output.write(HelpTopic.list)
                Output.flush()
                return
            }
            if HelpTopic.show(arguments[1]) { return }
        }
        if arguments.first == "help", let message = UnknownCommand.message(arguments) { exit(withError: ValidationError(message)) }
        let moved = Self.movingGlobalOptions(arguments)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(moved)
        } catch {
            exit(withError: UnknownCommand.message(moved).map { ValidationError($0) } ?? error)
        }
        do {
            try command.run()
            Output.flush()
        } catch let error as CLIError {
            // Messages that already have a location read like a compiler's: `query:1:6: error: …`.
            Output.error(error.description.contains(": error: ") ? error.description : "quire: error: \(error.description)")
            exit(withError: ExitCode(1))
        } catch let error as AppError {
            Output.error(error.description.contains(": error: ") ? error.description : "quire: error: \(error.description)")
            exit(withError: ExitCode(1))
        } catch {
            Output.flush()
            exit(withError: error)
        }
    }
}
