import Dispatch
import Synchronization
import QuireModel
import QuireSystem
import QuireParsing
import QuireSupport
import QuireVault

/// Where a card lives in the index.
public struct CardLocation: Hashable, Sendable {
    /// Index into ``VaultIndex/notes``.
    public var note: Int
    /// Index into that note's `cards`.
    public var card: Int

    package init(note: Int, card: Int) {
        self.note = note
        self.card = card
    }
}

/// The in-memory index of a vault: every note and card, decks, tags and the problems found.
public struct VaultIndex: Sendable {
    /// The vault root the paths are relative to.
    public let root: String
    /// Notes sorted by path.
    public private(set) var notes: [Note]
    /// Problems found while reading, sorted by path and line.
    public internal(set) var diagnostics: [Diagnostic]
    /// The version of each note's file that was read, parallel to `notes`.
    public internal(set) var stamps: [FileStamp]
    /// Where each card ID's card is, and the cards left out as duplicates.
    private var cardTable: CardLocations
    /// The problems found across files (a card ID used twice), also in `diagnostics`.
    public private(set) var crossFileDiagnostics: [Diagnostic] = []
    /// How the persistent cache was used to build this index, when one was given.
    public private(set) var cacheUse: CacheUse?

    /// Builds an index by scanning and parsing every note, in parallel on all cores.
    ///
    /// - Parameters:
    ///   - root: the vault root.
    ///   - io: the file layer to read through.
    ///   - concurrency: how many files are parsed at once (default: one per core).
    ///   - cache: the persistent cache to start from and to update, if any. Files whose size,
    ///     modification time and inode match their cache entry are not read (those modified just
    ///     before the cache was written are read and their digest compared); a cache that cannot
    ///     be used is rebuilt. See ``cacheUse``.
    ///   - syntax: the card syntax (the cache's, when one is given).
    ///   - ignored: the paths left out (the cache's, when one is given).
    ///   - progress: told how many files the scan found, then of every chunk of them read (from
    ///     the cache or the file).
    public static func build(root: String, io: FileIO = FileIO(), concurrency: Int? = nil,
                             cache: IndexCache? = nil, syntax: CardSyntax = .quire, ignored: IgnoredPaths = .none,
                             progress: WorkProgress? = nil) -> VaultIndex {
        let scanned = VaultScanner(io: io, ignored: cache?.ignored ?? ignored).scan(root: root)
        progress?.begin(total: scanned.files.count)
        // Read in a function of its own, so that the old cache's entries are freed before the new
        // cache is written.
        let read = readFiles(scanned, root: root, io: io, concurrency: concurrency, cache: cache,
                             syntax: cache?.syntax ?? syntax, progress: progress)
        var use = read.use
        var index = VaultIndex(root: root, sortedNotes: read.notes, stamps: read.stamps, diagnostics: read.diagnostics,
                               cards: read.cards)
        func writeCache(_ cache: IndexCache) {
            do throws(FileIOError) {
                if let stream = read.stream {
                    try stream.finish(recordCount: read.use.parsed, crossFileDiagnostics: index.crossFileDiagnostics,
                                      folders: scanned.folders, scanDiagnostics: scanned.diagnostics)
                } else {
                    try cache.write(read.records, crossFileDiagnostics: index.crossFileDiagnostics, folders: scanned.folders,
                                    scanDiagnostics: scanned.diagnostics)
                }
                use.written = true
            } catch {
                use.writeError = error
            }
        }
        // Rewritten when anything differs, also a folder's stamp (a file that is not a note was
        // added, say), so that the next run can trust the folders without reading them.
        if let cache, read.mustRewrite || read.crossFileDiagnostics != index.crossFileDiagnostics {
            writeCache(cache)
        }
        index.cacheUse = cache == nil ? nil : use
        return index
    }

    /// What ``readFiles(_:root:io:concurrency:cache:syntax:progress:)`` gathered.
    private struct FilesRead {
        var notes: [Note] = []
        var stamps: [FileStamp] = []
        /// Every file's record, for a cache written after reading (not kept when it is written
        /// while reading).
        var records: [IndexCache.Record] = []
        var cards = CardLocations()
        var diagnostics: [Diagnostic] = []
        var use = CacheUse()
        /// Whether the cache differs from what was read in anything but the duplicate IDs.
        var mustRewrite = true
        /// The duplicate-ID diagnostics the cache holds.
        var crossFileDiagnostics: [Diagnostic]?
        /// The new cache, written while the files were read (when there was no cache to use).
        var stream: IndexCache.NoteStream?
    }

