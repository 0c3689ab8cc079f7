import ArgumentParser
import QuireModel

extension Quire {
    /// `quire promote QUERY`.
    struct Promote: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "StudyFlow: move cards up (learning → reviewing → mastered; inactive → learning).")

        @OptionGroup var options: VaultOptions
        @OptionGroup var action: CardActionOptions

        func run() throws {
            var context = try ReviewContext(options)
            try context.apply({ _ in .promote }, action, now: options.now, verb: "promoted")
        }
    }
}
