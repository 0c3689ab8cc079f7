import QuireArchive
import QuireSupport
import QuireSystem

/// An Anki package (`.apkg`, `.colpkg`) read into plain values: note types, notes, cards, decks,
/// the review log and the media list, from either package format:
/// - legacy: `collection.anki21` or `collection.anki2` (SQLite, schema 11: note types and decks as
///   JSON in `col`), media list `media` as JSON (`{"0": "cat.jpg"}`), media entries stored as is;
/// - current (Anki 2.1.50 and later): `collection.anki21b` (zstd-compressed SQLite, schema 18: note
///   types, fields, templates and decks in tables), media list `media` as a zstd-compressed
///   protocol buffer, media entries zstd-compressed.
/// A current package also holds a legacy `collection.anki2` saying "please update": the newest
/// collection in the package is the one read.
///
/// The package is untrusted: entries are read into memory with size limits, the database read-only
/// with a step budget (``SQLiteDatabase``), names from it are only ever used as data.
public struct AnkiPackage: Sendable {
    /// A note type: its fields and card templates, and whether it makes cloze cards.
    public struct Notetype: Sendable, Equatable {
        public var id: Int64
        public var name: String
        public var isCloze: Bool
        public var fields: [String]
        /// Each template's name and question and answer formats.
        public var templates: [(name: String, question: String, answer: String)]

        public static func == (a: Notetype, b: Notetype) -> Bool {
            a.id == b.id && a.name == b.name && a.isCloze == b.isCloze && a.fields == b.fields
                && a.templates.map { [$0.name, $0.question, $0.answer] } == b.templates.map { [$0.name, $0.question, $0.answer] }
        }
    }

    /// A note: its fields (HTML) in the note type's order, and its tags.
    public struct Note: Sendable, Equatable {
        public var id: Int64
        public var guid: String
        public var notetype: Int64
        public var fields: [String]
        public var tags: [String]
    }

    /// A card: which note and template (or cloze number − 1), its deck and its scheduling, as
    /// Anki stores them (FORMAT of Anki's `cards` table).
    public struct Card: Sendable, Equatable {
        public var id: Int64
        public var note: Int64
        public var deck: Int64
        public var ordinal: Int
        /// 0 new, 1 learning, 2 review, 3 relearning.
        public var type: Int
        /// −3 buried (user), −2 buried (scheduler), −1 suspended, 0 new, 1 learning, 2 review,
        /// 3 day-learning, 4 preview.
        public var queue: Int
        /// New: position; learning: epoch seconds; review: days since the collection's creation.
        public var due: Int64
        /// Days (review); negative seconds (learning, old versions).
        public var interval: Int64
        /// Ease in permille (2500 = 250 %).
        public var factor: Int64
        public var reps: Int64
        public var lapses: Int64
        /// The original deck of a card in a filtered deck, else 0.
        public var originalDeck: Int64
        /// The original due of a card in a filtered deck, else 0.
        public var originalDue: Int64
        /// The card's JSON data (FSRS memory state `s`, `d`; desired retention `dr`), or "".
        public var data: String
    }

    /// One answer of the review log.
    public struct Review: Sendable, Equatable {
        /// Milliseconds since 1970: when it was answered (and the entry's ID).
        public var id: Int64
        public var card: Int64
        /// 1 Again … 4 Easy (0: a manual reschedule, not an answer).
        public var ease: Int
        /// The interval given (days, or negative seconds).
        public var interval: Int64
        public var lastInterval: Int64
        public var factor: Int64
        /// Milliseconds spent answering.
        public var time: Int64
        /// 0 learn, 1 review, 2 relearn, 3 filtered, 4 manual, 5 rescheduled.
        public var type: Int
    }

    /// The package format read.
    public enum Format: String, Sendable {
        case legacy = "collection.anki2", legacy21 = "collection.anki21", current = "collection.anki21b"
    }

