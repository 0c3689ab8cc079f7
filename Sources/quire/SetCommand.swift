import QuireTerminal
import ArgumentParser
import QuireApp

extension Quire {
    /// `quire set KEY=VALUE [QUERY]`.
    struct SetCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a front-matter key in every note matching a query (default: every note).",
            discussion: "Example: quire set cycle=monthly path:'History/**' --dry-run")

        @OptionGroup var options: VaultOptions
        @OptionGroup var edit: EditOptions
        @Argument(help: "KEY=VALUE, e.g. cycle=weekly.") var assignment: String
        @Argument(parsing: .allUnrecognized, help: "A query selecting notes.", completion: .custom(QueryCompletion.words))
        var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
                throw ValidationError("expected KEY=VALUE, got '\(assignment)'")
            }
        }

        func run() throws {
            let eq = assignment.firstIndex(of: "=") ?? assignment.endIndex
            let key = String(assignment[..<eq])
            let value = eq < assignment.endIndex ? String(assignment[assignment.index(after: eq)...]) : ""
            try LoadedVault(options).edit(.set(key: key, value: value), queryWords: query, options: options, edit: edit,
                                          verb: "set \(key) in")
        }
    }
}
