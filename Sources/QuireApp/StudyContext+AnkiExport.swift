import QuireIndex
import QuireInterchange
import QuireSystem

extension StudyContext {
    /// The cards `query` selects as an Anki package (Anki's legacy format, which every Anki
    /// opens): each card with its note, its review history and the media it embeds; a cloze with
    /// its note's text around it. Returns the package's bytes and what it holds.
    public func ankiPackage(_ query: Query) throws(AppError) -> (bytes: [UInt8], summary: AnkiExport.Summary) {
        let vault = loaded.vault, index = loaded.index
        let locations = index.cards(matching: query, now: now, dayEnd: dayEnd)
        var noteBytes: [String: [UInt8]] = [:]
        let items = locations.map { loc in
            let card = index.card(at: loc), note = index.notes[loc.note]
            var clozeText: String?
            if card.kind == .cloze {
                if noteBytes[note.path] == nil {
                    noteBytes[note.path] = (try? vault.notePath(note.path)).flatMap { try? vault.io.read($0).bytes } ?? []
                }
                clozeText = AnkiExport.clozeText(of: card, in: noteBytes[note.path] ?? [])
            }
            return AnkiExport.Item(card: card, note: note, events: history.events[card.id] ?? [], clozeText: clozeText)
        }
        let work = try ScratchFolder("quire-export")
        defer { work.remove() }
        let package = work.path + "/export.apkg"
        do {
            let summary = try AnkiExport.write(items, now: now, media: { target, note in
                guard let full = vault.attachmentPath(target, fromNote: note), let bytes = try? vault.io.read(full).bytes else { return nil }
                return (String(full.split(separator: "/").last ?? "file"), bytes)
            }, settings: eventSettings(decks: decks(of: locations)), to: package, work: work.path)
            return (try FileIO().read(package).bytes, summary)
        } catch {
            throw .exportFailed("\(error); no export written")
        }
    }
}
