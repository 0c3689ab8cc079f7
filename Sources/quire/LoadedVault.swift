import ArgumentParser
import QuireModel
import QuireScheduling
import QuireSystem
import QuireIndex

/// A vault opened and indexed for a command. Files with errors were reported on standard error and
/// skipped; ``finish()`` turns that into exit status 1 once the command has done its work.
struct LoadedVault {
    let vault: Vault
    let index: VaultIndex

    init(_ options: VaultOptions, reportErrors: Bool = true) throws {
        vault = try options.open()
        index = vault.index(cached: !options.noCache)
        Self.keptUntilExit.append(index)
        if reportErrors {
            let errors = index.diagnostics.filter { $0.severity == .error }
            Output.diagnostics(errors, root: vault.root, toStandardError: true, color: false)
        }
    }

    /// Indexes stay referenced until the process exits: freeing a million cards one by one only to
    /// exit right after would cost a noticeable fraction of a second on a big vault.
    nonisolated(unsafe) private static var keptUntilExit: [VaultIndex] = []

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
        do { return try vault.readConfig() } catch {
            throw CLIError("\(error.description); nothing done (the schedule depends on these settings)")
        }
    }

    /// The start of the study day after the one containing `now` (the vault's `day_rollover`, the
    /// local zone): a review card due before it is due today (FORMAT.md §7.1), for every command.
    func dayEnd(at now: Timestamp) -> Timestamp {
        let rollover = (try? vault.readConfig())?.config.dayRollover ?? VaultConfig().dayRollover
        return Day.end(containing: now, utcOffsetSeconds: Clock.utcOffset(at: now), rolloverHour: rollover)
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
