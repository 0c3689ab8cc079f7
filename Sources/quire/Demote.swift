import ArgumentParser
import QuireModel

extension Quire {
    /// `quire demote QUERY`.
    struct Demote: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "StudyFlow: move cards down (mastered → reviewing → learning).")

        @OptionGroup var options: VaultOptions
        @OptionGroup var action: CardActionOptions

        func run() throws {
            var context = try ReviewContext(options)
            try context.apply({ _ in .demote }, action, now: options.now, verb: "demoted")
        }
    }
}
