import QuireTerminal
import ArgumentParser
import QuireApp
import QuireReview

extension Quire {
    /// `quire source-type list|add|remove`.
    struct SourceTypeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "source-type",
            abstract: "The kinds of source offered for notes (source_types in .quire/config.yaml).",
            discussion: "Example: quire source-type add Lecture",
            subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the source types.",
                                                            discussion: "Example: quire source-type list")
            @OptionGroup var options: VaultOptions
            func run() throws {
                for t in try LoadedVault.settings(of: try options.open()).config.sourceTypes { Output.line(t) }
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a source type.",
                                                            discussion: "Example: quire source-type add Lecture")
            @OptionGroup var options: VaultOptions
            @Argument(help: "Its name, like Course.") var name: String
            func validate() throws { try CategoryCommand.check(name) }
            func run() throws {
                do { try options.open().addSourceType(name) } catch let error as CategoryError { throw CLIError(error.description) }
                Output.line("source type \(name) added to .quire/config.yaml")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a source type (notes keep theirs).",
                                                            discussion: "Example: quire source-type remove Lecture")
            @OptionGroup var options: VaultOptions
            @Argument(help: "Its name.") var name: String
            func run() throws {
                do { try options.open().removeSourceType(name) } catch let error as CategoryError { throw CLIError(error.description) }
                Output.line("source type \(name) removed from .quire/config.yaml")
            }
        }
    }
}
