@testable import QuireIndex
import Foundation
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// `Vault` opening, discovery and `quire init` (FORMAT.md §1).
@Suite struct VaultTests {
    @Test func initializeCreatesTheLayout() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            #expect(vault.isInitialized)
            #expect(vault.root == dir.path)
            #expect(try dir.entries() == [".gitattributes", ".gitignore", ".quire"])
            #expect(try dir.entries(".quire") == ["cache", "config.yaml", "log"])
            #expect(try dir.text(".quire/config.yaml") == VaultConfig.template)
            #expect(try dir.text(".gitignore") == ".quire/cache/\n.quire/device\n.quire/journal\n.quire/lock\n")
            #expect(try dir.text(".gitattributes") == ".quire/log/*.log merge=union\n.quire/curation/*.log merge=union\n")
            #expect(vault.config().config == VaultConfig())
            #expect(vault.config().diagnostics.isEmpty)
        }
    }

    /// A vault with Obsidian's template folders (the core Templates plugin's and Templater's)
    /// leaves them out from the start: their placeholders are no YAML, and they are no notes.
    @Test func initializeLeavesObsidiansTemplateFoldersOut() throws {
        try withTempDir { dir in
            try dir.write(".obsidian/templates.json", "{\n  \"folder\": \"Meta/Templates/\"\n}")
            try dir.write(".obsidian/plugins/templater-obsidian/data.json", "{\"templates_folder\": \"../outside\", \"x\": 1}")
            try dir.write("Meta/Templates/daily.md", "---\ndate: {{date:YYYY-MM-DD}}\n---\n")
            try dir.write("a.md", "q :: a\n")
            let vault = try Vault.initialize(dir.path)
            #expect(vault.config().config.ignore == ["Meta/Templates"])
            #expect(try dir.text(".quire/config.yaml").contains("\nignore: [Meta/Templates]  # folders and files that are no notes"))
            let index = vault.index()
            #expect(index.notes.map(\.path) == ["a.md"] && index.diagnostics.isEmpty)
            // The list changed, the cache is not used: the notes are read again.
            try dir.write(".quire/config.yaml", "ignore: [a.md]\n")
            let again = vault.index()
            #expect(again.notes.map(\.path).isEmpty && again.hasErrors)
            #expect(again.cacheUse?.problem == .otherCardSyntax)
        }
        // Without such files, the line stays a comment.
        try withTempDir { dir in
            try dir.write(".obsidian/templates.json", "[1]")
            try Vault.initialize(dir.path)
            #expect(try dir.text(".quire/config.yaml") == VaultConfig.template)
        }
    }

    @Test func initializeTwiceIsRefused() throws {
        try withTempDir { dir in
            try Vault.initialize(dir.path)
            #expect(throws: VaultError.alreadyInitialized(dir.path)) { try Vault.initialize(dir.path) }
        }
    }

    @Test func gitLinesAreAddedOnceKeepingCRLF() throws {
        try withTempDir { dir in
            try dir.write(".gitignore", "node_modules/\r\n.quire/device\r\n")
            try dir.write(".gitattributes", "*.png binary")
            try Vault.initialize(dir.path)
            let ignore = try dir.text(".gitignore")
            #expect(ignore == "node_modules/\r\n.quire/device\r\n.quire/cache/\r\n.quire/journal\r\n.quire/lock\r\n")
            #expect(try dir.text(".gitattributes") == "*.png binary\n.quire/log/*.log merge=union\n.quire/curation/*.log merge=union\n")
            // Run again on a copy without `.quire/` (a fresh clone where it was not committed): nothing repeats.
            try FileManager.default.removeItem(atPath: dir.full(".quire"))
            try Vault.initialize(dir.path)
            #expect(try dir.text(".gitignore") == "node_modules/\r\n.quire/device\r\n.quire/cache/\r\n.quire/journal\r\n.quire/lock\r\n")
            #expect(try dir.text(".gitattributes") == "*.png binary\n.quire/log/*.log merge=union\n.quire/curation/*.log merge=union\n")
        }
    }

    @Test func initializeMakesAMissingFolder() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.full("new/vault"))
            #expect(vault.isInitialized)
            #expect(try dir.entries("new/vault") == [".gitattributes", ".gitignore", ".quire"])
        }
    }

    @Test func openAndDiscover() throws {
        try withTempDir { dir in
            try dir.write("file.md", "x")
            #expect(throws: VaultError.notADirectory(dir.full("file.md"))) { try Vault(root: dir.full("file.md")) }
            let plain = try Vault(root: dir.path + "/")
            #expect(plain.root == dir.path)
            #expect(!plain.isInitialized)
            try dir.makeFolder("inner/deeper")
            // Without `.quire/` the starting folder is the root.
            #expect(try Vault.discover(from: dir.full("inner/deeper")).root == dir.full("inner/deeper"))
            try Vault.initialize(dir.path)
            let found = try Vault.discover(from: dir.full("inner/deeper"))
            #expect(found.root == dir.path)
            #expect(found.isInitialized)
            #expect(found.fullPath("a/b.md") == dir.path + "/a/b.md")
        }
    }
}
