import QuireApp
import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex
import QuireSupport
import QuireWatch
import QuireSearch

extension Quire {
    /// `quire watch`.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Keep the index current and print each change to it as it happens (Ctrl-C stops).",
            discussion: """
            Every note created, edited, renamed, moved or deleted (also whole folders, and editors that \
            save through a temporary file) is read again within a fraction of a second. With --json, \
            one JSON object per line: first {"event":"ready",...}, then one per note change \
            ({"event":"added"|"changed"|"removed","path":...,"cards":{"added":[...],"removed":[...],\
            "changed":[...]},"diagnostics":[...]}), and {"event":"rescan","reason":...} when events \
            were lost and the whole vault was read again. When the vault has a search index \
            (.quire/cache/search.sqlite, made by the first search), it is kept current too: words, and \
            vectors with the model installed.

            Example: quire watch --json
            """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let vault = try options.open()
            let live: LiveIndex
            do { live = try LiveIndex(vault: vault, cached: !options.noCache) } catch { throw CLIError(error.description) }
            let errors = live.index.diagnostics.filter { $0.severity == .error }
            Output.diagnostics(errors, root: vault.root, toStandardError: true, color: false)
            if listing.json {
                Output.line(JSONValue.object([("event", .string("ready")), ("notes", .int(live.index.notes.count)),
                                              ("cards", .int(live.index.cardCount))]).serialized())
            } else {
                Output.error("Watching \(vault.root): \(Plural.counted(live.index.notes.count, "note")), \(Plural.counted(live.index.cardCount, "card")). Ctrl-C stops.")
            }
            Output.flush()
            let search = SearchFollower(vault: vault, index: live.index)
            while true {
                let events: [LiveIndex.Event]
                do {
                    guard let batch = try live.next(timeout: nil) else { continue }
                    events = batch
                } catch {
                    throw CLIError(error.description)
                }
                for event in events { print(event, index: live.index, root: vault.root) }
                if let warning = search?.follow(events, index: live.index) { Output.error("quire: warning: " + warning) }
                Output.flush()
            }
        }

        private func print(_ event: LiveIndex.Event, index: VaultIndex, root: String) {
            switch event {
            case .rescanned(let reason):
                if listing.json {
                    Output.line(JSONValue.object([("event", .string("rescan")), ("reason", .string(reason)),
                                                  ("notes", .int(index.notes.count)), ("cards", .int(index.cardCount))]).serialized())
                } else {
                    Output.error("quire: warning: \(reason); read the whole vault again (\(Plural.counted(index.notes.count, "note")))")
                }
            case .note(let u):
                if listing.json {
                    let ids: ([CardID]) -> JSONValue = { .array($0.map { .string($0.rawValue) }) }
                    Output.line(JSONValue.object([
                        ("event", .string(u.kind.rawValue)), ("path", .string(u.path)),
                        ("cards", .object([("added", ids(u.addedCards)), ("removed", ids(u.removedCards)),
                                           ("changed", ids(u.changedCards))])),
                        ("diagnostics", .array(u.diagnostics.map(JSONRepresentation.diagnostic))),
                    ]).serialized())
                } else {
                    var parts: [String] = []
                    func count(_ n: Int, _ what: String) { if n > 0 { parts.append("\(Plural.counted(n, "card")) \(what)") } }
                    count(u.addedCards.count, "added")
                    count(u.removedCards.count, "removed")
                    count(u.changedCards.count, "changed")
                    Output.line("\(u.kind.rawValue) \(u.path)" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")))
                    let errors = u.diagnostics.filter { $0.severity != .note }
                    Output.diagnostics(errors, root: root, toStandardError: true, color: false)
                }
            }
        }
    }
}
