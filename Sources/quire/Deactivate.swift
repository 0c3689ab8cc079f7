import ArgumentParser
import QuireModel

extension Quire {
    /// `quire deactivate QUERY`.
    struct Deactivate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "StudyFlow: make cards inactive (never due; counts kept).")

        @OptionGroup var options: VaultOptions
        @OptionGroup var action: CardActionOptions

        func run() throws {
            var context = try ReviewContext(options)
            try context.apply({ _ in .deactivate }, action, now: options.now, verb: "deactivated")
        }
    }
}
