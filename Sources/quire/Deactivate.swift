import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire deactivate QUERY`.
    enum Deactivate: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "deactivate",
            abstract: "StudyFlow: make cards inactive (never due; counts kept).",
            discussion: "Example: quire deactivate id:7k2m")
        static let verb = "deactivated"

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .deactivate }
    }
}
