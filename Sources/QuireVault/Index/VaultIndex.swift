import Dispatch
import Synchronization
import QuireModel

/// Where a card lives in the index.
public struct CardLocation: Hashable, Sendable {
    /// Index into ``VaultIndex/notes``.
    public var note: Int
    /// Index into that note's `cards`.
    public var card: Int
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
    private var locations: [CardID: CardLocation]
    /// Cards left out because an earlier note already uses their ID (normally none).
    private var shadowed: Set<CardLocation> = []
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
    public static func build(root: String, io: FileIO = FileIO(), concurrency: Int? = nil,
                             cache: IndexCache? = nil) -> VaultIndex {
        let scanned = VaultScanner(io: io).scan(root: root)
        // Read in a function of its own, so that the cache's entries and the per-file results are
        // freed before the index's tables are built (the peak of memory).
        let read = readFiles(scanned, root: root, io: io, concurrency: concurrency, cache: cache)
        var use = read.use
        func writeCache(_ cache: IndexCache, crossFileDiagnostics: () -> [Diagnostic]) {
            do throws(FileIOError) {
                if let stream = read.stream {
                    try stream.finish(records: read.records, crossFileDiagnostics: crossFileDiagnostics,
                                      folders: scanned.folders, scanDiagnostics: scanned.diagnostics)
                } else {
                    try cache.write(read.records, crossFileDiagnostics: crossFileDiagnostics, folders: scanned.folders,
                                    scanDiagnostics: scanned.diagnostics)
                }
                use.written = true
            } catch {
                use.writeError = error
            }
        }
        var index: VaultIndex
        if let cache, read.mustRewrite {
            // The index's tables are built on another thread while the cache's notes are encoded
            // and written; only the cache's last section waits for the index's duplicate IDs.
            let notes = read.notes, stamps = read.stamps, diagnostics = read.diagnostics
            let built = BackgroundValue { VaultIndex(root: root, notes: notes, stamps: stamps, diagnostics: diagnostics) }
            writeCache(cache) { built.value.crossFileDiagnostics }
            index = built.value
        } else {
            index = VaultIndex(root: root, notes: read.notes, stamps: read.stamps, diagnostics: read.diagnostics)
            // Rewritten when anything differs, also a folder's stamp (a file that is not a note
            // was added, say), so that the next run can trust the folders without reading them.
            if let cache, read.crossFileDiagnostics != index.crossFileDiagnostics {
                let cross = index.crossFileDiagnostics
                writeCache(cache) { cross }
            }
        }
        index.cacheUse = cache == nil ? nil : use
        return index
    }

