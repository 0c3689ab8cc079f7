import QuireModel
import QuireParsing
import QuireSystem
import QuireVault

extension CardInsertion {
    /// Why cards were not written to a note; nothing was written to it.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Writes `cards` into the note at `path` (made, with a `created:` key and a title from its
    /// name, when it does not exist), under the vault's write lock, atomically and only if the
    /// note is still as read; the note must read back with exactly the new cards added, each
    /// under its source's heading path when placed in its section, and no new error.
    public static func write(_ cards: [CardProposal], to path: String, in vault: Vault, created: Timestamp,
                             placement: Placement = .section) throws(WriteError) {
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw WriteError(description: error.description) }
        defer { lock.release() }
        let file: String
        do { file = try vault.notePath(path) } catch { throw WriteError(description: error.description) }
        var original: [UInt8]?
        if vault.io.linkStamp(file) != nil {
            do { original = try vault.io.read(file).bytes } catch { throw WriteError(description: error.description) }
        }
        let before = original.map { NoteParser.parse($0, path: path) }
        var base = original ?? Array(("# " + (path.split(separator: "/").last.map { String($0.dropLast(3)) } ?? "Cards") + "\n").utf8)
        if original == nil { base = Array(("---\ncreated: " + created.description + "\n---\n").utf8) + base }
        let edited = inserting(cards, into: base, placement: placement)
        let (after, found) = NoteParser.parse(edited, path: path)
        let oldErrors = before?.diagnostics.filter { $0.severity == .error }.count ?? 0
        guard let after, readsBack(cards, placement: placement, before: before?.note?.cards ?? [], after: after.cards),
              found.filter({ $0.severity == .error }).count == oldErrors else {
            throw WriteError(description: "the cards would not read back as written; nothing written to it")
        }
        do {
            if let original {
                try vault.io.replace(file, with: edited, expected: original)
            } else {
                try vault.io.createNew(file, with: edited)
            }
        } catch { throw WriteError(description: "\(error.description); nothing written to it") }
    }

    /// Whether `after` is `before` with exactly `cards` added, and those placed in their sections
    /// under their sources' heading paths (compared with spaces collapsed).
    static func readsBack(_ cards: [CardProposal], placement: Placement, before: [Card], after: [Card]) -> Bool {
        guard after.count == before.count + cards.count else { return false }
        guard placement == .section else { return true }
        func key(_ path: [String]) -> [String] { path.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } }
        var paths: [[String]: Int] = [:]
        for card in after { paths[key(card.headingPath), default: 0] += 1 }
        for card in before { paths[key(card.headingPath), default: 0] -= 1 }
        for card in cards where card.source == nil { paths[key(card.headingPath), default: 0] -= 1 }
        return paths.values.allSatisfy { $0 >= 0 }
    }
}
