/// Which syntax a vault's cards are written in (`card_syntax` in `.quire/config.yaml`, FORMAT.md §3.8).
public enum CardSyntax: Sendable, Equatable {
    /// Quire's own syntax (FORMAT.md §3.1–§3.7), read from the Markdown tree.
    case quire
    /// Exactly the cards the Obsidian spaced-repetition plugin finds, with its settings.
    case obsidianSR(ObsidianSRSettings)

    /// A digest of everything that changes which cards are found (0 for Quire's own syntax), kept
    /// with the index cache so that a change of syntax or settings parses every note again.
    public var digest: UInt64 {
        switch self {
        case .quire: 0
        case .obsidianSR(let settings): settings.digest | 1
        }
    }
}
