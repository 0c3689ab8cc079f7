import QuireTerminal
import ArgumentParser
import Foundation
import QuireApp
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSupport

extension Quire {
    /// `quire category list|add|rename|remove`.
    struct CategoryCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "category",
            abstract: "The note categories of .quire/config.yaml, with their colours.",
            discussion: "Example: quire category add Idea --color '#3b82f6'",
            subcommands: [List.self, Add.self, Rename.self, Remove.self], defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List the categories, alphabetically, in their colours, with their notes.",
                discussion: "Categories notes use that the settings do not name are listed too, marked 'not in the settings'.\n\nExample: quire category list")
            @OptionGroup var options: VaultOptions
            @OptionGroup var listing: ListingOptions

            func run() throws {
                let loaded = try LoadedVault(options)
                let config = try LoadedVault.settings(of: loaded.vault).config
                var counts: [String: Int] = [:]
                for note in loaded.index.notes { if let c = note.category?.lowercased() { counts[c, default: 0] += 1 } }
                // The configured categories, and those notes use without the settings naming them
                // (spelled as the first note has it).
                var all: [(name: String, color: String?, configured: Bool)] = config.categories.map { ($0.name, $0.color, true) }
                var named = Set(config.categories.map { $0.name.lowercased() })
                for note in loaded.index.notes {
                    guard let c = note.category, named.insert(c.lowercased()).inserted else { continue }
                    all.append((c, nil, false))
                }
                let sorted = all.sorted { $0.name.lowercased() < $1.name.lowercased() }
                if listing.json {
                    Output.line(JSONValue.array(sorted.map { c in
                        .object([("name", .string(c.name)), ("color", c.color.map(JSONValue.string) ?? .null),
                                 ("notes", .int(counts[c.name.lowercased()] ?? 0)), ("configured", .bool(c.configured))])
                    }).serialized(pretty: true))
                    return try loaded.finish()
                }
                for c in sorted {
                    let pill = Output.useColor ? Self.colored("●", c.color) + " " : ""
                    Output.line(pill + TerminalText.visible(c.name) + "  " + Plural.counted(counts[c.name.lowercased()] ?? 0, "note")
                                + (c.configured ? "" : "  (not in the settings: quire category add \(TerminalText.visible(c.name)) COLOUR)"))
                }
                try loaded.finish()
            }

            /// `text` in a `#rrggbb` colour: 24-bit where the terminal says it supports it
            /// (COLORTERM), else the nearest of the 256-colour cube.
            static func colored(_ text: String, _ color: String?) -> String {
                guard let color, VaultConfig.isColor(color), let v = Int(color.dropFirst(), radix: 16) else { return text }
                let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255)
                let env = ProcessInfo.processInfo.environment["COLORTERM"] ?? ""
                if env == "truecolor" || env == "24bit" { return "\u{1B}[38;2;\(r);\(g);\(b)m" + text + "\u{1B}[0m" }
                let cube = 16 + 36 * (r * 5 / 255) + 6 * (g * 5 / 255) + (b * 5 / 255)
                return "\u{1B}[38;5;\(cube)m" + text + "\u{1B}[0m"
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a category (or set its colour).",
                                                            discussion: "Example: quire category add Idea --color '#3b82f6'")
            @OptionGroup var options: VaultOptions
            @Option(name: .customLong("color"), help: "Its colour, like #137fec.") var colorOption: String?
            @Argument(help: "The category's name.") var name: String
            @Argument(help: "Its colour, like #137fec (or --color).") var colorArgument: String?

            var color: String? { colorOption ?? colorArgument }

            func validate() throws {
                if colorOption != nil, colorArgument != nil { throw ValidationError("give the colour once: as an argument or with --color") }
                if let color, !VaultConfig.isColor(color) { throw ValidationError("the colour must be like #137fec") }
                try CategoryCommand.check(name)
            }

            func run() throws {
                let vault = try options.open()
                do { try vault.addCategory(name, color: color) } catch { throw CLIError(error.description) }
                Output.line("category \(name) added to .quire/config.yaml")
            }
        }

        struct Rename: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a category, in the settings and in every note of it.",
                                                            discussion: "Example: quire category rename Idea Ideas")
            @OptionGroup var options: VaultOptions
            @OptionGroup var edit: EditOptions
            @Argument(help: "The category's name.") var old: String
            @Argument(help: "Its new name.") var new: String

            func validate() throws { try CategoryCommand.check(new) }

            func run() throws {
                let loaded = try LoadedVault(options)
                let config = try LoadedVault.settings(of: loaded.vault).config
                let color = config.categories.first { $0.name.lowercased() == old.lowercased() }?.color
                if !edit.dryRun {
                    do { try loaded.vault.renameCategory(old, to: new, color: color) } catch { throw CLIError(error.description) }
                }
                try loaded.edit(.set(key: "category", value: new), queryWords: ["category:" + old], options: options, edit: edit,
                                verb: "category \(new) in")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a category; its notes are left uncategorized.",
                                                            discussion: "Example: quire category remove Ideas --dry-run")
            @OptionGroup var options: VaultOptions
            @OptionGroup var edit: EditOptions
            @Argument(help: "The category's name.") var name: String

            func run() throws {
                let loaded = try LoadedVault(options)
                if !edit.dryRun {
                    do { try loaded.vault.removeCategory(name) } catch { throw CLIError(error.description) }
                }
                try loaded.edit(.unset(key: "category"), queryWords: ["category:" + name], options: options, edit: edit,
                                verb: "uncategorized")
            }
        }

        /// A usable category name: one line, no `:` or `#` (a query's `category:` takes it).
        static func check(_ name: String) throws {
            guard !name.isEmpty, name.trimmingCharacters(in: .whitespaces) == name,
                  !name.contains(where: { $0.isNewline || $0 == ":" || $0 == "#" || $0 == "\"" }) else {
                throw ValidationError("'\(name)' cannot be a category name (no ':', '#', quotes, line breaks or spaces around it)")
            }
        }
    }
}
