import QuireTerminal
import ArgumentParser
import QuireModel
import QuireIndex

extension Quire {
    /// `quire promote QUERY`.
    enum Promote: CardAction {
        static let configuration = CommandConfiguration(
            commandName: "promote",
            abstract: "StudyFlow: move cards up (learning → reviewing → mastered; inactive → learning).",
            discussion: "Example: quire promote 7k2m")
        static let verb = "promoted"

        static func action(_ options: NoCardActionOptions, now: Timestamp, config: VaultConfig) -> ReviewAction { .promote }
    }
}
