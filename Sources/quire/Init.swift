import ArgumentParser
import QuireSync
import QuireSystem

extension Quire {
    /// `quire init [DIR]`.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a folder a Quire vault (.quire/ with settings, log and cache).")

        @Argument(help: "The folder (default: the working directory).")
        var directory: String?

        func run() throws {
            let dir = directory ?? Clock.currentDirectory()
            do {
                let vault = try Vault.initialize(dir)
                Output.line("Initialized Quire vault in \(vault.root)/\(Vault.folderName)/")
                // In a git work tree, notes are merged by Quire's driver from the start.
                if GitRepository(containing: vault.root) != nil {
                    for line in try GitSetup.register(vault: vault, executable: Quire.executablePath) { Output.line(line) }
                }
            } catch {
                throw CLIError("\(error)")
            }
        }
    }
}
