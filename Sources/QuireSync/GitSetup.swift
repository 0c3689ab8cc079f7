import Foundation
import QuireIndex
import QuireSystem
import QuireVault

/// Registers Quire's merge driver for a vault in git (`quire git setup`, and `quire init` in a git
/// work tree; FORMAT.md §6.3). Git versions `.gitattributes` but not the driver's definition, which
/// lives in each clone's `.git/config`: every clone runs this once.
public enum GitSetup {
    /// The `.gitattributes` line that sends notes to the driver.
    public static let attributesLine = "*.md merge=quire"

    /// The files under `.quire/` that belong to one clone, never to git (FORMAT.md §1).
    public static let localFiles = [".quire/cache/", ".quire/device", ".quire/journal", ".quire/lock"]

    /// Writes the driver's definition into the repository's configuration, calling `executable`,
    /// and the attributes line into the vault's `.gitattributes`; returns what it did, for the user.
    public static func register(vault: Vault, executable: String) throws(SyncError) -> [String] {
        guard let repository = GitRepository(containing: vault.root) else { throw .notARepository(vault.root) }
        // `--` first: a note named like an option (`--output=x.md`) is still a path.
        let command = shellQuoted(executable) + " merge-driver -- %O %A %B %P"
        for (key, value) in [("merge.quire.name", "Quire: notes merged by git, scheduling lines by the review log"),
                             ("merge.quire.driver", command)] {
            let set = repository.setConfig(key, value)
            guard set.status == 0 else { throw .git(command: "config \(key)", message: set.errorText) }
        }
        do {
            try Vault.appendLines(vault.fullPath(".gitattributes"), [attributesLine, ".quire/log/*.log merge=union", ".quire/curation/*.log merge=union"], io: vault.io)
            try Vault.appendLines(vault.fullPath(".gitignore"), localFiles, io: vault.io)
        } catch { throw .io(error) }
        var done = ["merge driver 'quire' set in \(repository.root)/.git/config (runs \(executable))",
                    "notes merged by it: '\(attributesLine)' in \(vault.root)/.gitattributes"]
        // A device file in git would give every clone the same device, and one log file.
        let device = vault.fullPath(".quire/device")
        if repository.run(["ls-files", "--error-unmatch", "--", device]).status == 0 {
            let removed = repository.run(["rm", "--cached", "-q", "--", device])
            guard removed.status == 0 else { throw .git(command: "rm --cached", message: removed.errorText) }
            done.append(".quire/device is no longer tracked by git (each clone has its own): commit this")
        }
        return done
    }

    /// Whether the repository holding `vault` has the driver defined.
    public static func isRegistered(vault: Vault) -> Bool {
        // A driver registered before paths came after `--` is registered again.
        GitRepository(containing: vault.root)?.config("merge.quire.driver")?.contains(" merge-driver -- ") == true
    }

    /// `text` as one word for the shell git runs the driver with.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
