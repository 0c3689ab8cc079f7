import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire unsuspend QUERY`.
    enum Unsuspend: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "unsuspend",
            abstract: "Unsuspend cards.",
            discussion: "Example: quire unsuspend is:suspended deck:Spanish")
        static let verb = "unsuspended"

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .unsuspend }
    }
}
