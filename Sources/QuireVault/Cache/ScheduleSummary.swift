import Dispatch
import QuireModel

/// Every card's scheduling state with its note's deck, read from the index cache alone: what
/// `quire due` needs, without decoding a single card's text.
public struct ScheduleSummary: Sendable {
    /// One note's part.
    public struct NoteSchedules: Sendable {
        public var path: String
        public var deck: DeckPath
        public var archived: Bool
        /// The scheduling states of the note's cards that have one.
        public var schedules: [SchedulingState]
    }

    /// The notes, in path order.
    public var notes: [NoteSchedules]
    /// Every problem the full index would report, in the same order.
    public var diagnostics: [Diagnostic]

    /// The summary from `cache`, or nil when the cache is missing, damaged, or any note file was
    /// added, removed or changed since it was written (then build the index, which updates it).
    ///
    /// Every note file is still listed and `stat`ed, in parallel.
    public static func load(root: String, cache: IndexCache, concurrency: Int? = nil) -> ScheduleSummary? {
        guard case .success(let snapshot) = cache.load() else { return nil }
        let scanned = VaultScanner(io: cache.io).scan(root: root)
        let files = scanned.files
        let entries = snapshot.entries
        // The cache lists notes in the scanner's order, so equal lists compare entry by entry.
        guard files.count == entries.count else { return nil }
        let workers = max(1, min(concurrency ?? System.coreCount, files.count))
        let chunk = 256
        let chunks = (files.count + chunk - 1) / chunk
        let next = AtomicCounter()
        let stale = AtomicFlag()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !stale.isSet {
                let c = next.increment()
                guard c < chunks else { break }
                for i in (c * chunk)..<min(files.count, (c + 1) * chunk) {
                    let entry = entries[i]
                    guard entry.path == files[i].relativePath,
                          snapshot.unchangedStamp(entry, fullPath: files[i].fullPath) != nil else {
                        stale.set()
                        break
                    }
                }
            }
        }
        guard !stale.isSet else { return nil }
        var notes: [NoteSchedules] = []
        notes.reserveCapacity(entries.count)
        var diagnostics = scanned.diagnostics
        for entry in entries {
            diagnostics += entry.diagnostics
            guard entry.noteRange != nil, let deck = try? snapshot.tables.deck(entry.deck) else { continue }
            notes.append(NoteSchedules(path: entry.path, deck: deck, archived: entry.archived, schedules: entry.schedules))
        }
        diagnostics += snapshot.crossFileDiagnostics
        VaultIndex.sortDiagnostics(&diagnostics)
        return ScheduleSummary(notes: notes, diagnostics: diagnostics)
    }
}
