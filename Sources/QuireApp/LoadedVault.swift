import QuireIndex
import QuireModel
import QuireReview
import QuireScheduling
import QuireSupport
import QuireSystem
import QuireVault

/// A vault opened and indexed for one action of a front end (a command, a page's request): the
/// vault and its index; files with errors are in the index's diagnostics, for the front end to show.
public struct LoadedVault: Sendable {
    public let vault: Vault
    public let index: VaultIndex

    /// The vault at `vault` indexed (through its cache unless `cached` is false).
    public init(_ vault: Vault, cached: Bool = true) {
        self.vault = vault
        index = vault.index(cached: cached)
        Self.kept.withLock { $0.append(index) }
    }

    /// The vault with an index already built (a server's, kept current by its watcher).
    public init(_ vault: Vault, index: VaultIndex) {
        self.vault = vault
        self.index = index
    }

    /// Indexes stay referenced until the process exits: freeing a million cards one by one only to
    /// exit right after would cost a noticeable fraction of a second on a big vault.
    private static let kept = Kept()

    final class Kept: @unchecked Sendable {
        private var indexes: [VaultIndex] = []
        private let lock = ReadersWriterLock()
        func withLock(_ body: (inout [VaultIndex]) -> Void) { lock.withLock(exclusive: true) { body(&indexes) } }
    }

    /// The errors of the files that could not be read (they were left out of the index).
    public var errors: [Diagnostic] { index.diagnostics.filter { $0.severity == .error } }

    /// The vault's settings for an action that schedules: a settings file that exists but cannot be
    /// read is an error, never the defaults in silence.
    /// A file that reads but holds an error (YAML that does not parse, a value of the wrong
    /// kind) is one too, located; its warnings (an unknown key) come back with the settings.
    public static func readSettings(of vault: Vault) throws(AppError) -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        func refused(_ problem: String) -> AppError { .settings(problem + "; nothing done (the schedule depends on these settings)") }
        let read: (config: VaultConfig, diagnostics: [Diagnostic])
        do { read = try vault.readConfig() } catch { throw refused(error.description) }
        if let error = read.diagnostics.first(where: { $0.severity == .error }) { throw refused(error.description) }
        return read
    }

    /// The start of the study day after the one containing `now` (the vault's `day_rollover`, the
    /// local zone): a review card due before it is due today (FORMAT.md §7.1). A settings file
    /// that cannot be read is an error (``readSettings(of:)``), never the default hour in silence.
    public func dayEnd(at now: Timestamp) throws(AppError) -> Timestamp {
        try calendar().end(containing: now)
    }

    /// The vault's study days (``StudyCalendar``), from settings that must read
    /// (``readSettings(of:)``).
    public func calendar() throws(AppError) -> StudyCalendar {
        StudyCalendar(try Self.readSettings(of: vault).config)
    }
}
