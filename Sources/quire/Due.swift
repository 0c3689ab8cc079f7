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
            let vault = try options.open()
            let config = vault.config().config
            let now = options.now
            let offset = Clock.utcOffset(at: now)
            // The cache answers alone when no note changed; otherwise the index is built (and the
            // cache updated).
            let notes: [(deck: DeckPath, archived: Bool, schedules: [SchedulingState])]
            let diagnostics: [Diagnostic]
            if !options.noCache, let cache = vault.cache, let summary = ScheduleSummary.load(root: vault.root, cache: cache, now: Clock.now()) {
                notes = summary.notes.map { ($0.deck, $0.archived, $0.schedules) }
                diagnostics = summary.diagnostics
            } else {
                let index = vault.index(cached: !options.noCache)
                notes = index.notes.map { note in (note.deck, note.archived, note.cards.compactMap(\.schedule)) }
                diagnostics = index.diagnostics
            }
            let errors = diagnostics.filter { $0.severity == .error }
            Output.diagnostics(errors, root: vault.root, toStandardError: true, color: false)
            var total = 0
            var byDeck: [DeckPath: Int] = [:]
            for note in notes where !note.archived {
                for s in note.schedules {
                    guard s.state != .new || s.flow != nil,
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
            Output.flush()
            if !errors.isEmpty { throw ExitCode(1) }
        }
    }
}
