import QuireIndex
import QuireModel
import QuireParsing

extension ReviewController {
    /// What ``takeIn(_:joining:)`` did, for the screen to say.
    public struct ChangesTaken: Equatable, Sendable {
        /// Notes of the session read again because they changed on disk.
        public var reread: [String] = []
        /// Cards of the session no longer in their notes (they will be skipped).
        public var gone: [CardID] = []
        /// Cards of the session whose text was edited so that their ID changed (a card never
        /// reviewed has an ID made from its text): (old ID, new ID); the session goes on with
        /// the new card in the old one's place.
        public var renamed: [(old: CardID, new: CardID)] = []
        /// Cards that became due in a changed note and joined the session.
        public var joined: [CardID] = []

        public var isEmpty: Bool { reread.isEmpty && gone.isEmpty && joined.isEmpty && renamed.isEmpty }

        public static func == (a: ChangesTaken, b: ChangesTaken) -> Bool {
            a.reread == b.reread && a.gone == b.gone && a.joined == b.joined
                && a.renamed.elementsEqual(b.renamed) { $0.old == $1.old && $0.new == $1.new }
        }
    }

    /// Takes in note files changed on disk while the session runs (another editor, a sync): a
    /// note of the session is read again, so an edited card shows its new text and a deleted one
    /// is skipped; a card of a changed note that `joining` admits (due now, in the session's
    /// selection) joins the session. The session's own writes read back unchanged and are ignored.
    ///
    /// - Parameters:
    ///   - changes: a watcher's batch.
    ///   - joining: the section a card of a changed note would join in, or nil to leave it out.
    public mutating func takeIn(_ changes: [FileChange], joining: (Card, Note) -> StudyPlan.Section?) -> ChangesTaken {
        var taken = ChangesTaken()
        var paths: [(path: String, removed: Bool)] = []
        for change in changes {
            switch change {
            case .changed(let p): paths.append((p, false))
            case .removed(let p): paths.append((p, true))
            case .rescan: paths += notesByPath.keys.sorted().map { ($0, false) }
            }
        }
        let inSession = Set(session.pending.map(\.card))
        let done = Set(session.answers.map(\.entry.card)).union(session.removed)
        for (path, removed) in paths {
            let before = notesByPath[path]
            var after: Note?
            if !removed, let bytes = try? writer.vault.io.read(writer.vault.fullPath(path)).bytes {
                after = NoteParser.parse(bytes, path: path, syntax: writer.syntax).note
            }
            if let before, let after, before.contentDigest == after.contentDigest { continue }
            if before == nil && after == nil { continue }
            let ids = Set(after?.cards.map(\.id) ?? [])
            let oldIDs = Set(before?.cards.map(\.id) ?? [])
            var lost = (before?.cards ?? []).filter { inSession.contains($0.id) && !ids.contains($0.id) }
            // A lost card whose text is close to a card that is new in the note is that card, edited.
            var fresh = (after?.cards ?? []).filter { !oldIDs.contains($0.id) && !inSession.contains($0.id) }
            lost.removeAll { old in
                let print = old.fingerprint
                guard let (i, _) = fresh.enumerated()
                    .compactMap({ i, c in print.distance(to: c.fingerprint).map { (i, $0) } })
                    .filter({ $0.1 <= CardMatcher.similarityThreshold })
                    .min(by: { $0.1 < $1.1 }) else { return false }
                let successor = fresh.remove(at: i)
                replace(old.id, with: successor.id, path: path)
                taken.renamed.append((old.id, successor.id))
                return true
            }
            taken.gone += lost.map(\.id)
            for card in lost { remove(card.id) }
            var joined: [StudySession.Entry] = []
            if let after {
                let renamed = Set(taken.renamed.map(\.new))
                for card in after.cards where !inSession.contains(card.id) && !done.contains(card.id) && !renamed.contains(card.id) {
                    if let section = joining(card, after) { joined.append(.init(card: card.id, path: path, section: section)) }
                }
            }
            if before != nil || !joined.isEmpty {
                setNote(after, at: path)
                if before != nil, after != nil { taken.reread.append(path) }
            }
            for entry in joined { add(entry) }
            taken.joined += joined.map(\.card)
        }
        return taken
    }
}
