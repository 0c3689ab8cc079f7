import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireSupport

extension Quire {
    /// `quire tags`.
    struct Tags: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tags",
            abstract: "List every tag with the number of notes and cards that carry it.",
            discussion: "Example: quire tags --json")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let loaded = try LoadedVault(options)
            let counts = loaded.index.tagCounts()
            if listing.json {
                Output.line(JSONValue.array(counts.map { .object([("tag", .string($0.tag.name)), ("notes", .int($0.notes)),
                                                                  ("cards", .int($0.cards))]) }).serialized(pretty: true))
                return try loaded.finish()
            }
            Table.print(counts.map { [$0.tag.name, String($0.notes), String($0.cards)] }, header: ["TAG", "NOTES", "CARDS"],
                        tabs: false, rightAligned: [1, 2])
            try loaded.finish()
        }
    }
}
