import QuireModel
import QuireParsing
import QuireSystem

extension CardInsertion {
    /// Why cards were not written to a note; nothing was written to it.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Writes `cards` into the note at `path` (made, with a `created:` key and a title from its
    /// name, when it does not exist), under the vault's write lock, atomically and only if the
    /// note is still as read; the note must read back with exactly the new cards added and no
    /// new error.
    public static func write(_ cards: [CardProposal], to path: String, in vault: Vault, created: Timestamp) throws(WriteError) {
        let lock: VaultLock.Token
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
        let edited = inserting(cards, into: base)
        let (after, found) = NoteParser.parse(edited, path: path)
        let oldCount = before?.note?.cards.count ?? 0
        let oldErrors = before?.diagnostics.filter { $0.severity == .error }.count ?? 0
        guard let after, after.cards.count == oldCount + cards.count, found.filter({ $0.severity == .error }).count == oldErrors else {
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
}
