import QuireModel
import Synchronization
import QuireScheduling
import QuireSystem
import QuireIndex
import QuireVault

/// Content-addressed copies of the scheduler settings that graded cards, so replaying the log
/// after the configuration changed still reproduces what live grading did (FORMAT.md §6).
///
/// Each `grade` line names its settings with `cfg=ID`; the settings themselves are the file
/// `.quire/settings/ID.yaml`, written once, never changed, and kept in git. Two machines with the
/// same settings write the same file, so syncing never conflicts.
public enum SettingsSnapshot {
    /// The folder of snapshots, relative to the root.
    public static let folder = Vault.folderName + "/settings"

    /// The settings as canonical YAML, readable as a configuration file. Everything that changes
    /// what a scheduler computes is in it; the day rollover (which only decides what is due today)
    /// is not.
    public static func text(of s: SchedulerSettings) -> String {
        func steps(_ v: [Int]) -> String { "[" + v.map { "\($0)s" }.joined(separator: ", ") + "]" }
        return """
            scheduler: \(s.kind.rawValue)
            desired_retention: \(s.desiredRetention)
            learning_steps: \(steps(s.learningSteps))
            relearning_steps: \(steps(s.relearningSteps))
            maximum_interval: \(s.maximumInterval)
            fuzz: \(s.fuzz)
            buttons: \(s.buttons)
            interval_ordering: \(s.intervalOrdering)
            fsrs_parameters: [\(s.parameters.values.map { "\($0)" }.joined(separator: ", "))]

            """
    }

    /// The settings' ID: 12 base32 characters of the SipHash-2-4 of ``text(of:)``.
    public static func id(of s: SchedulerSettings) -> String {
        Base32.encodeTopBits(SipHash24.hash(Array(text(of: s).utf8), k0: 0x7175_6972_6563_6667), count: 12)
    }

    /// The relative path of a snapshot.
    public static func path(id: String) -> String { folder + "/" + id + ".yaml" }
}

/// Finds the settings each logged event was graded with, reading snapshots once. Safe to share
/// between threads: its cache is behind a lock.
public final class SettingsResolver: Sendable {
    private let vault: Vault
    private let config: VaultConfig
    private struct State {
        var cache: [String: SchedulerSettings?] = [:]
        var missing: Set<String> = []
    }
    private let state = Mutex(State())
    private let elsewhere: @Sendable (String) -> [UInt8]?

    /// Snapshot IDs that could not be read; the current settings were used instead.
    public var missing: Set<String> { state.withLock { $0.missing } }

    /// A resolver for a vault with its current configuration.
    ///
    /// - Parameter elsewhere: where to read a snapshot the vault does not hold, given its path
    ///   relative to the vault (the merge driver reads the commits being merged: git writes their
    ///   new files only after every merge).
    public init(vault: Vault, config: VaultConfig, elsewhere: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }) {
        self.vault = vault
        self.config = config
        self.elsewhere = elsewhere
    }

    /// The settings for an event on a card in `deck`: its `cfg=` snapshot, else the current
    /// settings for the deck with the event's `sched=` scheduler.
    public func settings(for event: ReviewEvent, deck: DeckPath?) -> SchedulerSettings {
        if let id = event.field("cfg") {
            if let cached = state.withLock({ $0.cache[id] }) {
                if let cached { return cached }
            } else {
                // Read outside the lock; two threads reading one snapshot at once read the same file.
                let loaded = load(id)
                state.withLock { s in
                    s.cache[id] = loaded
                    if loaded == nil { s.missing.insert(id) }
                }
                if let loaded { return loaded }
            }
        }
        var s = deck.map { config.settings(for: $0) } ?? config.settings
        if let kind = event.field("sched").flatMap(SchedulerKind.init(rawValue:)) { s.kind = kind }
        return s
    }

    private func load(_ id: String) -> SchedulerSettings? {
        guard !id.isEmpty, id.utf8.count <= 64, id.utf8.allSatisfy(CardID.isIDByte),
              let path = try? vault.internalPath(SettingsSnapshot.path(id: id)) else { return nil }
        guard let bytes = (try? vault.io.read(path))?.bytes ?? elsewhere(SettingsSnapshot.path(id: id)) else { return nil }
        let parsed = VaultConfig.parse(bytes, path: "")
        guard parsed.diagnostics.isEmpty else { return nil }
        return parsed.config.settings
    }
}

extension Vault {
    /// Writes the snapshot of `settings` unless it exists, and returns its ID.
    func storeSnapshot(of settings: SchedulerSettings) throws(FileIOError) -> String {
        let id = SettingsSnapshot.id(of: settings)
        let path = try internalPath(SettingsSnapshot.path(id: id))
        if io.linkStamp(path) != nil { return id }
        try io.makeDirectories(try internalFolder(SettingsSnapshot.folder))
        do {
            try io.replace(path, with: Array(SettingsSnapshot.text(of: settings).utf8), expected: nil)
        } catch .changedOnDisk {
            // Another process wrote the same snapshot first.
        }
        return id
    }
}
