import QuireTerminal
import ArgumentParser
import QuireIndex
import QuireParsing
import QuireSync
import QuireSystem
import QuireVault

extension Quire {
    /// `quire init [DIR]`.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Make a folder a Quire vault (.quire/ with settings, log and cache).",
            discussion: "Example: quire init ~/notes")

        @Argument(help: "The folder (default: the working directory).")
        var directory: String?
        @Option(name: [.customShort("C"), .customLong("vault")], help: ArgumentHelp("The folder, as other commands take it.", valueName: "DIR"))
        var vault: String?
        @Flag(help: "Make a vault inside another vault's folder (its notes then belong to the inner vault only).")
        var nested = false

        func validate() throws {
            if let vault, let directory, vault != directory { throw ValidationError("give the folder once: -C \(vault) or \(directory)") }
        }

        func run() throws {
            let dir = directory ?? vault ?? WorkingDirectory.path()
            // A vault inside a vault: the outer one would index the inner one's notes too.
            if !nested, let outer = try? Vault.discover(from: FileIO.directory(of: FileIO.realPath(dir) ?? dir)),
               outer.isInitialized, outer.root != (FileIO.realPath(dir) ?? dir) {
                throw CLIError("\(dir) is inside the vault \(outer.root): its notes are already that vault's; use --nested to make a vault of its own there anyway")
            }
            do {
                let vault = try Vault.initialize(dir)
                Output.line("Initialized Quire vault in \(vault.root)/\(Vault.folderName)/")
                for line in Self.obsidianNotice(vault) { Output.line(line) }
                // In a git work tree, notes are merged by Quire's driver from the start.
                if GitRepository(containing: vault.root) != nil {
                    for line in try GitSetup.register(vault: vault, executable: Quire.executablePath) { Output.line(line) }
                }
            } catch {
                throw CLIError("\(error)")
            }
        }
    
        /// What an Obsidian vault's user must know at the start: which notes make cards, and that
        /// `==highlights==` become cloze cards, with how to keep them text.
        static func obsidianNotice(_ vault: Vault) -> [String] {
            guard vault.io.stamp(vault.root + "/.obsidian")?.isDirectory == true else { return [] }
            if case .obsidianSR = vault.cardSyntax().syntax {
                return ["An Obsidian vault with the spaced-repetition plugin: cards are read as the plugin reads them (card_syntax: obsidian-sr),",
                        "in notes tagged #flashcards; ==highlights== there are cloze cards, as the plugin makes them",
                        "(the plugin's convertHighlightsToClozes setting, turned off, keeps them text). quire check --verbose lists every card."]
            }
            return ["An Obsidian vault: in Quire's card syntax a paragraph holding ==highlights== is a cloze card, one card a highlight,",
                    "in every note. To keep highlights as text and make cards only in notes tagged #flashcards, as Obsidian's",
                    "spaced-repetition plugin does, set card_syntax: obsidian-sr in .quire/config.yaml. quire check --verbose lists every card."]
        }
}
}
