import ArgumentParser
import QuireModel
import QuireVault

extension Quire {
    /// `quire tag add|remove TAG [QUERY]`.
    struct TagCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tag",
            abstract: "Add or remove a tag in the front matter of every note matching a query.",
            subcommands: [Add.self, Remove.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a tag (keeps the file's list style).")
            @OptionGroup var options: VaultOptions
            @OptionGroup var edit: EditOptions
            @Argument(help: "The tag.") var tag: String
            @Argument(parsing: .allUnrecognized, help: "A query selecting notes (default: every note).")
            var query: [String] = []

            func run() throws {
                guard let t = QuireModel.Tag(tag) else { throw CLIError("'\(tag)' is not a valid tag") }
                try LoadedVault(options).edit(.addTag(t), queryWords: query, options: options, edit: edit, verb: "tagged")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a tag from the front matter.")
            @OptionGroup var options: VaultOptions
            @OptionGroup var edit: EditOptions
            @Argument(help: "The tag.") var tag: String
            @Argument(parsing: .allUnrecognized, help: "A query selecting notes (default: every note).")
            var query: [String] = []

            func run() throws {
                guard let t = QuireModel.Tag(tag) else { throw CLIError("'\(tag)' is not a valid tag") }
                try LoadedVault(options).edit(.removeTag(t), queryWords: query, options: options, edit: edit, verb: "untagged")
            }
        }
    }
}
