import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireReview

extension Quire {
    /// `quire tag add|remove TAG [QUERY]`.
    struct TagCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tag",
            abstract: "Add or remove a tag in the front matter of every note matching a query.",
            discussion: "Example: quire tag add week-3 deck:Chemistry --dry-run",
            subcommands: [Add.self, Remove.self])

        /// What both subcommands take.
        struct Arguments: ParsableArguments {
            @OptionGroup var options: VaultOptions
            @OptionGroup var edit: EditOptions
            @Argument(help: "The tag.") var tag: String
            @Argument(parsing: .allUnrecognized, help: "A query selecting notes (default: every note).", completion: .custom(QueryCompletion.words))
            var query: [String] = []

            func run(_ change: (QuireModel.Tag) -> FrontMatterChange, verb: String) throws {
                guard let t = QuireModel.Tag(tag) else { throw CLIError("'\(tag)' is not a valid tag") }
                try LoadedVault(options).edit(change(t), queryWords: query, options: options, edit: edit, verb: verb)
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a tag (keeps the file's list style).",
                                                            discussion: "Example: quire tag add week-3 deck:Chemistry")
            @OptionGroup var arguments: Arguments
            func validate() throws { try UnknownOptions.reject(arguments.query, of: Self.self) }
            func run() throws { try arguments.run(FrontMatterChange.addTag, verb: "tagged") }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a tag from the front matter.",
                                                            discussion: """
                                                                The last tag removed, the tags key goes, and a front matter left empty goes \
                                                                too: a tag added, then removed, gives the note's bytes back.

                                                                Example: quire tag remove week-3 tag:week-3
                                                                """)
            @OptionGroup var arguments: Arguments
            func validate() throws { try UnknownOptions.reject(arguments.query, of: Self.self) }
            func run() throws { try arguments.run(FrontMatterChange.removeTag, verb: "untagged") }
        }
    }
}
