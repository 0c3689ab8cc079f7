import QuireTerminal
import ArgumentParser
import QuireApp
import QuireSupport

extension Quire {
    /// `quire curate status [--json]`.
    struct CurateStatus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Every curation review that is due, missed ones included, oldest first.",
            discussion: "Example: quire curate status --json")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let context = try CurationContext(options)
            let pending = context.curation.pending(today: context.today)
            if listing.json {
                Output.line(JSONValue.array(pending.map(CurationContext.json)).serialized(pretty: true))
            } else if pending.isEmpty {
                Output.line("No curation review is due.")
            } else {
                Table.print(pending.map(CurationContext.line), header: ["PERIOD", "", "STATE", "NOTES"], tabs: !Output.isTerminal)
            }
            try context.loaded.finish()
        }
    }
}