    /// Which collection of the package was read.
    public var format: Format
    /// The collection's creation, seconds since 1970, at the start of its day: review due days count from it.
    public var created: Int64
    /// The note types, by ID.
    public var notetypes: [Int64: Notetype] = [:]
    /// Deck names, their parts separated by `::`.
    public var decks: [Int64: String] = [:]
    /// The notes, by ID order.
    public var notes: [Note] = []
    /// The cards, by note and template.
    public var cards: [Card] = []
    /// The review log, card by card, in time order.
    public var reviews: [Review] = []
    /// The media files: each name as notes use it, and the package entry holding its bytes.
    public var media: [(name: String, entry: String)] = []

    /// The largest collection or media file read (once decompressed).
    public static let entryLimit = 1 << 30

    /// The most an import of a package of `size` bytes reads and writes in all, unless the user
    /// raises it: 40 times the package, at least 256 MB (INTERCHANGE.md, "Limits"). A real
    /// collection inflates a few times, media not at all; a small package that would become
    /// gigabytes is a bomb.
    public static func defaultBudget(packageSize: Int64) -> Int {
        max(256 << 20, Int(clamping: packageSize.multipliedReportingOverflow(by: 40).overflow ? Int64.max : packageSize * 40))
    }

    /// The budget's rule, for messages.
    public static let budgetRule = "an import reads and writes at most 40 times its package's size, at least 256 MB; --max-size raises it"

    /// Reads the package at `path` (`name` in errors); its collection, once decompressed, at most
    /// `budget` bytes (and ``entryLimit``).
    public static func read(path: String, name: String, budget: Int = entryLimit) throws(InterchangeError) -> AnkiPackage {
        let limit = min(Self.entryLimit, budget)
        func invalid(_ message: String) -> InterchangeError { .invalid(.init(.error, path: name, message: message)) }
        // Only a regular file: a FIFO would block the reader, a device never end.
        guard let stamp = FileIO().stamp(path) else { throw invalid("no such file") }
        guard stamp.isRegularFile else { throw invalid("not a regular file; not read") }
        do {
            let zip = try ZipArchive(path: path, name: name)
            let entries = Set(zip.entries.filter(\.isFile).map(\.path))
            let format: Format
            var bytes: [UInt8]
            if entries.contains(Format.current.rawValue), let b = try zip.read(Format.current.rawValue, limit: limit) {
                format = .current
                bytes = try Zstd.decompress(b, limit: limit, name: name + ": " + Format.current.rawValue)
            } else if let b = try zip.read(Format.legacy21.rawValue, limit: limit) {
                format = .legacy21
                bytes = b
            } else if let b = try zip.read(Format.legacy.rawValue, limit: limit) {
                format = .legacy
                bytes = b
            } else {
                throw invalid("no Anki collection in the package (collection.anki21b, collection.anki21 or collection.anki2)")
            }
            let db = try SQLiteDatabase(bytes: bytes, name: name + ": " + format.rawValue)
            bytes = []
            var package = try read(db, format: format, name: name)
            package.media = try mediaList(zip, current: format == .current, name: name)
            return package
        } catch let error as ArchiveError {
            // The package's own name is the diagnostic's path; a part of it (the collection) is named.
            let message = error.name == name ? error.message : error.description
            if case .tooLarge = error, limit < Self.entryLimit { throw invalid(message + " (" + budgetRule + ")") }
            throw invalid(message)
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw invalid("\(error)")
        }
    }

