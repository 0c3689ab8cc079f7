import QuireTerminal
import ArgumentParser

extension Quire {
    /// `quire export csv|json|revlog OUT [QUERY]`: cards and history written out for other tools.
    struct ExportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write cards or the review history out for other tools.",
            discussion: "OUT is a file (replaced atomically) or - for standard output. A query limits the cards (docs/QUERIES.md).\n\nExample: quire export anki out.apkg",
            subcommands: [ExportCSV.self, ExportJSON.self, ExportRevlog.self, ExportAnki.self])
    }
}
