import ArgumentParser

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
        subcommands: [Init.self, Check.self, List.self, Show.self, Decks.self, Tags.self, TagCommand.self,
                      SetCommand.self, Unset.self]
    )

    static func main() {
        Output.ignoreBrokenPipeSignal()
        do {
            var command = try parseAsRoot()
            try command.run()
            Output.flush()
        } catch {
            Output.flush()
            exit(withError: error)
        }
    }
}
