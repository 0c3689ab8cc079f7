import ArgumentParser
import QuireModel
import QuireScheduling
import QuireVault

extension Quire {
    /// `quire due`.
    struct Due: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print how many cards are due now (for a shell prompt); --json gives the count per deck.",
            discussion: "Due means due on today's study day (see day_rollover), not suspended, buried or archived; new cards are not counted.")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let loaded = try LoadedVault(options)
            let config = loaded.vault.config().config
            let now = options.now
            let offset = Clock.utcOffset(at: now)
            var total = 0
            var byDeck: [DeckPath: Int] = [:]
            for note in loaded.index.notes where !note.archived {
                for card in note.cards {
                    guard let s = card.schedule, s.state != .new || s.flow != nil,
                          Day.isDue(s, now: now, utcOffsetSeconds: offset, rolloverHour: config.dayRollover) else { continue }
                    total += 1
                    byDeck[note.deck, default: 0] += 1
                }
            }
            if listing.json {
                Output.line(JSONValue.object([
                    ("due", .int(total)),
                    ("decks", .object(byDeck.keys.sorted().map { ($0.description, .int(byDeck[$0] ?? 0)) })),
                ]).serialized(pretty: true))
            } else {
                Output.line(String(total))
            }
            try loaded.finish()
        }
    }
}
