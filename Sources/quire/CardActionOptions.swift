import QuireTerminal
import QuireSupport
import ArgumentParser
import QuireApp
import QuireModel
import QuireIndex
import QuireReview

/// Shared by the commands that change cards a query selects (`suspend`, `bury`, `reset`, `promote` …).
struct CardActionOptions: ParsableArguments {
    @Flag(help: "Show the changes as a unified diff and write nothing.")
    var dryRun = false
    @Flag(help: "With 'all', change every card without asking (what scripts must say).")
    var all = false
    @Argument(parsing: .allUnrecognized, help: "A query selecting cards, e.g. deck:Spanish tag:verbs, or a card ID.", completion: .custom(QueryCompletion.words))
    var query: [String] = []

    func validate() throws {
        guard !query.filter({ $0 != "--" }).isEmpty else {
            throw ValidationError("give a query or card ID (use 'all' explicitly to select every card)")
        }
    }
}

extension ReviewContext {
    /// Records `action` on every card the query selects, note by note: each note's events are
    /// logged, then the note is written atomically. A note that fails is reported and the others go
    /// on; exit status 1 at the end if any failed.
    mutating func apply(_ action: (Card) -> ReviewAction?, _ options: CardActionOptions, now: Timestamp, verb: String,
                        asksBeforeEveryCard: Bool = false) throws {
        let words = options.query.filter { $0 != "--" }
        let loaded = index()
        let index = loaded.index
        var selected: [CardLocation]
        if words == ["all"] {
            selected = index.cards(matching: try LoadedVault.query([]), now: now, dayEnd: try loaded.dayEnd(at: now))
            if asksBeforeEveryCard, !options.dryRun {
                try Confirmation.everything(Plural.counted(selected.count, "card"), confirmed: options.all)
            }
        } else if words.count == 1, let loc = index.location(of: words[0]), !words[0].contains(":") {
            selected = [loc]
        } else {
            selected = index.cards(matching: try LoadedVault.query(words, in: loaded.vault), now: now, dayEnd: try loaded.dayEnd(at: now))
        }
        var byNote: [Int: [ReviewWriter.Request]] = [:]
        for loc in selected {
            let card = index.card(at: loc)
            if let a = action(card) { byNote[loc.note, default: []].append(ReviewWriter.Request(card: card.id, action: a)) }
        }
        var changed = 0, failed = false
        for n in byNote.keys.sorted() {
            let path = index.notes[n].path
            do {
                let outcome = try writer.record(byNote[n] ?? [], inNote: path, at: now, dryRun: options.dryRun)
                if let diff = outcome.diff { Output.write(diff) }
                for c in outcome.changes where c.before != c.after {
                    changed += 1
                    if !options.dryRun { Output.line("\(verb) \(c.card) (\(path)): \(Self.summary(c.after, now: now))") }
                }
            } catch {
                failed = true
                Output.error(error.description.contains(": error: ") ? error.description : "quire: error: \(error.description)")
            }
        }
        Output.error("\(verb) \(changed) of \(selected.count) matching card\(selected.count == 1 ? "" : "s")\(options.dryRun ? " (dry run)" : "")")
        Output.flush()
        if failed || index.hasErrors { throw ExitCode(1) }
    }
}