    /// Reads every scanned file, from the cache when unchanged, in parallel.
    private static func readFiles(_ scanned: (files: [ScannedFile], diagnostics: [Diagnostic], folders: [ScannedFolder]),
                                  root: String, io: FileIO, concurrency: Int?, cache: IndexCache?,
                                  syntax: CardSyntax, progress: WorkProgress?) -> FilesRead {
        let files = scanned.files
        var use = CacheUse()
        var snapshot: IndexCache.Snapshot?
        var entryNumbers: [String: Int] = [:]
        if let cache {
            switch cache.load() {
            case .success(let s):
                snapshot = s
                entryNumbers.reserveCapacity(s.entries.count)
                for (i, e) in s.entries.enumerated() { entryNumbers[e.path] = i }
            case .failure(let problem):
                use.problem = problem
            }
        }
        let loaded = snapshot, numbers = entryNumbers
        // With no cache to start from, every file is parsed and the new cache is written as the
        // chunks come, beside the parsing.
        let chunk = 16
        let stream = cache.flatMap { snapshot == nil ? IndexCache.NoteStream($0) : nil }
        // Each chunk's results are taken into the index in path order as soon as the chunks before
        // it are in, by whichever thread hands in the next one: the card table and the new cache
        // are built beside the parsing, not after it.
        let ordered = InOrderChunks<[FileResult]>()
        let assembly = Mutex(Assembly(files: files.count, diagnostics: scanned.diagnostics,
                                      keepsRecords: cache != nil && stream == nil))
        inParallelChunks(of: files.count, chunk: chunk, concurrency: concurrency) { range in
            var fromCache: [Int: IndexCache.Record] = [:]
            if let loaded {
                fromCache = reuse(files[range], firstIndex: range.lowerBound, snapshot: loaded, entryNumbers: numbers)
            }
            var results: [FileResult] = []
            results.reserveCapacity(range.count)
            for i in range {
                if let record = fromCache.removeValue(forKey: i) {
                    results.append(.record(record, reused: true))
                    continue
                }
                switch IndexCache.Record.read(files[i], io: io, syntax: syntax) {
                case .record(let record): results.append(.record(record, reused: false))
                case .unreadable(let d): results.append(.unreadable(d))
                }
            }
            ordered.add(range.lowerBound / chunk, results) { results in
                if let stream {
                    stream.write(results.compactMap { if case .record(let r, _) = $0 { r } else { nil } })
                }
                assembly.withLock { $0.take(results) }
            }
            progress?.advance(by: range.count)
            return true
        }
        // The new cache's card-ID table is sorted beside the making of the card table.
        stream?.recordsAreIn()
        // The card builder is taken out, so that what it gathered is freed once the table is made
        // (the assembly would keep it to the end of this function).
        let (done, cardBuilder) = assembly.withLock { a in
            let builder = a.cards
            a.cards = CardLocations.Builder()
            return (a, builder)
        }
        let cards = done.notes.withUnsafeBufferPointer { cardBuilder.build(notes: $0) }
        var read = FilesRead(notes: done.notes, stamps: done.stamps, records: done.records, cards: cards,
                             diagnostics: done.diagnostics, use: use, stream: stream)
        read.use.reused = done.reused
        read.use.parsed = done.parsed
        let records = done.records
        if let snapshot {
            read.crossFileDiagnostics = snapshot.crossFileDiagnostics
            read.mustRewrite = read.use.parsed > 0 || snapshot.entries.count != records.count
                || snapshot.scanDiagnostics != scanned.diagnostics || snapshot.foldersDiffer(from: scanned.folders)
                || !snapshot.cardIDsIntact()
        }
        return read
    }

    /// The cached records of the files in `files` that are unchanged since the cache was written,
    /// by file number. The notes of one chunk are read from the cache in one read.
    private static func reuse(_ files: ArraySlice<ScannedFile>, firstIndex: Int, snapshot: IndexCache.Snapshot,
                              entryNumbers: [String: Int]) -> [Int: IndexCache.Record] {
        var candidates: [(file: Int, entry: IndexCache.Entry, stamp: FileStamp)] = []
        for (offset, file) in files.enumerated() {
            guard let n = entryNumbers[file.relativePath] else { continue }
            let entry = snapshot.entries[n]
            guard let stamp = snapshot.unchangedStamp(entry, fullPath: file.fullPath) else { continue }
            candidates.append((firstIndex + offset, entry, stamp))
        }
        let ranges = candidates.compactMap(\.entry.noteRange)
        guard let low = ranges.map(\.lowerBound).min(), let high = ranges.map(\.upperBound).max(),
              high - low <= 8 << 20 || ranges.count == 1,
              let bytes = try? snapshot.readNotes(low..<high) else {
            // Notes that are not together in the cache (or none): only files without a note are reused.
            var out: [Int: IndexCache.Record] = [:]
            for c in candidates where c.entry.noteRange == nil {
                out[c.file] = IndexCache.Record(path: c.entry.path, stamp: c.stamp, digest: c.entry.digest, note: nil,
                                                diagnostics: c.entry.diagnostics)
            }
            return out
        }
        var out: [Int: IndexCache.Record] = [:]
        bytes.withUnsafeBytes { raw in
            for c in candidates {
                // A note that does not decode is read from its file instead.
                guard let note = try? snapshot.note(c.entry, in: raw, from: low) else { continue }
                out[c.file] = IndexCache.Record(path: c.entry.path, stamp: c.stamp, digest: c.entry.digest, note: note,
                                                diagnostics: c.entry.diagnostics)
            }
        }
        return out
    }

