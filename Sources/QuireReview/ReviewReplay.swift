import QuireModel
import QuireScheduling
import QuireYAML
import QuireSystem
import QuireIndex
import QuireParsing
import QuireVault

/// What replaying the review log found: the cards whose front matter disagrees with the log
/// (`quire replay`, `quire check`).
public struct ReviewReplay: Sendable {
    /// A card whose scheduling line is not what the log gives.
    public struct Difference: Sendable {
        public var card: CardID
        public var path: String
        /// The card's first line in the note.
        public var line: Int
        /// The state in the front matter (nil: no line).
        public var current: SchedulingState?
        /// The state the log gives (nil: no line).
        public var replayed: SchedulingState?

        /// The fields that differ: `due 2026-11-25T09:00:00Z → 2026-11-26T09:00:00Z, reps 3 → 4`.
        public var summary: String {
            if replayed == nil { return "the log leaves no scheduling line" }
            let old = Dictionary(current?.fields ?? [], uniquingKeysWith: { a, _ in a })
            let new = Dictionary(replayed?.fields ?? [], uniquingKeysWith: { a, _ in a })
            var changes: [String] = current == nil ? ["no scheduling line in the note"] : []
            for key in SchedulingState.fieldOrder where key != "fp" && old[key] != new[key] {
                changes.append("\(key) \(old[key] ?? "-") → \(new[key] ?? "-")")
            }
            return changes.joined(separator: ", ")
        }
    }

    /// The findings as `quire check` reports them: a warning per differing card, a note per card
    /// the log knows that is gone from the vault.
    public var checkDiagnostics: [Diagnostic] {
        differences.map {
            Diagnostic(.warning, path: $0.path, line: $0.line, column: 1,
                       message: "card \($0.card): scheduling line differs from the review log (\($0.summary)); run 'quire replay'")
        } + missingCards.map {
            if let path = $0.lastPath, unreadablePaths.contains(path) {
                return Diagnostic(.note, path: path,
                                  message: "card \($0.card) is in a note that could not be read (above); its reviews are kept in the log")
            }
            return Diagnostic(.note, path: $0.lastPath ?? Vault.logFolder,
                              message: "card \($0.card) has reviews in the log but is no longer in the vault")
        }
    }

    /// Notes the index could not read (an error skipped them: a merge conflict, bad YAML): their
    /// cards are not gone, only unread.
    public var unreadablePaths: Set<String> = []

    /// Cards that disagree, in note-path and card order.
    public var differences: [Difference] = []
    /// Cards whose line agrees with the log but holds the fingerprint of the card's text before an
    /// edit: ``plan(vault:)`` stores the new one, after which the note reads without re-matching
    /// the card by similarity (and `quire check` stops noting it).
    public var fingerprintUpdates: [Difference] = []
    /// Cards the log knows that are not in the vault, with the last path the log names.
    public var missingCards: [(card: CardID, lastPath: String?)] = []
    /// Cards the log knows (with events that count).
    public var replayedCards = 0
    /// Events read from the log.
    public var eventCount = 0
    /// Problems with the log files and settings snapshots.
    public var diagnostics: [Diagnostic] = []

    /// Replays the whole log against an index.
    public init(vault: Vault, index: VaultIndex, config: VaultConfig) {
        let log = vault.reviewLog()
        self.init(events: log.events, vault: vault, index: index, config: config)
        diagnostics = log.diagnostics + diagnostics
    }

    /// Replays the given events against an index.
    public init(events: [ReviewEvent], vault: Vault, index: VaultIndex, config: VaultConfig) {
        eventCount = events.count
        unreadablePaths = Set(index.diagnostics.filter { $0.severity == .error }.map(\.path))
        let history = ReviewHistory(events)
        let resolver = SettingsResolver(vault: vault, config: config)
        var found: [(CardLocation, Difference)] = []
        var stale: [(CardLocation, Difference)] = []
        // A card whose every event was undone is replayed too: the log leaves it no scheduling
        // line (an undo whose note write failed left its grade in the note).
        for (card, cardEvents) in history.events {
            guard let loc = index.location(exactly: card) else {
                if !cardEvents.isEmpty {
                    replayedCards += 1
                    missingCards.append((card, history.lastPath(of: card)))
                }
                continue
            }
            if !cardEvents.isEmpty { replayedCards += 1 }
            let note = index.notes[loc.note]
            let current = index.card(at: loc)
            var replayed = history.state(of: card) { resolver.settings(for: $0, deck: note.deck) }
            // The card's text as it is now: a line rewritten for the log also records an edit.
            replayed?.fingerprint = current.fingerprint
            replayed?.unknownFields = current.schedule?.unknownFields ?? []
            let same = switch (current.schedule, replayed) {
            case (nil, nil): true
            case (let a?, let b?): a.sameSchedule(as: b)
            default: false
            }
            if !same {
                found.append((loc, Difference(card: card, path: note.path, line: current.lines.lowerBound,
                                              current: current.schedule, replayed: replayed)))
            } else if let schedule = current.schedule, schedule.fingerprint != current.fingerprint {
                // The card's text was edited since its line was written: the line agrees with the
                // log, and only its fingerprint is behind (the parser re-matches it by similarity).
                var updated = schedule
                updated.fingerprint = current.fingerprint
                stale.append((loc, Difference(card: card, path: note.path, line: current.lines.lowerBound,
                                              current: schedule, replayed: updated)))
            }
        }
        differences = found.sorted { ($0.0.note, $0.0.card) < ($1.0.note, $1.0.card) }.map(\.1)
        fingerprintUpdates = stale.sorted { ($0.0.note, $0.0.card) < ($1.0.note, $1.0.card) }.map(\.1)
        missingCards.sort { $0.card < $1.card }
        for id in resolver.missing.sorted() {
            diagnostics.append(Diagnostic(.warning, path: SettingsSnapshot.path(id: id),
                                          message: "settings snapshot missing; replayed with the current settings"))
        }
    }

    /// The edits that make the front matter match the log, one per note (stale fingerprints
    /// brought up to date too).
    public func plan(vault: Vault) -> (edits: [PlannedEdit], diagnostics: [Diagnostic]) {
        var byNote: [String: [Difference]] = [:]
        var order: [String] = []
        for d in differences + fingerprintUpdates {
            if byNote[d.path] == nil { order.append(d.path) }
            byNote[d.path, default: []].append(d)
        }
        return vault.planEdits(paths: order) { path, bytes in
            var editor = try FrontMatterEditor(file: bytes)
            try SchedulingLine.set((byNote[path] ?? []).map { ($0.card, $0.replayed) }, in: &editor)
            return editor.file
        }
    }
}
