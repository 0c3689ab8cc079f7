import ArgumentParser

extension Quire {
    /// `quire import csv …`: bringing cards and notes in from other formats.
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Bring cards and notes in from other formats.",
            discussion: "Everything is checked before anything is written; then the new notes are moved into place all together.",
            subcommands: [ImportCSV.self])
    }
}
