import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire reset QUERY`.
    enum Reset: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Forget cards' scheduling history (the log keeps it); they become new.",
            discussion: "Example: quire reset id:7k2m")
        static let verb = "reset"
        static let asksBeforeEveryCard = true

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .reset }
    }
}
