import QuireSupport
import QuireModel
import QuireSystem

/// What one file's new version changed in the index.
public struct NoteUpdate: Equatable, Sendable {
    /// What happened to the note.
    public enum Kind: String, Sendable {
        /// A note that was not in the index is now.
        case added
        /// The note was read again and something in it differs.
        case changed
        /// The note left the index (deleted, moved away, or it no longer reads as a note).
        case removed
        /// The file was read again and nothing differs (the same bytes, or an edit that changed
        /// nothing Quire reads the same way).
        case unchanged
    }

    public var kind: Kind
    public var path: String
    /// Cards that are new in the index.
    public var addedCards: [CardID] = []
    /// Cards that left the index.
    public var removedCards: [CardID] = []
    /// Cards still there whose text, place or scheduling changed.
    public var changedCards: [CardID] = []
    /// The file's problems as read now (none when it was removed).
    public var diagnostics: [Diagnostic] = []
}

extension VaultIndex {
    /// Puts one file's new version into the index: `note` nil means the file no longer holds a
    /// note (deleted, or unreadable as one — its `diagnostics` then say why).
    ///
    /// Editing a note in place costs only its own cards; adding or removing one moves the later
    /// notes' card locations (one pass over the card table). A card ID that another note also
    /// uses makes the whole table be rebuilt, so duplicates are reported exactly as a full build
    /// reports them.
    @discardableResult
    public mutating func update(path: String, note: Note?, stamp: FileStamp?, diagnostics fileDiagnostics: [Diagnostic]) -> NoteUpdate {
        let position = insertionPoint(of: path)
        let exists = position < notes.count && notes[position].path == path
        let old = exists ? notes[position] : nil
        var result = NoteUpdate(kind: .unchanged, path: path, diagnostics: fileDiagnostics)
        let oldIDs = old.map { Set($0.cards.map(\.id)) } ?? []
        let newIDs = note.map { Set($0.cards.map(\.id)) } ?? []
        result.addedCards = note?.cards.map(\.id).filter { !oldIDs.contains($0) } ?? []
        result.removedCards = old?.cards.map(\.id).filter { !newIDs.contains($0) } ?? []
        if let old, let note {
            let before = Dictionary(old.cards.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            result.changedCards = note.cards.compactMap { card in
                guard let was = before[card.id] else { return nil }
                return was == card ? nil : card.id
            }
        }
        let oldDiagnostics = diagnostics.filter { $0.path == path && !crossFileDiagnostics.contains($0) }
        switch (old, note) {
        case (nil, nil):
            result.kind = .unchanged
        case (nil, .some):
            result.kind = .added
        case (.some, nil):
            result.kind = .removed
        case (.some(let a), .some(let b)):
            result.kind = a.contentDigest == b.contentDigest && a.contentDigest != 0 || a.readsTheSame(as: b) ? .unchanged : .changed
        }
        let sameBytes = old != nil && note != nil && old?.contentDigest == note?.contentDigest && old?.contentDigest != 0
        if (old == nil && note == nil || sameBytes) && oldDiagnostics == fileDiagnostics {
            if exists, let stamp, stamps.count == notes.count { stamps[position] = stamp }
            return result
        }
        // Per-file diagnostics are replaced; those across files are recomputed below if needed.
        diagnostics.removeAll { $0.path == path && !crossFileDiagnostics.contains($0) }
        diagnostics += fileDiagnostics
        // A card ID another note already uses needs the whole table (as do duplicates before).
        let collides = newIDs.contains { id in
            guard let loc = location(exactly: id) else { return false }
            return !(exists && loc.note == position)
        }
        let hadDuplicates = hasShadowedCards
        switch (exists, note) {
        case (true, let note?):
            replaceNote(at: position, with: note, stamp: stamp, oldIDs: oldIDs)
        case (true, nil):
            removeNote(at: position, ids: oldIDs)
        case (false, let note?):
            insertNote(note, at: position, stamp: stamp)
        case (false, nil):
            break
        }
        if collides || hadDuplicates || !crossFileDiagnostics.isEmpty {
            rebuildLocations()
        } else {
            Self.sortDiagnostics(&diagnostics)
        }
        return result
    }

    /// Removes a note by path, if the index has it.
    @discardableResult
    public mutating func remove(path: String) -> NoteUpdate {
        update(path: path, note: nil, stamp: nil, diagnostics: [])
    }

    /// Where a note with `path` is or would go in the path order.
    func insertionPoint(of path: String) -> Int {
        var low = 0, high = notes.count
        while low < high {
            let mid = (low + high) / 2
            if utf8Precedes(notes[mid].path, path) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