    /// What happened to one file in ``build(root:io:concurrency:cache:)``.
    private enum FileResult: Sendable {
        case record(IndexCache.Record, reused: Bool)
        case unreadable(Diagnostic)
    }

    /// The files' results taken in, in path order, as the reading threads hand them in.
    private struct Assembly: Sendable {
        let keepsRecords: Bool
        var notes: [Note] = []
        var stamps: [FileStamp] = []
        var records: [IndexCache.Record] = []
        var cards = CardLocations.Builder()
        var diagnostics: [Diagnostic]
        var reused = 0
        var parsed = 0

        init(files: Int, diagnostics: [Diagnostic], keepsRecords: Bool) {
            self.diagnostics = diagnostics
            self.keepsRecords = keepsRecords
            notes.reserveCapacity(files)
            stamps.reserveCapacity(files)
            if keepsRecords { records.reserveCapacity(files) }
        }

        /// Takes in the results of the files after those taken in so far.
        mutating func take(_ results: [FileResult]) {
            for result in results {
                switch result {
                case .record(let record, let wasReused):
                    if wasReused { reused += 1 } else { parsed += 1 }
                    diagnostics += record.diagnostics
                    if let note = record.note {
                        notes.append(note)
                        stamps.append(record.stamp)
                        note.cards.withUnsafeBufferPointer { cards.add(note: notes.count - 1, cards: $0) }
                    }
                    if keepsRecords { records.append(record) }
                case .unreadable(let d):
                    diagnostics.append(d)
                }
            }
        }
    }

    /// Creates an index from parsed notes (sorted by path here).
    public init(root: String, notes: [Note], stamps: [FileStamp]? = nil, diagnostics: [Diagnostic] = []) {
        // Builds hand the notes over in path order already; others may not.
        var notes = notes
        var stamps = stamps
        if !notes.indices.dropFirst().allSatisfy({ utf8Precedes(notes[$0 - 1].path, notes[$0].path) }) {
            let order = notes.indices.sorted { utf8Precedes(notes[$0].path, notes[$1].path) }
            notes = order.map { notes[$0] }
            stamps = stamps.map { given in order.map { given[$0] } }
        }
        let cards = notes.withUnsafeBufferPointer { CardLocations.build($0) }
        self.init(root: root, sortedNotes: notes, stamps: stamps, diagnostics: diagnostics, cards: cards)
    }

    /// Creates an index from notes in path order and their card table, filled from those notes.
    init(root: String, sortedNotes notes: [Note], stamps: [FileStamp]?, diagnostics: [Diagnostic], cards: CardLocations) {
        self.root = root
        self.notes = notes
        self.stamps = stamps ?? []
        self.cardTable = cards
        self.diagnostics = diagnostics + cards.duplicates
        crossFileDiagnostics = cards.duplicates
        Self.sortDiagnostics(&self.diagnostics)
    }

