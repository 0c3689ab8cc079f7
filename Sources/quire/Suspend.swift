import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire suspend QUERY`.
    enum Suspend: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "suspend",
            abstract: "Suspend cards (they never come up until unsuspended).",
            discussion: "Example: quire suspend deck:Spanish/Verbs")
        static let verb = "suspended"

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .suspend }
    }
}
