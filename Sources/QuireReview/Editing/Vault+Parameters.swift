import QuireIndex
import QuireModel
import QuireScheduling
import QuireSystem
import QuireYAML
import QuireVault

extension Vault {
    /// Stores fitted FSRS parameters in `.quire/config.yaml` with the day they were fitted, for
    /// the whole vault or for a deck prefix (FORMAT.md §7), written atomically if the file is
    /// still as read; the file's other bytes are kept.
    public func setFittedParameters(_ parameters: FSRSParameters, fittedOn day: Day, deck: DeckPath?) throws(CategoryError) {
        try editConfig { (file) throws(YAMLError) in
            try ConfigEdit.setParameters(parameters.values, fittedOn: day.description, deck: deck?.description, in: file)
        }
    }

    /// Sets `card_syntax:` in `.quire/config.yaml` (`quire import obsidian-sr`), written
    /// atomically under the write lock if the file is still as read; its other bytes are kept.
    public func setCardSyntax(_ name: String) throws(CategoryError) {
        try editConfig { (file) throws(YAMLError) in try ConfigEdit.setCardSyntax(name, in: file) }
    }
}
