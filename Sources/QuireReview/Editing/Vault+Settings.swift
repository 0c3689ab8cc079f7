import QuireIndex
import QuireModel
import QuireSystem
import QuireYAML
import QuireVault

extension Vault {
    /// Sets one setting of `.quire/config.yaml` — for the vault, or for a deck under `decks:` —
    /// or removes it (`value` nil: back to the default, or to the vault's value for a deck). The
    /// value is YAML as it would be written (`0.85`, `[1m, 10m]`, `sm2`). The edit keeps the
    /// file's comments, order and quoting, is written atomically under the write lock if the file
    /// is still as read, and is refused — nothing written — when the key is unknown, the deck may
    /// not set it, or the file would not read the value (the reader's own message, located).
    public func setSetting(_ name: String, to value: String?, deck: DeckPath?) throws(CategoryError) {
        guard let key = ConfigKeys.key(name) else {
            throw .invalid(ConfigKeys.unknown(name))
        }
        if deck != nil, !key.perDeck {
            throw .invalid("'\(name)' applies to the whole vault and cannot be set per deck")
        }
        if let value {
            guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .invalid("'\(name)' takes \(key.takes), on one line")
            }
        }
        let rel = Vault.folderName + "/config.yaml"
        try editConfig(checking: name) { (file) throws(YAMLError) in
            let yaml = value.map { YAMLValue.raw($0) }
            if let deck {
                let entry = (try? YAMLParser.parse(file))?.mapping?["decks"]?.mapping?.entries.last { DeckPath($0.key.value) == deck }
                let written = entry?.key.value ?? deck.description
                return try ConfigEdit.setKeys(yaml.map { [(name, $0)] } ?? [], removing: yaml == nil ? [name] : [], ofDeck: written, in: file)
            }
            return try ConfigEdit.setKey(name, to: yaml, in: file)
        } problems: { before, after in
            // A message the file did not give before is the reader refusing the new value.
            let old = Set(before.map(\.message))
            let new = after.filter { !old.contains($0.message) }
            guard !new.isEmpty else { return nil }
            return new.map { "\(rel):\($0.line ?? 0):\($0.column ?? 0): \($0.severity.rawValue): \($0.message)" }.joined(separator: "\n")
                + "\nnothing written ('\(name)' takes \(key.takes))"
        }
    }
}
