import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire demote QUERY`.
    enum Demote: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "demote",
            abstract: "StudyFlow: move cards down (mastered → reviewing → learning).",
            discussion: "Example: quire demote 7k2m")
        static let verb = "demoted"

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .demote }
    }
}
