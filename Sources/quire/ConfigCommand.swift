import QuireTerminal
import ArgumentParser
import QuireApp
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSupport
import QuireSystem
import QuireVault

extension Quire {
    /// `quire config list|get|set|unset`.
    struct ConfigCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show and change the vault's settings (.quire/config.yaml), for the vault or a deck.",
            discussion: """
                Every setting with the value in use and where it comes from (the file's line, a deck's \
                entry, or the default). set and unset edit the file in place, its comments, order and \
                quoting kept; a value the file would not read is refused with the reader's message at \
                .quire/config.yaml:line:column and nothing is written. docs/FORMAT.md §7 describes each key.

                Examples: quire config list; quire config get desired_retention --deck Spanish; \
                quire config set new_per_day 30; quire config set learning_steps '[1m, 10m, 1h]' --deck Languages; \
                quire config unset desired_retention --deck Spanish
                """,
            subcommands: [List.self, Get.self, Set.self, Unset.self])

        /// Options the subcommands share.
        struct Target: ParsableArguments {
            @OptionGroup var options: VaultOptions
            @Option(help: ArgumentHelp("The deck whose settings to show or change (its sub-decks follow it).", valueName: "DECK"), completion: .custom(QueryCompletion.decks))
            var deck: String?

            func deckPath() throws -> DeckPath? {
                guard let deck else { return nil }
                guard let path = DeckPath(deck) else { throw ValidationError("'\(deck)' is not a deck name") }
                return path
            }

            /// Sets `key` to `value` (nil: unsets it) and says what was done.
            func write(_ key: String, _ value: String?) throws {
                let vault = try options.open()
                let deck = try deckPath()
                do { try vault.setSetting(key, to: value, deck: deck) } catch { throw CLIError(error.description) }
                let done = value.map { "set \(key): \(TerminalText.visible($0))" } ?? "unset \(key)"
                Output.line(done + (self.deck.map { " for deck \(TerminalText.visible($0))" } ?? ""))
            }

            func settings() throws -> [ConfigKeys.Setting] {
                let vault = try options.open()
                let (config, diagnostics) = try LoadedVault.settings(of: vault)
                Output.diagnostics(diagnostics, root: vault.root, toStandardError: true, color: false)
                let file = (try? vault.io.read(vault.internalPath(Vault.folderName + "/config.yaml")).bytes) ?? []
                return ConfigKeys.settings(file, config: config, deck: try deckPath())
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "Every setting, its value in use and where it comes from.",
                                                            discussion: "Example: quire config list --deck Languages")
            @OptionGroup var target: Target
            @Flag(help: "Print JSON: an array of {key, value, source, takes, per_deck}.") var json = false

            func run() throws {
                let settings = try target.settings()
                if json {
                    Output.line(JSONValue.array(settings.map { s in
                        let key = ConfigKeys.key(s.key)
                        return .object([("key", .string(s.key)), ("value", .string(s.value)), ("source", .string(s.source)),
                                        ("takes", .optional(key?.takes)), ("per_deck", .bool(key?.perDeck ?? false))])
                    }).serialized(pretty: true))
                    return
                }
                Table.print(settings.map { [$0.key, TerminalText.visible($0.value), $0.source] }, header: ["setting", "value", "from"],
                            tabs: !Output.isTerminal)
            }
        }

        struct Get: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "get", abstract: "A setting's value in use.",
                                                            discussion: "Example: quire config get desired_retention --deck Languages")
            @OptionGroup var target: Target
            @Argument(help: "The setting, e.g. desired_retention.") var key: String

            func run() throws {
                guard let setting = try target.settings().first(where: { $0.key == key }) else {
                    throw CLIError(ConfigKeys.unknown(key))
                }
                Output.line(TerminalText.visible(setting.value))
            }
        }

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a setting (YAML as written: 0.85, [1m, 10m], sm2).",
                                                            discussion: "Example: quire config set new_per_day 30")
            @OptionGroup var target: Target
            @Argument(help: "The setting.") var key: String
            @Argument(help: "Its value.") var value: String

            func run() throws { try target.write(key, value) }
        }

        struct Unset: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "unset", abstract: "Remove a setting: the default applies again (for a deck: the vault's value).",
                                                            discussion: "Example: quire config unset desired_retention --deck Languages")
            @OptionGroup var target: Target
            @Argument(help: "The setting.") var key: String

            func run() throws { try target.write(key, nil) }
        }
    }
}
