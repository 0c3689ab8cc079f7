import QuireTerminal
import Foundation
import QuireIndex
import QuireModel
import QuireSystem
import QuireVault

/// Tab completion of queries and deck names, for the shell scripts `quire
/// --generate-completion-script bash|zsh|fish` writes: the shell runs quire to ask, in the
/// folder the user is in, and gets the vault's decks and tags (through the index cache).
enum QueryCompletion {
    /// The words of a query that start with `prefix`: the query's keys, and after `deck:` or
    /// `tag:` the vault's decks and tags, after `is:` the statuses, after `type:` the card kinds.
    @Sendable static func words(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        // bash splits words at `:` (COMP_WORDBREAKS): `deck:His` comes as `deck`, `:`, `His`, and
        // the shell then wants the value alone.
        if words.indices.contains(index), index >= 1 {
            if words[index] == ":" || prefix == ":" {
                return values(key: words[index - 1] + ":", prefix: "")
            }
            if index >= 2, words[index - 1] == ":" {
                return values(key: words[index - 2] + ":", prefix: prefix)
            }
        }
        let keys = ["deck:", "tag:", "is:", "type:", "path:", "cycle:", "category:", "id:"]
        guard let colon = prefix.firstIndex(of: ":") else { return keys.filter { $0.hasPrefix(prefix) } }
        let key = String(prefix[...colon])
        return values(key: key, prefix: String(prefix[prefix.index(after: colon)...])).map { key + $0 }
    }

    /// The values of a query key (`deck:`, `tag:`, …) that start with `prefix`.
    static func values(key: String, prefix: String) -> [String] {
        let candidates: [String]
        switch key {
        case "deck:": candidates = vault().decks
        case "tag:": candidates = vault().tags
        case "is:": candidates = CardStatus.allCases.map(\.rawValue)
        case "type:": candidates = CardKind.allCases.map(\.rawValue)
        case "cycle:": candidates = NoteCycle.allCases.map(\.rawValue)
        default: candidates = []
        }
        return candidates.filter { $0.hasPrefix(prefix) }
    }

    /// Deck names that start with `prefix` (for `--deck`).
    @Sendable static func decks(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        vault().decks.filter { $0.hasPrefix(prefix) }
    }

    /// The decks and tags of the vault found from the working directory (none outside a vault).
    static func vault() -> (decks: [String], tags: [String]) {
        guard let vault = try? Vault.discover(from: FileManager.default.currentDirectoryPath), vault.isInitialized else { return ([], []) }
        let index = vault.index(cached: true)
        var decks = Set<String>(), tags = Set<String>()
        for note in index.notes {
            var deck = note.deck
            while !deck.components.isEmpty {
                decks.insert(deck.description)
                guard let parent = DeckPath(components: Array(deck.components.dropLast())) else { break }
                deck = parent
            }
            for tag in note.tags { tags.insert(tag.name) }
        }
        return (decks.sorted(), tags.sorted())
    }
}
