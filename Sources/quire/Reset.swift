import ArgumentParser
import QuireModel

extension Quire {
    /// `quire reset QUERY`.
    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget cards' scheduling history (the log keeps it); they become new.")

        @OptionGroup var options: VaultOptions
        @OptionGroup var action: CardActionOptions

        func run() throws {
            var context = try ReviewContext(options)
            try context.apply({ _ in .reset }, action, now: options.now, verb: "reset")
        }
    }
}