    /// Sorts diagnostics by path, then line and column (stable for equal places).
    static func sortDiagnostics(_ diagnostics: inout [Diagnostic]) {
        diagnostics.sort {
            (utf8Precedes($0.path, $1.path) && $0.path != $1.path)
                || ($0.path == $1.path && ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0))
        }
    }

    // MARK: - Lookup

    /// The number of cards.
    public var cardCount: Int { cardTable.count }

    /// Finds a card by its ID, or by a unique prefix of at least four characters.
    public func location(of idText: String) -> CardLocation? {
        if let id = CardID(idText), let loc = cardTable.location(of: id, in: notes) { return loc }
        guard idText.count >= 4 else { return nil }
        var found: CardLocation?
        var unique = true
        // IDs are read in place: copying each card out would retain all of its strings.
        notes.withUnsafeBufferPointer { notes in
            cardTable.forEachLocation { loc in
                guard unique, notes[loc.note].cards.withUnsafeBufferPointer({ $0[loc.card].id.rawValue.hasPrefix(idText) })
                else { return }
                if found != nil { unique = false }
                found = loc
            }
        }
        return unique ? found : nil
    }

    /// Finds a card by its exact ID.
    public func location(exactly id: CardID) -> CardLocation? { cardTable.location(of: id, in: notes) }

    /// The card at a location.
    public func card(at loc: CardLocation) -> Card { notes[loc.note].cards[loc.card] }

    /// All cards matching a query, in note-path and card order, skipping cards left out as
    /// duplicates.
    public func cards(matching query: Query, now: Timestamp, dayEnd: Timestamp) -> [CardLocation] {
        var out: [CardLocation] = []
        forEachCard(matching: query, now: now, dayEnd: dayEnd) { out.append($0) }
        return out
    }

    /// The number of cards ``cards(matching:now:)`` gives, without listing them.
    public func cardCount(matching query: Query, now: Timestamp, dayEnd: Timestamp) -> Int {
        var count = 0
        forEachCard(matching: query, now: now, dayEnd: dayEnd) { _ in count += 1 }
        return count
    }

    /// Calls `body` with each card matching a query, in note-path and card order, skipping cards
    /// left out as duplicates.
    private func forEachCard(matching query: Query, now: Timestamp, dayEnd: Timestamp, _ body: (CardLocation) -> Void) {
        // A query with only note-level terms is asked once per note, not once per card.
        let perCard = query.dependsOnCard
        // Asking `.all` of a note would copy the note (a retain of each of its strings) for nothing.
        let everyNote = if case .all = query { true } else { false }
        let shadowed = cardTable.shadowed
        // Cards are read in place: copying a card out retains each of its strings.
        notes.withUnsafeBufferPointer { notes in
            for n in notes.indices {
                if !perCard && !everyNote && !query.matches(note: notes[n], now: now, dayEnd: dayEnd) { continue }
                notes[n].cards.withUnsafeBufferPointer { cards in
                    for c in cards.indices where shadowed.isEmpty || !shadowed.contains(CardLocation(note: n, card: c)) {
                        if !perCard || query.matches(card: cards[c], in: notes[n], now: now, dayEnd: dayEnd) {
                            body(CardLocation(note: n, card: c))
                        }
                    }
                }
            }
        }
    }

    /// Indexes of notes matching a query.
    public func notes(matching query: Query, now: Timestamp, dayEnd: Timestamp) -> [Int] {
        notes.indices.filter { query.matches(note: notes[$0], now: now, dayEnd: dayEnd) }
    }

    // MARK: - Updating (see VaultIndex+Update.swift)

    /// Whether some card was left out as a duplicate.
    var hasShadowedCards: Bool { !cardTable.shadowed.isEmpty }

    /// Replaces the note at `position` by a version with the same path.
    mutating func replaceNote(at position: Int, with note: Note, stamp: FileStamp?, oldIDs: Set<CardID>) {
        for id in oldIDs { cardTable.remove(id, inNote: position, of: notes) }
        notes[position] = note
        if let stamp, stamps.count == notes.count { stamps[position] = stamp }
        cardTable.addNew(note: position, of: notes)
    }

    /// Removes the note at `position`; later notes' cards move down by one.
    mutating func removeNote(at position: Int, ids: Set<CardID>) {
        for id in ids { cardTable.remove(id, inNote: position, of: notes) }
        let hadStamps = stamps.count == notes.count
        notes.remove(at: position)
        if hadStamps { stamps.remove(at: position) }
        shiftLocations(from: position + 1, by: -1)
    }

    /// Inserts a note at `position` (its place in path order); later notes' cards move up by one.
    mutating func insertNote(_ note: Note, at position: Int, stamp: FileStamp?) {
        shiftLocations(from: position, by: 1)
        let hadStamps = stamps.count == notes.count
        notes.insert(note, at: position)
        if hadStamps { stamps.insert(stamp ?? FileStamp(size: 0, mtimeNanoseconds: 0, inode: 0, device: 0, mode: 0), at: position) }
        cardTable.addNew(note: position, of: notes)
    }

    /// Moves every card location in notes from `first` on by `delta`, in place.
    private mutating func shiftLocations(from first: Int, by delta: Int) {
        guard first < notes.count || delta < 0 else { return }
        cardTable.shiftNotes(from: first, by: delta)
    }

    /// Rebuilds the card table, the duplicates and their diagnostics from the notes.
    mutating func rebuildLocations() {
        let cross = Set(crossFileDiagnostics)
        let kept = diagnostics.filter { !cross.contains($0) }
        let use = cacheUse
        self = VaultIndex(root: root, notes: notes, stamps: stamps.count == notes.count ? stamps : nil, diagnostics: kept)
        cacheUse = use
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// How an index build used the persistent cache.
public struct CacheUse: Equatable, Sendable {
    /// Files taken from the cache without parsing.
    public var reused = 0
    /// Files read and parsed (new, changed, or not usable from the cache).
    public var parsed = 0
    /// Why the cache could not be used at all, if it could not.
    public var problem: IndexCacheError?
    /// Whether a new cache was written.
    public var written = false
    /// Why writing the new cache failed, if it did (the index itself is complete).
    public var writeError: FileIOError?
}
