import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireScheduling
import QuireIndex
import QuireSupport
import QuireSystem
import QuireVault

extension Quire {
    /// `quire due`.
    struct Due: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "due",
            abstract: "Print how many cards are due now (for a shell prompt); --json gives the count per deck.",
            discussion: """
                Due as every command counts it (FORMAT.md §7.1): review cards due on today's study day (see \
                day_rollover), learning steps whose time has come; not new, suspended, buried or archived.

                --prompt is for a shell prompt: it prints the count only when cards are due (nothing when \
                none), never a message, and reads one section of the index cache alone — the cards as of the \
                last time any command read the vault (a note edited since counts as it was), due as of now. \
                Outside a vault made with quire init it prints nothing and exits 1.

                Example: quire due; quire due --json; PS1='$(quire due --prompt 2>/dev/null) \\$ '
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Flag(help: "Print the count for a shell prompt, as of the last index; nothing when none is due.")
        var prompt = false

        /// The summary stays referenced until the process exits: freeing 100,000 notes one by one
        /// only to exit right after would cost a noticeable part of a prompt's wait.
        nonisolated(unsafe) private static var keptUntilExit: ScheduleSummary?

        func validate() throws {
            if prompt && listing.json { throw ValidationError("--prompt and --json are two forms of the answer: choose one") }
        }

        func run() throws {
            if prompt { return try runForPrompt() }
            let vault = try options.open()
            let config = try LoadedVault.settings(of: vault).config
            // The clock, read once: the cache compares it with files' times, and unless `--now`
            // pins the time (tests), it is also the time cards are due at.
            let clock = Clock.now()
            let now = options.pinnedNow ?? clock
            let dayEnd = StudyCalendar(config).end(containing: now)
            let (total, byDeck, diagnostics) = counts(vault, now: now, dayEnd: dayEnd, clock: clock)
            let errors = diagnostics.filter { $0.severity == .error }
            // Quiet for a shell prompt: the count alone on standard output; a file that could not be
            // read (its cards are not counted) is one line on standard error. Warnings are
            // `quire check`'s: a prompt would repeat them at every command.
            if !errors.isEmpty {
                Output.error("quire: \(Plural.counted(errors.count, "error")) in the vault ('quire check' shows them)")
            }
            if listing.json {
                // The curation reviews due need every note's level and dates: the index, read
                // through its cache (only --json asks; the bare count stays the prompt's fast path).
                let loaded = try LoadedVault(options, reportErrors: false)
                let curation = CurationContext(loaded: loaded, config: config, now: now)
                Output.line(JSONValue.object([
                    ("due", .int(total)),
                    ("decks", .object(byDeck.keys.sorted().map { ($0.description, .int(byDeck[$0] ?? 0)) })),
                    ("curation", .int(curation.curation.pending(today: curation.today).count)),
                ]).serialized(pretty: true))
            } else {
                Output.line(String(total))
            }
            Output.flush()
            if !errors.isEmpty { throw ExitCode(1) }
        }

        /// The cards due, in all and by deck, with every problem the index reports. The cache
        /// answers alone when few notes changed; otherwise the index is built (and the cache
        /// updated). `clock`: the wall clock, which the cache compares with files' times.
        private func counts(_ vault: Vault, now: Timestamp, dayEnd: Timestamp, clock: Timestamp)
            -> (total: Int, byDeck: [DeckPath: Int], diagnostics: [Diagnostic]) {
            var total = 0
            var byDeck: [DeckPath: Int] = [:]
            func count(_ deck: DeckPath, archived: Bool, _ schedules: [SchedulingState]) {
                guard !archived else { return }
                for s in schedules where s.isDue(at: now, dayEnd: dayEnd) {
                    total += 1
                    byDeck[deck, default: 0] += 1
                }
            }
            if !options.noCache, let cache = vault.cache, let summary = ScheduleSummary.load(root: vault.root, cache: cache, now: clock) {
                for note in summary.notes { count(note.deck, archived: note.archived, note.schedules) }
                Self.keptUntilExit = summary
                return (total, byDeck, summary.diagnostics)
            }
            let index = vault.index(cached: !options.noCache)
            for note in index.notes { count(note.deck, archived: note.archived, note.cards.compactMap(\.schedule)) }
            return (total, byDeck, index.diagnostics)
        }

        /// `--prompt`: the due section of the index cache alone, else (no cache yet) the count as
        /// `quire due` makes it, which writes the cache. Quiet whatever happens.
        private func runForPrompt() throws {
            // Only in a vault made with `quire init`: a prompt must not index whatever folder the
            // shell is in (a home folder full of Markdown).
            guard var vault = try? options.open(), vault.isInitialized,
                  let config = try? LoadedVault.settings(of: vault).config else {
                throw ExitCode(1)
            }
            vault.progress = nil
            let clock = Clock.now()
            let now = options.pinnedNow ?? clock
            let dayEnd = StudyCalendar(config).end(containing: now)
            let count: Int
            if !options.noCache, let cache = vault.cache, let counted = DueSummary.dueCount(in: cache, at: now, dayEnd: dayEnd) {
                count = counted
            } else {
                count = counts(vault, now: now, dayEnd: dayEnd, clock: clock).total
            }
            if count > 0 { Output.line(String(count)) }
            Output.flush()
        }
    }
}
