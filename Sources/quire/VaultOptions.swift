import QuireTerminal
import ArgumentParser
import QuireApp
import QuireIndex
import QuireModel
import QuireSystem
import QuireVault

/// Options every vault command shares.
struct VaultOptions: ParsableArguments {
    @Option(name: [.customShort("C"), .customLong("vault")], help: "The vault folder (default: found from the working directory).")
    var vault: String?

    @Option(name: .customLong("now"), help: .hidden)
    var nowText: String?

    @Flag(name: .customLong("no-cache"), help: "Read every note instead of using (and updating) .quire/cache/.")
    var noCache = false

    mutating func validate() throws {
        if let nowText, Timestamp(iso8601: nowText) == nil {
            throw ValidationError("--now must be a time like 2026-11-22T09:00:00Z")
        }
    }

    /// The time this command runs at: `--now` when given, else the clock. Each use reads the
    /// clock, so a command reads it once and passes the value down.
    var now: Timestamp { pinnedNow ?? Clock.now() }

    /// The time `--now` pins (tests), or nil for the clock's.
    var pinnedNow: Timestamp? { nowText.flatMap { Timestamp(iso8601: $0) } }

    /// Opens the vault.
    /// The vault, with a progress bar for a long index build (``ProgressBar/indexing()``).
    func open() throws -> Vault {
        do throws(VaultError) {
            var opened = try located()
            opened.progress = ProgressBar.indexing()
            // An import a killed process left half done is finished before anything is read.
            opened.finishInterruptedWrites()
            return opened
        } catch {
            throw CLIError(error.description)
        }
    }
}

extension VaultOptions {
    /// The query `words` say, note paths among them (`ML/*.md` as the shell expands it, `ML/`)
    /// taken as `path:` terms (``NotePathWords``).
    func query(_ words: [String]) throws -> Query {
        let vault: Vault
        do throws(VaultError) { vault = try located() } catch { throw CLIError(error.description) }
        return try LoadedVault.query(words, in: vault)
    }

    /// The vault `--vault` names, else the one found from the working directory.
    func located() throws(VaultError) -> Vault {
        if let vault { try Vault(root: vault) } else { try Vault.discover(from: WorkingDirectory.path()) }
    }
}

/// Options of commands that print listings.
struct ListingOptions: ParsableArguments {
    @Flag(help: "Print JSON (fields documented in docs/JSON.md).")
    var json = false
}
