import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire unsuspend QUERY`.
    enum Unsuspend: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "unsuspend",
            abstract: "Unsuspend cards.")
        static let verb = "unsuspended"

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .unsuspend }
    }
}
