import ArgumentParser
import QuireModel

extension Quire {
    /// `quire suspend QUERY`.
    struct Suspend: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Suspend cards (they never come up until unsuspended).")

        @OptionGroup var options: VaultOptions
        @OptionGroup var action: CardActionOptions

        func run() throws {
            var context = try ReviewContext(options)
            try context.apply({ _ in .suspend }, action, now: options.now, verb: "suspended")
        }
    }
}
