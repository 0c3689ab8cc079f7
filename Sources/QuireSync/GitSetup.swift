import Foundation
import QuireIndex
import QuireSystem

/// Registers Quire's merge driver for a vault in git (`quire git setup`, and `quire init` in a git
/// work tree; FORMAT.md §6.3). Git versions `.gitattributes` but not the driver's definition, which
/// lives in each clone's `.git/config`: every clone runs this once.
public enum GitSetup {
    /// The `.gitattributes` line that sends notes to the driver.
    public static let attributesLine = "*.md merge=quire"

    /// Writes the driver's definition into the repository's configuration, calling `executable`,
    /// and the attributes line into the vault's `.gitattributes`; returns what it did, for the user.
    public static func register(vault: Vault, executable: String) throws(SyncError) -> [String] {
        guard let repository = GitRepository(containing: vault.root) else { throw .notARepository(vault.root) }
        let command = shellQuoted(executable) + " merge-driver %O %A %B %P"
        for (key, value) in [("merge.quire.name", "Quire: notes merged by git, scheduling lines by the review log"),
                             ("merge.quire.driver", command)] {
            let set = repository.setConfig(key, value)
            guard set.status == 0 else { throw .git(command: "config \(key)", message: set.errorText) }
        }
        do {
            try Vault.appendLines(vault.fullPath(".gitattributes"), [attributesLine], io: vault.io)
        } catch { throw .io(error) }
        return ["merge driver 'quire' set in \(repository.root)/.git/config (runs \(executable))",
                "notes merged by it: '\(attributesLine)' in \(vault.root)/.gitattributes"]
    }

    /// Whether the repository holding `vault` has the driver defined.
    public static func isRegistered(vault: Vault) -> Bool {
        GitRepository(containing: vault.root)?.config("merge.quire.driver") != nil
    }

    /// `text` as one word for the shell git runs the driver with.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
