import QuireTerminal
import ArgumentParser
import QuireApp

extension Quire {
    /// `quire unset KEY [QUERY]`.
    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset",
            abstract: "Remove a front-matter key from every note matching a query (default: every note).",
            discussion: """
                A front matter left empty goes: a key set on a note without front matter, then unset, gives the \
                note's bytes back.

                Example: quire unset cycle path:'History/**'
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var edit: EditOptions
        @Argument(help: "The key.") var key: String
        @Argument(parsing: .allUnrecognized, help: "A query selecting notes.", completion: .custom(QueryCompletion.words))
        var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
        }

        func run() throws {
            try LoadedVault(options).edit(.unset(key: key), queryWords: query, options: options, edit: edit,
                                          verb: "unset \(key) in")
        }
    }
}
