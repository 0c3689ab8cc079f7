import QuireTerminal
import ArgumentParser
import QuireApp
import QuireModel
import QuireScheduling
import QuireSystem
import QuireIndex
import QuireVault

/// A vault opened and indexed for a command: the application layer's ``LoadedVault`` with what a
/// command adds (its errors printed, exit status 1 at the end, CLI errors).
extension LoadedVault {
    /// The vault of `options` indexed. Files with errors are reported on standard error and
    /// skipped; ``finish()`` turns that into exit status 1 once the command has done its work.
    init(_ options: VaultOptions, reportErrors: Bool = true) throws {
        self.init(opened: try options.open(), options, reportErrors: reportErrors)
    }

    /// The vault `options` opened already (a command that tried a quicker way first).
    init(opened vault: Vault, _ options: VaultOptions, reportErrors: Bool = true) {
        self.init(vault, cached: !options.noCache)
        if reportErrors { Output.diagnostics(errors, root: vault.root, toStandardError: true, color: false) }
    }

    /// Throws exit status 1 when some file could not be read.
    func finish() throws {
        Output.flush()
        if index.hasErrors { throw ExitCode(1) }
    }

    /// Runs `body` holding the vault's write lock (waiting for another quire that writes it).
    func locked<R>(_ body: () throws -> R) throws -> R {
        do { return try vault.withWriteLock(body) } catch {
            switch error {
            case .lock(let e): throw CLIError(e.description)
            case .body(let e): throw e
            }
        }
    }

    /// The vault's settings for a command that schedules: a settings file that exists but cannot be
    /// read is an error (exit 1), never the defaults in silence.
    static func settings(of vault: Vault) throws -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        do { return try readSettings(of: vault) } catch { throw CLIError(error.description) }
    }

    /// Parses a query from command-line words, the note paths among them (`ML/*.md` as the shell
    /// expands it, `ML/`) taken as `path:` terms of `vault` (``NotePathWords``).
    static func query(_ words: [String], in vault: Vault) throws -> Query {
        try query(NotePathWords.mapped(words, vault: vault, workingDirectory: WorkingDirectory.path()))
    }

    /// Parses a query from command-line words.
    static func query(_ words: [String]) throws -> Query {
        // `--` only separates options from the query; it is not a query word. `all` alone is
        // every card, as an empty query is (to search for the word, quote it: '"all"').
        var words = words.filter { $0 != "--" }
        if words == ["all"] { words = [] }
        do { return try Query(arguments: words) } catch { throw CLIError(error.description) }
    }
}
