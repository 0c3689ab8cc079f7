import Foundation
import QuireIndex
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
import QuireSystem
import QuireVault

/// Errors of git integration (the merge driver, `quire git setup`).
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The vault is not in a git work tree (or git is not installed).
    case notARepository(String)
    /// A git command failed.
    case git(command: String, message: String)
    /// A file could not be read or written.
    case io(FileIOError)
    /// The note still has conflict markers and no side was chosen.
    case conflictLeft(path: String, lines: ClosedRange<Int>)
    /// A planned write was refused (the reason is a diagnostic).
    case notWritten(String)

    public var description: String {
        switch self {
        case .notARepository(let path): "\(path): not in a git repository (or git is not installed)"
        case .git(let command, let message): "git \(command) failed: \(message)"
        case .io(let error): error.description
        case .conflictLeft(let path, let lines):
            "\(path): conflict markers left at lines \(lines.lowerBound)–\(lines.upperBound); choose --ours or --theirs, or edit the note first"
        case .notWritten(let reason): reason
        }
    }
}

/// The git merge driver for notes (`quire merge-driver %O %A %B %P`, FORMAT.md §6.3): what git
/// calls to merge a note both sides changed.
public struct GitMergeDriver {
    /// What a merge did, for git's output.
    public struct Report: Sendable {
        /// Whether conflicts in the user's text are left for the user.
        public var hasConflicts: Bool
        /// Cards reviewed on both sides, whose line the union of both logs set.
        public var replayedCards: [CardID]
        /// Cards changed on both sides with no event to replay.
        public var unreplayedCards: [CardID]
        /// Whether the note's front matter could not be read, so the whole text was merged as text.
        public var mergedAsText: Bool
        /// The settings file's first error, when it holds one: the merge then schedules with the
        /// default settings (a merge driver that refused would stop git mid-merge), and says so.
        public var settingsProblem: String? = nil
    }

    let repository: GitRepository
    let io: FileIO
    /// The environment git ran the driver with (it names the heads being merged).
    let environment: [String: String]

    /// The driver for the work tree holding `directory`, run by git with `environment`.
    public init(directory: String, environment: [String: String], io: FileIO = FileIO()) throws(SyncError) {
        guard let repository = GitRepository(containing: directory) else { throw .notARepository(directory) }
        self.repository = repository
        self.environment = environment
        self.io = io
    }

    /// Merges the note `path` (relative to the work tree): `base` and `theirs` are git's temporary
    /// files, `ours` is git's too and receives the result.
    public func merge(base: String, ours: String, theirs: String, path: String) throws(SyncError) -> Report {
        let baseBytes: [UInt8], ourBytes: [UInt8], theirBytes: [UInt8]
        do {
            baseBytes = try io.read(base).bytes
            ourBytes = try io.read(ours).bytes
            theirBytes = try io.read(theirs).bytes
        } catch { throw .io(error) }
        let (result, report) = try merged(base: baseBytes, ours: ourBytes, theirs: theirBytes, path: path)
        do { try io.replace(ours, with: result, expected: ourBytes) } catch { throw .io(error) }
        return report
    }

    /// The note `path` (relative to the work tree) merged from three versions, as ``merge(base:ours:theirs:path:)``
    /// merges git's files: the bytes, and what was done.
    func merged(base baseBytes: [UInt8], ours ourBytes: [UInt8], theirs theirBytes: [UInt8], path: String) throws(SyncError)
        -> ([UInt8], Report) {
        // Git names notes by their path in the work tree; anything else finds no vault (and so no
        // log to replay from), and the note is merged by git's rules alone.
        let inside = Vault.isPlainRelativePath(path)
        let noteFolder = FileIO.directory(of: repository.root + "/" + path)
        let vault = inside ? try? Vault.discover(from: noteFolder, io: io) : nil
        let replay = vault.map { LogUnion(repository: repository, vault: $0, incoming: repository.incomingCommits(environment: environment), io: io) }
        var textFailure: String?
        func mergeText(_ o: [UInt8], _ a: [UInt8], _ b: [UInt8]) -> (bytes: [UInt8], conflicts: Bool)? {
            switch gitMergeFile(base: o, ours: a, theirs: b, path: path) {
            case .success(let merged): return merged
            case .failure(let message):
                textFailure = message.message
                return nil
            }
        }
        let outcome = NoteMerge.merge(base: baseBytes, ours: ourBytes, theirs: theirBytes, mergeText: mergeText) { card, sides in
            replay?.state(of: card, path: path, sides: sides)
        }
        let report: Report
        let result: [UInt8]
        if let outcome {
            result = outcome.bytes
            report = Report(hasConflicts: outcome.hasConflicts, replayedCards: outcome.replayedCards,
                            unreplayedCards: outcome.unreplayedCards, mergedAsText: false,
                            settingsProblem: outcome.replayedCards.isEmpty ? nil : replay?.settingsProblem)
        } else {
            if let textFailure { throw .git(command: "merge-file", message: textFailure) }
            guard let merged = mergeText(baseBytes, ourBytes, theirBytes) else {
                throw .git(command: "merge-file", message: textFailure ?? "failed")
            }
            result = merged.bytes
            report = Report(hasConflicts: merged.conflicts, replayedCards: [], unreplayedCards: [], mergedAsText: true)
        }
        return (result, report)
    }