    /// The collection's tables.
    package static func read(_ db: SQLiteDatabase, format: Format, name: String) throws -> AnkiPackage {
        func invalid(_ message: String) -> InterchangeError { .invalid(.init(.error, path: name, message: message)) }
        let tables = try db.tableNames()
        for table in ["col", "notes", "cards", "revlog"] where !tables.contains(table) {
            throw invalid("the collection has no '\(table)' table")
        }
        // A computed column is read as the database computes it, of any size and at any cost
        // (a 3.3 KB package made 382 MB of notes): Anki never makes one, and none is read.
        for table in ["col", "notes", "cards", "revlog", "notetypes", "fields", "templates", "decks"] where tables.contains(table) {
            if let column = try db.generatedColumns(of: table).first {
                throw invalid("the collection's '\(table)' table has a computed column ('\(column)'), which Anki never makes; not read")
            }
        }
        var package = AnkiPackage(format: format, created: 0)
        var modelsJSON: [UInt8] = [], decksJSON: [UInt8] = []
        try db.query("SELECT crt, models, decks FROM col LIMIT 1") { row in
            package.created = row.int(0)
            modelsJSON = row.bytes(1)
            decksJSON = row.bytes(2)
        }
        if tables.contains("notetypes"), tables.contains("fields"), tables.contains("templates"), tables.contains("decks") {
            try db.query("SELECT id, name, config FROM notetypes") { row in
                let config = ProtobufFields(row.bytes(2))
                package.notetypes[row.int(0)] = Notetype(id: row.int(0), name: row.text(1) ?? "", isCloze: config?.varint(1) == 1,
                                                         fields: [], templates: [])
            }
            try db.query("SELECT ntid, ord, name FROM fields ORDER BY ntid, ord") { row in
                package.notetypes[row.int(0)]?.fields.append(row.text(2) ?? "")
            }
            try db.query("SELECT ntid, ord, name, config FROM templates ORDER BY ntid, ord") { row in
                let config = ProtobufFields(row.bytes(3))
                package.notetypes[row.int(0)]?.templates.append((row.text(2) ?? "", config?.string(1) ?? "", config?.string(2) ?? ""))
            }
            try db.query("SELECT id, name FROM decks") { row in
                package.decks[row.int(0)] = (row.text(1) ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(separator: "::")
            }
        } else {
            package.notetypes = try legacyNotetypes(modelsJSON, name: name)
            package.decks = try legacyDecks(decksJSON, name: name)
        }
        try db.query("SELECT id, guid, mid, tags, flds FROM notes ORDER BY id") { row in
            package.notes.append(Note(id: row.int(0), guid: row.text(1) ?? "", notetype: row.int(2),
                                      fields: (row.text(4) ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init),
                                      tags: (row.text(3) ?? "").split(whereSeparator: { $0 == " " || $0 == "\u{3000}" }).map(String.init)))
        }
        let dataColumn = try db.columnNames(of: "cards").contains("data")
        try db.query("SELECT id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, odid, odue\(dataColumn ? ", data" : "") FROM cards ORDER BY nid, ord, id") { row in
            package.cards.append(Card(id: row.int(0), note: row.int(1), deck: row.int(2), ordinal: Int(clamping: min(max(row.int(3), 0), 1 << 20)),
                                      type: Int(clamping: row.int(4)), queue: Int(clamping: row.int(5)), due: row.int(6),
                                      interval: row.int(7), factor: row.int(8), reps: row.int(9), lapses: row.int(10),
                                      originalDeck: row.int(11), originalDue: row.int(12), data: dataColumn ? row.text(13) ?? "" : ""))
        }
        try db.query("SELECT id, cid, ease, ivl, lastIvl, factor, time, type FROM revlog ORDER BY cid, id") { row in
            package.reviews.append(Review(id: row.int(0), card: row.int(1), ease: Int(clamping: row.int(2)), interval: row.int(3),
                                          lastInterval: row.int(4), factor: row.int(5), time: row.int(6), type: Int(clamping: row.int(7))))
        }
        return package
    }

    /// Schema 11's note types: `col.models`, JSON by ID.
    static func legacyNotetypes(_ json: [UInt8], name: String) throws -> [Int64: Notetype] {
        guard case .object(let models) = try JSONValue(parsing: json) else {
            throw InterchangeError.invalid(.init(.error, path: name, message: "the collection's note types are not a JSON object"))
        }
        var result: [Int64: Notetype] = [:]
        for (key, model) in models {
            guard case .object(let m) = model, let id = Int64(key) else { continue }
            func field(_ k: String) -> JSONValue? { m.first { $0.0 == k }?.1 }
            func string(_ v: JSONValue?) -> String { if case .string(let s) = v { s } else { "" } }
            func int(_ v: JSONValue?) -> Int { if case .int(let i) = v { i } else { 0 } }
            func list(_ v: JSONValue?) -> [[(String, JSONValue)]] {
                guard case .array(let items) = v else { return [] }
                return items.compactMap { if case .object(let o) = $0 { o } else { nil } }
            }
            func get(_ o: [(String, JSONValue)], _ k: String) -> JSONValue? { o.first { $0.0 == k }?.1 }
            let fields = list(field("flds")).sorted { int(get($0, "ord")) < int(get($1, "ord")) }.map { string(get($0, "name")) }
            let templates = list(field("tmpls")).sorted { int(get($0, "ord")) < int(get($1, "ord")) }.map {
                (name: string(get($0, "name")), question: string(get($0, "qfmt")), answer: string(get($0, "afmt")))
            }
            result[id] = Notetype(id: id, name: string(field("name")), isCloze: int(field("type")) == 1, fields: fields, templates: templates)
        }
        return result
    }

    /// Schema 11's decks: `col.decks`, JSON by ID, names with `::`.
    static func legacyDecks(_ json: [UInt8], name: String) throws -> [Int64: String] {
        guard case .object(let decks) = try JSONValue(parsing: json) else {
            throw InterchangeError.invalid(.init(.error, path: name, message: "the collection's decks are not a JSON object"))
        }
        var result: [Int64: String] = [:]
        for (key, deck) in decks {
            guard case .object(let d) = deck, let id = Int64(key), case .string(let deckName)? = d.first(where: { $0.0 == "name" })?.1 else { continue }
            result[id] = deckName
        }
        return result
    }

    /// The media list: names as notes use them, with their entries.
    static func mediaList(_ zip: ZipArchive, current: Bool, name: String) throws -> [(name: String, entry: String)] {
        guard let raw = try zip.read("media", limit: 64 << 20) else { return [] }
        if current || Zstd.isFrame(raw) {
            let bytes = Zstd.isFrame(raw) ? try Zstd.decompress(raw, limit: 256 << 20, name: name + ": media") : raw
            guard let list = ProtobufFields(bytes) else {
                throw InterchangeError.invalid(.init(.error, path: name, message: "the media list is not readable"))
            }
            // MediaEntries { repeated MediaEntry entries = 1 }; MediaEntry { name = 1; size = 2;
            // sha1 = 3; legacy_zip_filename = 255 }: entry k is stored as "k".
            return list.all(1).enumerated().compactMap { k, entry in
                guard let e = ProtobufFields(entry), let file = e.string(1) else { return nil }
                return (file, e.varint(255).map(String.init) ?? String(k))
            }
        }
        guard case .object(let map) = try JSONValue(parsing: raw) else {
            throw InterchangeError.invalid(.init(.error, path: name, message: "the media list is not a JSON object"))
        }
        return map.compactMap { entry, value in
            guard case .string(let file) = value else { return nil }
            return (file, entry)
        }.sorted { (Int($0.entry) ?? 0, $0.entry) < (Int($1.entry) ?? 0, $1.entry) }
    }

    /// The bytes of a media file (decompressed in a current package).
    public static func mediaBytes(_ zip: ZipArchive, entry: String, current: Bool, limit: Int) throws(ArchiveError) -> [UInt8]? {
        guard let raw = try zip.read(entry, limit: limit) else { return nil }
        return current && Zstd.isFrame(raw) ? try Zstd.decompress(raw, limit: limit, name: zip.name + ": " + entry) : raw
    }
}
