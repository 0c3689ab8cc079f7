import QuireModel
import QuireSystem
import QuireSupport
import QuireVault

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
        /// The digest of the file's bytes (``Note/contentDigest``).
        public var digest: UInt64

        /// A cached entry's part, or nil when its file holds no note.
        init?(_ entry: IndexCache.Entry, tables: NameTables) {
            guard entry.noteRange != nil, let deck = try? tables.deck(entry.deck) else { return nil }
            self.init(path: entry.path, deck: deck, archived: entry.archived, schedules: entry.schedules, digest: entry.digest)
        }

        init(path: String, deck: DeckPath, archived: Bool, schedules: [SchedulingState], digest: UInt64) {
            self.path = path
            self.deck = deck
            self.archived = archived
            self.schedules = schedules
            self.digest = digest
        }
    }

    /// The notes, in path order.
    public var notes: [NoteSchedules]
    /// Every problem the full index would report, in the same order.
    public var diagnostics: [Diagnostic]
    /// Whether the vault's folders had to be read (something changed since the cache was written).
    public var scannedVault = false
    /// How many notes were parsed because they changed.
    public var parsedNotes = 0
    /// The notes parsed because they changed (a caller that keeps something per note up to date
    /// needs them whole), in the order the vault was scanned.
    public var changedNotes: [Note] = []
    /// The cache the summary was read from, freed with it (a caller that keeps the summary until
    /// exit saves freeing every entry).
    var source: IndexCache.Snapshot?

    /// The summary from `cache`, or nil when the cache is missing or damaged, or too much changed
    /// since it was written (then build the index, which updates it).
    ///
    /// When nothing changed, no folder is read: each folder the cache lists must still have its
    /// stamp (so it holds the same names), and each note file its size, mtime and inode — all
    /// `stat`ed in parallel. When a few notes changed (a grade, an edit), the vault is scanned,
    /// those notes alone are parsed, and their card IDs are checked against the cache's table of
    /// every other note's IDs, so that a duplicate is reported exactly as a full build would.
    ///
    /// Then the cache is brought up to date (the notes that did not change are copied as they are),
    /// so that the next call reads no folder again.
    ///
    /// - Parameters:
    ///   - maximumParsed: beyond this many changed notes, nil (a full build then also refreshes
    ///     the cache); default: 1 % of the notes, at least 64.
    ///   - updateCache: whether to write the updated cache.
    ///   - now: the wall-clock time, to tell when a folder modified just before the cache was
    ///     written can be vouched for by a new one (without it, such a cache is not rewritten).
    public static func load(root: String, cache: IndexCache, concurrency: Int? = nil,
                            maximumParsed: Int? = nil, updateCache: Bool = true, now: Timestamp? = nil) -> ScheduleSummary? {
        guard case .success(let snapshot) = cache.load(), !snapshot.folders.isEmpty else { return nil }
        if let unchanged = loadUnchanged(root: root, snapshot: snapshot, io: cache.io, concurrency: concurrency) {
            return unchanged
        }
        return loadChanged(root: root, snapshot: snapshot, cache: cache, concurrency: concurrency,
                           maximumParsed: maximumParsed ?? max(64, snapshot.entries.count / 100), updateCache: updateCache,
                           now: now)
    }

    /// The summary when no folder and no note changed, else nil.
    private static func loadUnchanged(root: String, snapshot: IndexCache.Snapshot, io: FileIO,
                                      concurrency: Int?) -> ScheduleSummary? {
        let entries = snapshot.entries
        let folders = snapshot.folders
        let items = folders.count + entries.count
        let unchanged = inParallelChunks(of: items, chunk: 256, concurrency: concurrency) { range in
            // Notes are stat'ed relative to their open folder: one name to look up, not a path.
            var folder = FolderHandle(root: root, io: io)
            defer { folder.close() }
            for i in range {
                if i < folders.count {
                    let cached = folders[i]
                    let now = io.stamp(cached.relativePath.isEmpty ? root : root + "/" + cached.relativePath)
                    guard snapshot.folder(cached, isStill: now) else { return false }
                } else {
                    let entry = entries[i - folders.count]
                    guard snapshot.unchangedStamp(entry, stamp: folder.stamp(of: entry.path),
                                                  fullPath: root + "/" + entry.path) != nil else { return false }
                }
            }
            return true
        }
        guard unchanged else { return nil }
        var notes: [NoteSchedules] = []
        notes.reserveCapacity(entries.count)
        var diagnostics = snapshot.scanDiagnostics
        for entry in entries {
            diagnostics += entry.diagnostics
            if let note = NoteSchedules(entry, tables: snapshot.tables) { notes.append(note) }
        }
        diagnostics += snapshot.crossFileDiagnostics
        VaultIndex.sortDiagnostics(&diagnostics)
        return ScheduleSummary(notes: notes, diagnostics: diagnostics, source: snapshot)
    }

    /// The summary when some notes changed: a scan, the cached part of unchanged notes, a parse of
    /// the others. Nil when too many changed or a changed note may share a card ID with another.
    private static func loadChanged(root: String, snapshot: IndexCache.Snapshot, cache: IndexCache, concurrency: Int?,
                                    maximumParsed: Int, updateCache: Bool, now: Timestamp?) -> ScheduleSummary? {
        // Duplicates that already exist may come or go with any change: a full build decides.
        guard snapshot.crossFileDiagnostics.isEmpty else { return nil }
        let scanned = VaultScanner(io: cache.io, ignored: cache.ignored).scan(root: root)
        let files = scanned.files
        let entries = snapshot.entries
        guard let slots = readChanged(files, snapshot: snapshot, cache: cache, concurrency: concurrency, maximumParsed: maximumParsed),
              let parsedNotes = parsedNotes(slots, count: files.count, snapshot: snapshot) else { return nil }
        var notes: [NoteSchedules] = []
        notes.reserveCapacity(files.count)
        var diagnostics = scanned.diagnostics
        for i in 0..<files.count {
            switch slots[i] {
            case .cached(let n)?:
                diagnostics += entries[n].diagnostics
                if let note = NoteSchedules(entries[n], tables: snapshot.tables) { notes.append(note) }
            case .read(.record(let record))?:
                diagnostics += record.diagnostics
                guard let note = record.note else { continue }
                notes.append(NoteSchedules(path: note.path, deck: note.deck, archived: note.archived,
                                           schedules: note.cards.compactMap(\.schedule), digest: note.contentDigest))
            case .read(.unreadable(let d))?:
                diagnostics.append(d)
            case nil:
                return nil
            }
        }
        VaultIndex.sortDiagnostics(&diagnostics)
        // Rewritten when something changed; when the only doubt is a folder modified just before
        // the cache was written, only once a new cache can vouch for it (two seconds later).
        let newestFolder = scanned.folders.map(\.stamp.mtimeNanoseconds).max() ?? 0
        let settles = now.map { $0.milliseconds * 1_000_000 > newestFolder + IndexCache.racyWindowNanoseconds } ?? false
        if updateCache, parsedNotes.count > 0 || files.count != entries.count
            || snapshot.foldersDiffer(from: scanned.folders, countingRacy: false)
            || settles && snapshot.foldersDiffer(from: scanned.folders) {
            var items: [IndexCache.Update] = []
            items.reserveCapacity(files.count)
            for i in 0..<files.count {
                switch slots[i] {
                case .cached(let n)?: items.append(.kept(n))
                case .read(.record(let record))?: items.append(.read(record))
                default: break
                }
            }
            // A cache that cannot be written now is rebuilt by the next full build.
            try? cache.write(updating: snapshot, items, folders: scanned.folders, scanDiagnostics: scanned.diagnostics)
        }
        return ScheduleSummary(notes: notes, diagnostics: diagnostics, scannedVault: true, parsedNotes: parsedNotes.count,
                               changedNotes: parsedNotes, source: snapshot)
    }

    /// Each scanned file, on every core: the cached entry of an unchanged note, or the file read
    /// and parsed. Nil when more than `maximumParsed` files would be parsed.
    private static func readChanged(_ files: [ScannedFile], snapshot: IndexCache.Snapshot, cache: IndexCache, concurrency: Int?,
                                    maximumParsed: Int) -> ResultSlots<Slot>? {
        let io = cache.io
        let entries = snapshot.entries
        var numbers: [String: Int] = [:]
        numbers.reserveCapacity(entries.count)
        for (i, e) in entries.enumerated() { numbers[e.path] = i }
        let slots = ResultSlots<Slot>(count: files.count)
        let parsedCount = AtomicCounter()
        let lookup = numbers
        let fewChanged = inParallelChunks(of: files.count, chunk: 256, concurrency: concurrency) { range in
            for i in range {
                let file = files[i]
                if let n = lookup[file.relativePath], snapshot.unchangedStamp(entries[n], fullPath: file.fullPath) != nil {
                    slots[i] = .cached(n)
                    continue
                }
                guard parsedCount.increment() < maximumParsed else { return false }
                slots[i] = .read(IndexCache.Record.read(file, io: io, syntax: cache.syntax))
            }
            return true
        }
        return fewChanged ? slots : nil
    }

    /// The notes parsed again, when none of their card IDs is another's: an entry whose note is
    /// gone or was parsed again no longer owns its card IDs. Nil otherwise, or when a file was not
    /// read.
    private static func parsedNotes(_ slots: ResultSlots<Slot>, count: Int, snapshot: IndexCache.Snapshot) -> [Note]? {
        var kept = Set<Int>()
        var parsedNotes: [Note] = []
        for i in 0..<count {
            switch slots[i] {
            case .cached(let n)?: kept.insert(n)
            case .read(.record(let record))?: if let note = record.note { parsedNotes.append(note) }
            case .read(.unreadable)?: break
            case nil: return nil
            }
        }
        if !parsedNotes.isEmpty {
            guard let table = try? snapshot.cardIDs() else { return nil }
            var seen = Set<CardID>()
            for note in parsedNotes {
                for card in note.cards {
                    guard seen.insert(card.id).inserted,
                          !table.entries(holding: card.id).contains(where: kept.contains) else { return nil }
                }
            }
        }
        return parsedNotes
    }

    /// One scanned file in ``loadChanged``.
    private enum Slot: Sendable {
        case cached(Int)
        case read(IndexCache.FileRead)
    }
}