    /// `git merge-file` on three texts: the merged text and whether conflicts are left.
    func gitMergeFile(base: [UInt8], ours: [UInt8], theirs: [UInt8], path: String)
        -> Result<(bytes: [UInt8], conflicts: Bool), MergeFailure> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-merge-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, bytes) in [("base", base), ("ours", ours), ("theirs", theirs)] {
                try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            }
        } catch {
            return .failure(MergeFailure(message: "cannot write temporary files: \(error)"))
        }
        let run = repository.run(["merge-file", "-p", "-L", "\(path) (ours)", "-L", "\(path) (base)", "-L", "\(path) (theirs)",
                                  folder + "/ours", folder + "/base", folder + "/theirs"])
        // merge-file exits with the number of conflicts, or a negative number (255) on error.
        guard run.status >= 0, run.status < 128 else { return .failure(MergeFailure(message: run.errorText)) }
        return .success((run.output, run.status > 0))
    }

    struct MergeFailure: Error { var message: String }
}

/// The review events of both sides of a merge — the logs in `HEAD`, in the commit being merged or
/// replayed, and in the work tree — replayed card by card.
struct LogUnion {
    let history: ReviewHistory
    let resolver: SettingsResolver
    /// The settings file's first error (the defaults are used), if any.
    let settingsProblem: String?
    let vault: Vault
    /// The vault's folder relative to the work tree ("" at its top).
    let prefix: String

    init(repository: GitRepository, vault: Vault, incoming: [String], io: FileIO) {
        self.vault = vault
        var prefix = vault.root.hasPrefix(repository.root) ? String(vault.root.dropFirst(repository.root.count)) : ""
        while prefix.hasPrefix("/") { prefix.removeFirst() }
        let logFolder = (prefix.isEmpty ? "" : prefix + "/") + Vault.logFolder
        var lines = Set<Substring>()
        var texts: [String] = []
        func take(_ bytes: [UInt8]) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            texts.append(text)
        }
        for commit in ["HEAD"] + incoming {
            for file in repository.files(at: commit, under: logFolder) where file.hasSuffix(".log") {
                if let bytes = repository.contents(of: file, at: commit) { take(bytes) }
            }
        }
        for file in vault.reviewLogFiles() {
            if let bytes = try? io.read(try vault.internalPath(file)).bytes { take(bytes) }
        }
        // The same event is in several logs (both sides have the commits before the fork): each
        // line once.
        var union: [Substring] = []
        for text in texts {
            for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) where lines.insert(line).inserted {
                union.append(line)
            }
        }
        history = ReviewHistory(ReviewLog.parse(union.joined(separator: "\n")).events)
        // A snapshot the other side added is not in the work tree yet: read it from the commits.
        let commits = ["HEAD"] + incoming
        let inRepository = prefix.isEmpty ? "" : prefix + "/"
        let (config, diagnostics) = vault.config()
        settingsProblem = diagnostics.first { $0.severity == .error }?.description
        resolver = SettingsResolver(vault: vault, config: config) { path in
            commits.lazy.compactMap { repository.contents(of: inRepository + path, at: $0) }.first
        }
        self.prefix = prefix
    }

    /// The state the union of the logs gives `card`, with the fingerprint and the fields Quire
    /// does not know of the line it replaces; nil when no event of the card is in the logs.
    func state(of card: CardID, path: String, sides: NoteMerge.Sides) -> SchedulingState? {
        guard let events = history.events[card], !events.isEmpty else { return nil }
        // The folder deck (per-deck settings); a `deck:` key in the note is not read here.
        let inVault = prefix.isEmpty ? path : String(path.dropFirst(min(path.count, prefix.count + 1)))
        let deck = DeckPath(FileIO.directory(of: inVault))
        var state = history.state(of: card) { resolver.settings(for: $0, deck: deck) }
        let kept = sides.ours ?? sides.theirs
        state?.fingerprint = kept?.fingerprint
        state?.unknownFields = kept?.unknownFields ?? []
        return state
    }
}