    /// What ``readFiles(_:root:io:concurrency:cache:)`` gathered.
    private struct FilesRead {
        var notes: [Note] = []
        var stamps: [FileStamp] = []
        var records: [IndexCache.Record] = []
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
                                  root: String, io: FileIO, concurrency: Int?, cache: IndexCache?) -> FilesRead {
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
        let results = ResultSlots<FileResult>(count: files.count)
        let loaded = snapshot, numbers = entryNumbers
        // With no cache to start from, every file is parsed and the new cache is written as the
        // chunks come, beside the parsing.
        let chunk = 16
        let stream = cache.flatMap { snapshot == nil ? IndexCache.NoteStream($0) : nil }
        inParallelChunks(of: files.count, chunk: chunk, concurrency: concurrency) { range in
            var fromCache: [Int: IndexCache.Record] = [:]
            if let loaded {
                fromCache = reuse(files[range], firstIndex: range.lowerBound, snapshot: loaded, entryNumbers: numbers)
            }
            var streamed: [IndexCache.Record] = []
            for i in range {
                if let record = fromCache[i] {
                    results[i] = .record(record, reused: true)
                    continue
                }
                switch IndexCache.Record.read(files[i], io: io) {
                case .record(let record):
                    results[i] = .record(record, reused: false)
                    if stream != nil { streamed.append(record) }
                case .unreadable(let d): results[i] = .unreadable(d)
                }
            }
            stream?.add(chunk: range.lowerBound / chunk, streamed)
            return true
        }
        var notes: [Note] = []
        var stamps: [FileStamp] = []
        var records: [IndexCache.Record] = []
        notes.reserveCapacity(files.count)
        records.reserveCapacity(files.count)
        var diagnostics = scanned.diagnostics
        for i in 0..<files.count {
            switch results.take(i) {
            case .record(let record, let reused)?:
                if reused { use.reused += 1 } else { use.parsed += 1 }
                diagnostics += record.diagnostics
                if let note = record.note {
                    notes.append(note)
                    stamps.append(record.stamp)
                }
                if cache != nil { records.append(record) }
            case .unreadable(let d)?:
                diagnostics.append(d)
            case nil:
                break
            }
        }
        var read = FilesRead(notes: notes, stamps: stamps, records: records, diagnostics: diagnostics, use: use,
                             stream: stream)
        if let snapshot {
            read.crossFileDiagnostics = snapshot.crossFileDiagnostics
            read.mustRewrite = use.parsed > 0 || snapshot.entries.count != records.count
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

    /// Creates an index from parsed notes (sorted by path here).
    public init(root: String, notes: [Note], stamps: [FileStamp]? = nil, diagnostics: [Diagnostic] = []) {
        self.root = root
        // Builds hand the notes over in path order already; others may not.
        let sorted = notes.indices.dropFirst().allSatisfy { utf8Precedes(notes[$0 - 1].path, notes[$0].path) }
        if sorted {
            self.notes = notes
            self.stamps = stamps ?? []
        } else {
            let order = notes.indices.sorted { utf8Precedes(notes[$0].path, notes[$1].path) }
            self.notes = order.map { notes[$0] }
            let givenStamps = stamps ?? []
            self.stamps = stamps == nil ? [] : order.map { givenStamps[$0] }
        }
        self.locations = [:]
        self.diagnostics = diagnostics
        var extra: [Diagnostic] = []
        locations.reserveCapacity(self.notes.reduce(0) { $0 + $1.cards.count })
        for n in self.notes.indices {
            // Read only the IDs: copying each card out would retain all of its strings.
            let cards = self.notes[n].cards
            for c in cards.indices {
                let id = cards[c].id
                // One hash per card: insert, and put the first card back in the rare duplicate case.
                if let existing = locations.updateValue(CardLocation(note: n, card: c), forKey: id) {
                    locations[id] = existing
                    if existing.note != n {
                        let other = self.notes[existing.note]
                        let card = cards[c]
                        extra.append(Diagnostic(.error, path: self.notes[n].path, line: card.lines.lowerBound, column: card.column,
                            message: "card ID '\(id)' is also used by \(other.path):\(other.cards[existing.card].lines.lowerBound) (a copied file?); this card is left out"))
                    }
                    shadowed.insert(CardLocation(note: n, card: c))
                }
            }
        }
        self.diagnostics += extra
        crossFileDiagnostics = extra
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
    public var cardCount: Int { locations.count }

    /// Finds a card by its ID, or by a unique prefix of at least four characters.
    public func location(of idText: String) -> CardLocation? {
        if let id = CardID(idText), let loc = locations[id] { return loc }
        guard idText.count >= 4 else { return nil }
        var found: CardLocation?
        for (id, loc) in locations where id.rawValue.hasPrefix(idText) {
            if found != nil { return nil }
            found = loc
        }
        return found
    }

    /// Finds a card by its exact ID.
    public func location(exactly id: CardID) -> CardLocation? { locations[id] }

    /// The card at a location.
    public func card(at loc: CardLocation) -> Card { notes[loc.note].cards[loc.card] }

    /// All cards matching a query, in note-path and card order, skipping cards left out as
    /// duplicates.
    public func cards(matching query: Query, now: Timestamp) -> [CardLocation] {
        var out: [CardLocation] = []
        // A query with only note-level terms is asked once per note, not once per card.
        let perCard = query.dependsOnCard
        // Cards are read in place: copying a card out retains each of its strings.
        notes.withUnsafeBufferPointer { notes in
            for n in notes.indices {
                if !perCard && !query.matches(note: notes[n], now: now) { continue }
                notes[n].cards.withUnsafeBufferPointer { cards in
                    for c in cards.indices where shadowed.isEmpty || !shadowed.contains(CardLocation(note: n, card: c)) {
                        if !perCard || query.matches(card: cards[c], in: notes[n], now: now) {
                            out.append(CardLocation(note: n, card: c))
                        }
                    }
                }
            }
        }
        return out
    }

    /// Indexes of notes matching a query.
    public func notes(matching query: Query, now: Timestamp) -> [Int] {
        notes.indices.filter { query.matches(note: notes[$0], now: now) }
    }

    // MARK: - Updating (see VaultIndex+Update.swift)

    /// Whether some card was left out as a duplicate.
    var hasShadowedCards: Bool { !shadowed.isEmpty }

    /// Replaces the note at `position` by a version with the same path.
    mutating func replaceNote(at position: Int, with note: Note, stamp: FileStamp?, oldIDs: Set<CardID>) {
        for id in oldIDs where locations[id]?.note == position { locations[id] = nil }
        notes[position] = note
        if let stamp, stamps.count == notes.count { stamps[position] = stamp }
        for (c, card) in note.cards.enumerated() where locations[card.id] == nil {
            locations[card.id] = CardLocation(note: position, card: c)
        }
    }

    /// Removes the note at `position`; later notes' cards move down by one.
    mutating func removeNote(at position: Int, ids: Set<CardID>) {
        for id in ids where locations[id]?.note == position { locations[id] = nil }
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
        for (c, card) in note.cards.enumerated() where locations[card.id] == nil {
            locations[card.id] = CardLocation(note: position, card: c)
        }
    }

    /// Moves every card location in notes from `first` on by `delta`, in place.
    private mutating func shiftLocations(from first: Int, by delta: Int) {
        guard first < notes.count || delta < 0 else { return }
        var i = locations.values.startIndex
        while i != locations.values.endIndex {
            if locations.values[i].note >= first { locations.values[i].note += delta }
            locations.values.formIndex(after: &i)
        }
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

// MARK: - Concurrency helpers

/// Fixed slots written by parallel workers, each slot by exactly one worker.
final class ResultSlots<T: Sendable>: Sendable {
    private let storage: Mutex<[T?]>

    init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    subscript(i: Int) -> T? {
        get { storage.withLock { $0[i] } }
        set { storage.withLock { $0[i] = newValue } }
    }

    /// Moves the value out of slot `i`, leaving it empty.
    func take(_ i: Int) -> T? {
        storage.withLock { slots in
            var value: T?
            swap(&value, &slots[i])
            return value
        }
    }
}

/// A value computed on another thread from the moment it is made; ``value`` waits for it.
final class BackgroundValue<T: Sendable>: Sendable {
    private let slot = ResultSlots<T>(count: 1)
    private let done = DispatchGroup()
    private let work: @Sendable () -> T

    init(_ work: @escaping @Sendable () -> T) {
        self.work = work
        DispatchQueue.global().async(group: done) { [slot] in slot[0] = work() }
    }

    /// The value, once computed.
    var value: T {
        done.wait()
        // The slot is always filled once the work is done; computing again only keeps this total.
        return slot[0] ?? work()
    }
}

/// Runs `body` on consecutive ranges of `0..<count`, `chunk` indexes at a time, on up to
/// `concurrency` threads (default: one per core), taking chunks in order as threads come free.
/// When `body` returns false, no thread starts another chunk.
///
/// - Returns: false when `body` stopped the run.
@discardableResult
func inParallelChunks(of count: Int, chunk: Int, concurrency: Int?, _ body: @Sendable (Range<Int>) -> Bool) -> Bool {
    let workers = max(1, min(concurrency ?? System.coreCount, count))
    let chunks = (count + chunk - 1) / chunk
    let next = AtomicCounter()
    let stopped = AtomicFlag()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while !stopped.isSet {
            let c = next.increment()
            guard c < chunks else { break }
            if !body((c * chunk)..<min(count, (c + 1) * chunk)) { stopped.set() }
        }
    }
    return !stopped.isSet
}

/// A flag any worker thread can raise.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .relaxed) }

    func set() { value.store(true, ordering: .relaxed) }
}

/// A counter shared by worker threads.
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Returns the current value and adds one.
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
