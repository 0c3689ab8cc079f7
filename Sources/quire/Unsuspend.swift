import ArgumentParser
import QuireModel

extension Quire {
    /// `quire unsuspend QUERY`.
    struct Unsuspend: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unsuspend cards.")

        @OptionGroup var options: VaultOptions
        @OptionGroup var action: CardActionOptions

        func run() throws {
            var context = try ReviewContext(options)
            try context.apply({ _ in .unsuspend }, action, now: options.now, verb: "unsuspended")
        }
    }
}
