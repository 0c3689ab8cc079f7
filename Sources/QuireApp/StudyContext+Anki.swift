import QuireInterchange
import QuireSystem

extension StudyContext {
    /// Anki's `package` (read from `file`, named `name`) planned into this vault's `folder`:
    /// notes and media new to the vault, cards with their states (buried ones until the study day
    /// ends), the log lines not logged already; a note the vault has (by its deck and front, or
    /// an earlier import of it) and media already there are not planned again.
    public func plan(_ package: AnkiPackage, file: String, name: String, folder: String) -> AnkiImport {
        let vault = loaded.vault, index = loaded.index
        let fronts = CSVImport.fronts(in: index)
        let imported = AnkiImport.importedNotes(index.notes, vault: vault)
        return AnkiImport.plan(package, options: .init(source: name, folder: folder, now: now, buriedUntil: dayEnd, settings: config.settings,
                                                      logged: AnkiImport.loggedEvents(vault.reviewLog().events)),
                               existing: { fronts[$0 + "\n" + $1] },
                               existingNote: { imported[$0] },
                               sameMedia: AnkiImport.sameMedia(package: file, name: name, format: package.format, vault: vault),
                               taken: ImportedFiles.taken(in: vault))
    }
}
