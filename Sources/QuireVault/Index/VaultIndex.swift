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
    public private(set) var diagnostics: [Diagnostic]
    /// The version of each note's file that was read, parallel to `notes`.
    public private(set) var stamps: [FileStamp]
    private var locations: [CardID: CardLocation]
    /// Cards left out because an earlier note already uses their ID (normally none).
    private var shadowed: Set<CardLocation> = []

    /// Builds an index by scanning and parsing every note, in parallel on all cores.
    ///
    /// - Parameters:
    ///   - root: the vault root.
    ///   - io: the file layer to read through.
    ///   - concurrency: how many files are parsed at once (default: one per core).
    public static func build(root: String, io: FileIO = FileIO(), concurrency: Int? = nil) -> VaultIndex {
        let scanned = VaultScanner(io: io).scan(root: root)
        let files = scanned.files
        let results = ResultSlots<(Note?, FileStamp?, [Diagnostic])>(count: files.count)
        let workers = max(1, min(concurrency ?? System.coreCount, files.count))
        let chunk = 16
        let chunks = (files.count + chunk - 1) / chunk
        let next = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let c = next.increment()
                guard c < chunks else { break }
                for i in (c * chunk)..<min(files.count, (c + 1) * chunk) {
                    let file = files[i]
                    do throws(FileIOError) {
                        let (bytes, stamp) = try io.read(file.fullPath)
                        let parsed = NoteParser.parse(bytes, path: file.relativePath)
                        results[i] = (parsed.note, stamp, parsed.diagnostics)
                    } catch {
                        results[i] = (nil, nil, [Diagnostic(.error, path: file.relativePath, message: error.description)])
                    }
                }
            }
        }
        var notes: [Note] = []
        var stamps: [FileStamp] = []
        notes.reserveCapacity(files.count)
        var diagnostics = scanned.diagnostics
        for i in 0..<files.count {
            guard let (note, stamp, diags) = results[i] else { continue }
            diagnostics += diags
            if let note, let stamp {
                notes.append(note)
                stamps.append(stamp)
            }
        }
        return VaultIndex(root: root, notes: notes, stamps: stamps, diagnostics: diagnostics)
    }

    /// Creates an index from parsed notes (sorted by path here).
    public init(root: String, notes: [Note], stamps: [FileStamp]? = nil, diagnostics: [Diagnostic] = []) {
        self.root = root
        let order = notes.indices.sorted { utf8Precedes(notes[$0].path, notes[$1].path) }
        self.notes = order.map { notes[$0] }
        let givenStamps = stamps ?? []
        self.stamps = stamps == nil ? [] : order.map { givenStamps[$0] }
        self.locations = [:]
        self.diagnostics = diagnostics
        var extra: [Diagnostic] = []
        locations.reserveCapacity(self.notes.reduce(0) { $0 + $1.cards.count })
        for n in self.notes.indices {
            // Read only the IDs: copying each card out would retain all of its strings.
            let cards = self.notes[n].cards
            for c in cards.indices {
                let id = cards[c].id
                if let existing = locations[id] {
                    if existing.note != n {
                        let other = self.notes[existing.note]
                        let card = cards[c]
                        extra.append(Diagnostic(.error, path: self.notes[n].path, line: card.lines.lowerBound, column: card.column,
                            message: "card ID '\(id)' is also used by \(other.path):\(other.cards[existing.card].lines.lowerBound) (a copied file?); this card is left out"))
                    }
                    shadowed.insert(CardLocation(note: n, card: c))
                    continue
                }
                locations[id] = CardLocation(note: n, card: c)
            }
        }
        self.diagnostics += extra
        self.diagnostics.sort {
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
        for (n, note) in notes.enumerated() {
            for (c, card) in note.cards.enumerated() where shadowed.isEmpty || !shadowed.contains(CardLocation(note: n, card: c)) {
                if query.matches(card: card, in: note, now: now) { out.append(CardLocation(note: n, card: c)) }
            }
        }
        return out
    }

    /// Indexes of notes matching a query.
    public func notes(matching query: Query, now: Timestamp) -> [Int] {
        notes.indices.filter { query.matches(note: notes[$0], now: now) }
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
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
}

/// A counter shared by worker threads.
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Returns the current value and adds one.
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
