import QuireModel
import QuireParsing
import QuireSystem
import QuireVault

/// A card added to a note from the command line (`quire add`): its Markdown appended at the end
/// of the note (created when missing), after an empty line, in the note's line endings.
///
/// The note is read back before anything is written: the addition must make new cards, leave the
/// note's other cards as they were, and bring no new warning; otherwise it is refused with the
/// reason, and nothing is written.
public struct CardAddition: Sendable {
    /// The note's path in the vault.
    public var path: String
    /// The note's bytes as read; nil when the note is new.
    public var original: [UInt8]?
    /// The note with the card added.
    public var edited: [UInt8]
    /// The cards the addition makes, as the note now reads.
    public var cards: [Card]

    /// The Markdown for a card in Quire's syntax (FORMAT.md §3.9: the simplest syntax that reads
    /// back as exactly this card). A side typed empty is refused: on the command line it is a
    /// slip, not a card (an import keeps Anki's empty fields, fenced).
    public static func markdown(for draft: CardDraft) throws(EditError) -> String {
        if let empty = draft.normalized.sides.first(where: { $0.text.isEmpty }) {
            throw .invalid("cannot write this card: the \(empty.side.rawValue) is empty")
        }
        do {
            return try CardWriter.write(draft).markdown
        } catch {
            throw .invalid("cannot write this card: \(error)")
        }
    }

    /// Plans adding `markdown` (cards in the vault's syntax) to the note at `path`.
    ///
    /// - Throws: ``EditError`` when the path is not a note's inside the vault, the note cannot be
    ///   read, or the text does not add cards cleanly (no card, another card changed, a warning).
    public static func plan(_ markdown: String, to path: String, vault: Vault, syntax: CardSyntax) throws(EditError) -> CardAddition {
        let full: String
        do { full = try vault.notePath(path) } catch { throw .invalid(error.description) }
        var original: [UInt8]?
        if vault.io.linkStamp(full) != nil {
            do { original = try vault.io.read(full).bytes } catch { throw .invalid(error.description) }
        }
        let before = original ?? []
        let crlf = before.firstIndex(of: 0x0A).map { $0 > 0 && before[$0 - 1] == 0x0D } ?? false
        // The text's lines, whatever their breaks, in the note's line ending.
        var lines: [ArraySlice<UInt8>] = []
        var bytes = Array(markdown.utf8)[...]
        while !bytes.isEmpty {
            let end = bytes.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.endIndex
            lines.append(bytes[..<end])
            bytes = bytes[end...]
            if bytes.first == 0x0D { bytes = bytes.dropFirst() }
            if bytes.first == 0x0A { bytes = bytes.dropFirst() }
        }
        while let last = lines.last, last.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.removeLast() }
        guard !lines.isEmpty else { throw .invalid("no card to add") }
        let eol: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
        var edited = before
        if !edited.isEmpty {
            if edited.last != 0x0A { edited += eol }
            // An empty line before the card, unless the note ends with one.
            let body = edited.dropLast(eol.count)
            let lastLine = body[((body.lastIndex(of: 0x0A) ?? (body.startIndex - 1)) + 1)...]
            if !lastLine.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) || body.isEmpty { edited += eol }
        }
        for line in lines { edited += line + eol }

        let old = NoteParser.parse(before, path: path, syntax: syntax)
        let new = NoteParser.parse(edited, path: path, syntax: syntax)
        guard let note = new.note else {
            throw .invalid(new.diagnostics.first { $0.severity == .error }?.description ?? "\(path): the note would not read")
        }
        let oldCards = old.note?.cards ?? []
        let oldIDs = Set(oldCards.map(\.id))
        let added = note.cards.filter { !oldIDs.contains($0.id) }
        guard !added.isEmpty else { throw .invalid("the text makes no new card in \(path) (is it in the vault's card syntax?)") }
        for card in oldCards {
            guard let same = note.cards.first(where: { $0.id == card.id }), same.front == card.front, same.back == card.back else {
                throw .invalid("adding this would change the card at \(path):\(card.lines.lowerBound); put an empty line or a heading before it in the note, or add to another note")
            }
        }
        let warnings = new.diagnostics.filter { d in !old.diagnostics.contains { $0.message == d.message } }
        if let first = warnings.first { throw .invalid("\(first) — nothing added") }
        return CardAddition(path: path, original: original, edited: edited, cards: added)
    }

    /// Writes the planned note atomically, holding the vault's write lock, if it still holds what
    /// was read (a new note: if it still does not exist).
    public func write(to vault: Vault) throws(EditError) {
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .invalid(error.description) }
        defer { lock.release() }
        do {
            let full = try vault.notePath(path)
            try vault.io.makeDirectories(FileIO.directory(of: full))
            try vault.io.replace(full, with: edited, expected: original)
        } catch {
            throw .invalid(error.description)
        }
    }
}
