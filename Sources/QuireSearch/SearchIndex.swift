import QuireArchive
import QuireEmbedding
import QuireIndex
import QuireModel
import QuireSystem
import QuireVault

/// Why the search index could not be used.
public enum SearchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The index file could not be opened, read or written (rebuild it: it is a cache).
    case index(String)

    public var description: String {
        switch self {
        case .index(let reason): "the search index: \(reason)"
        }
    }
}

/// A chunk found by a search: where it is, and a snippet with the matched words marked.
public struct SearchHit: Sendable, Equatable {
    /// The chunk's row in the index (the same chunk in two result lists has the same one).
    public var chunk: Int64
    public var path: String
    public var lines: ClosedRange<Int>
    public var headingPath: [String]
    /// The card the chunk is, if it is one.
    public var card: CardID?
    /// The page of the imported document the chunk comes from, if its note records pages.
    public var page: Int? = nil
    /// The time in the recording the chunk was transcribed from, in seconds, if its note records times.
    public var time: Int? = nil
    /// The chunk's text around the matches, each match between `marks.open` and `marks.close`
    /// (a semantic hit: the chunk's first words).
    public var snippet: String
    /// How well it matched, higher better: bm25 negated (lexical), the cosine (semantic), the
    /// reciprocal-rank fusion of both (hybrid).
    public var score: Double

    /// A place in the notes given as a passage (a card's own section, for `explain`), not found
    /// by a search: no chunk row (`chunk` -1), the score 1.
    public init(path: String, lines: ClosedRange<Int>, headingPath: [String], text: String) {
        self.init(chunk: -1, path: path, lines: lines, headingPath: headingPath, card: nil, snippet: text, score: 1)
    }

    init(chunk: Int64, path: String, lines: ClosedRange<Int>, headingPath: [String], card: CardID?, page: Int? = nil, time: Int? = nil,
         snippet: String, score: Double) {
        self.chunk = chunk
        self.path = path
        self.lines = lines
        self.headingPath = headingPath
        self.card = card
        self.page = page
        self.time = time
        self.snippet = snippet
        self.score = score
    }
}

/// The full-text index of a vault's chunks (FORMAT: `.quire/cache/search.sqlite`, a rebuildable
/// cache), in SQLite's FTS5: words through the `porter unicode61 remove_diacritics 2` tokenizer
/// (English stemming, accents ignored), and every chunk's text again through the `trigram`
/// tokenizer, so that CJK text — which has no spaces between words — is found by substring.
/// Notes are indexed and replaced one by one, each with the digest of the bytes it was read from.
/// With a sentence-embedding model, each chunk's vector is kept too, by the hash of the text it
/// was computed from (an edited note's unchanged chunks keep theirs).
public final class SearchIndex {
    private(set) var db: SQLiteConnection
    /// Where the index lives (`:memory:` for none).
    let path: String
    /// The marks put around matched words in snippets.
    public static let marks = (open: "\u{1}", close: "\u{2}")

    /// The schema's and the chunker's version: an index written by another is rebuilt (6: no chunk
    /// longer than ``NoteChunker/hardMaximumWords``; 7: sentences cut by ``SentenceSplitter``; 8:
    /// chunk rows numbered without reuse, so a vector file knows the chunks written after it).
    static let version = "8"
    /// Versions whose chunks are cut as this one cuts them: their vectors (by the hash of the
    /// text) are kept when the rest is rebuilt.
    static let sameChunking: Set<String> = ["7"]
    /// The vectors' model: vectors made by another are dropped.
    static let vectorModel = "all-MiniLM-L6-v2/i8"

    /// The chunks' vectors, loaded at the first semantic search (rows and vectors in step).
    var loadedVectors: VectorView?
    /// The fewest rows behind a vector file may be and still be used (``rowsBehindLimit(_:)``).
    var minimumRowsBehind = 2048
    /// The vector file's name: the index's with this added (``VectorFile``).
    static let vectorFileSuffix = "-vectors"

    /// Opens (creating) the index at `path`.
    public init(path: String) throws(SearchError) {
        self.path = path
        do { db = try Self.open(path) } catch { throw .index(error.description) }
    }

    /// The connection to the index at `path`, its schema made or checked: an index of this
    /// version must have exactly this version's schema, and its full-text tables must open.
    static func open(_ path: String) throws(ArchiveError) -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, name: "search index")
        try db.execute("PRAGMA journal_mode = WAL")
        // No memory map: with `cell_size_check` (SQLiteConnection: every page's cells checked
        // when it is loaded) a mapped page is checked again at every visit, no cache between;
        // a word matching 25,000 chunks took 80 ms instead of 21 ms.
        try db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        var found: String?
        try db.query("SELECT value FROM meta WHERE key = 'version'") { found = $0.text(0) }
        // An index of this version must have exactly this version's schema: a file planted in
        // the vault (a trigger, a view, a table of its own) is not used but made anew.
        if found == Self.version, path != ":memory:", try Self.schema(of: db) != Self.expectedSchema {
            throw ArchiveError.invalidDatabase(name: "search index", reason: "its tables are not the ones Quire makes")
        }
        if found != Self.version {
            let kept = found.map(Self.sameChunking.contains) == true ? ["vectors"] : []
            for table in ["notes", "chunks", "grams", "vectors", "info"] where !kept.contains(table) {
                try db.execute("DROP TABLE IF EXISTS \(table)")
            }
            try db.execute("CREATE TABLE notes (path TEXT PRIMARY KEY, digest INTEGER NOT NULL)")
            // Each chunk: its words (FTS5, rowid = info.id), where it is (info, indexed by path
            // and by the hash of its text), its trigrams when it holds CJK text (grams).
            try db.execute("CREATE VIRTUAL TABLE chunks USING fts5(text, heading, tokenize = 'porter unicode61 remove_diacritics 2')")
            // AUTOINCREMENT: a row number is never given twice, so the rows after a vector file's
            // last are exactly the chunks written since it was made (``VectorView``).
            try db.execute("CREATE TABLE info (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, first INTEGER NOT NULL, "
                           + "last INTEGER NOT NULL, card TEXT, hash INTEGER NOT NULL, page INTEGER, time INTEGER)")
            try db.execute("CREATE INDEX info_path ON info (path)")
            try db.execute("CREATE INDEX info_hash ON info (hash)")
            try db.execute("CREATE VIRTUAL TABLE grams USING fts5(text, tokenize = 'trigram')")
            try db.execute("CREATE TABLE IF NOT EXISTS vectors (hash INTEGER PRIMARY KEY, vector BLOB NOT NULL)")
            try db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", [.text(Self.version)])
            // What was kept of an older version must be what Quire made too.
            if !kept.isEmpty, path != ":memory:", try Self.schema(of: db) != Self.expectedSchema {
                throw ArchiveError.invalidDatabase(name: "search index", reason: "its tables are not the ones Quire makes")
            }
        }
        // The full-text tables opened once (their configuration read): a damaged one fails here,
        // not at the first search.
        for table in ["chunks", "grams"] { try db.query("SELECT rowid FROM \(table) LIMIT 1") { _ in } }
        var model: String?
        try db.query("SELECT value FROM meta WHERE key = 'model'") { model = $0.text(0) }
        // What a vector file is stamped with (``VectorFile/Stamp``): this file's instance, made
        // once, and the count of its changes. Written only when missing (an open takes no lock).
        // `deleted` counts the chunk rows taken out, so that a vector file knows how many of its
        // chunks may be gone.
        var stamped = 0
        try db.query("SELECT count(*) FROM meta WHERE key IN ('instance', 'changes', 'deleted')") { stamped = Int($0.int(0)) }
        if stamped != 3 {
            let instance = UInt64.random(in: 1...UInt64.max)
            try db.execute("INSERT OR IGNORE INTO meta VALUES ('instance', ?)", [.text(String(instance))])
            try db.execute("INSERT OR IGNORE INTO meta VALUES ('changes', '0')")
            try db.execute("INSERT OR IGNORE INTO meta VALUES ('deleted', '0')")
        }
        // Row numbers near the end of their range (a planted file): every insert would fail.
        var sequence: Int64 = 0
        try db.query("SELECT seq FROM sqlite_sequence WHERE name = 'info'") { sequence = $0.int(0) }
        if sequence > Int64(1) << 62 {
            throw ArchiveError.invalidDatabase(name: "search index", reason: "its chunk numbers are used up")
        }
        if model != Self.vectorModel {
            try db.transaction { () throws(ArchiveError) in
                try db.execute("DELETE FROM vectors")
                try db.execute("INSERT OR REPLACE INTO meta VALUES ('model', ?)", [.text(Self.vectorModel)])
                // Another instance: no vector file made before stands for these vectors.
                try db.execute("INSERT OR REPLACE INTO meta VALUES ('instance', ?)", [.text(String(UInt64.random(in: 1...UInt64.max)))])
                try countChange(db)
            }
        }
        return db
    }

    /// Whether `error` says the index's file is damaged (its pages, or a full-text table's
    /// blocks), which only making it anew mends.
    public static func isDamage(_ error: SearchError) -> Bool {
        let text = error.description.lowercased()
        return ["malformed", "corrupt", "vtable constructor failed", "not a database", "fts5:"].contains { text.contains($0) }
    }

    /// Starts over: the damaged file removed and an empty index made in its place (the caller
    /// fills it again from the notes).
    public func startOver(io: FileIO = FileIO()) throws(SearchError) {
        guard path != ":memory:" else { return }
        db.close()
        Self.remove(path, io: io)
        loadedVectors = nil
        do { db = try Self.open(path) } catch { throw .index(error.description) }
    }

    /// Opens the index at `path`; one that cannot be read (damaged, not SQLite, or not Quire's
    /// schema) is removed and made anew — it is a cache, rebuilt from the notes — and `rebuilt`
    /// hears why.
    public static func openOrRebuild(path: String, io: FileIO = FileIO(), rebuilt: (String) -> Void = { _ in }) throws(SearchError) -> SearchIndex {
        do { return try SearchIndex(path: path) } catch {
            guard path != ":memory:" else { throw error }
            remove(path, io: io)
            rebuilt(error.description)
            return try SearchIndex(path: path)
        }
    }

    /// Removes the index file at `path` and SQLite's files beside it — a folder in the file's
    /// place too (never what a link points to).
    public static func remove(_ path: String, io: FileIO = FileIO()) {
        for suffix in ["", "-wal", "-shm", "-journal", vectorFileSuffix] {
            io.removeTree(path + suffix)
        }
    }

    /// The schema's objects (type, name, table, statement), sorted by name.
    static func schema(of db: SQLiteConnection) throws(ArchiveError) -> [String] {
        var out: [String] = []
        try db.query("SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY name") { row in
            out.append([0, 1, 2, 3].map { row.text($0) ?? "" }.joined(separator: "\u{1F}"))
        }
        return out
    }

    /// The schema this version makes, read from an index made in memory.
    static let expectedSchema: [String]? = {
        guard let fresh = try? SearchIndex(path: ":memory:") else { return nil }
        return try? schema(of: fresh.db)
    }()

    /// The digest the note at `path` was indexed from, or nil when it is not in the index.
    public func digest(of path: String) throws(SearchError) -> UInt64? {
        var found: UInt64?
        do { try db.query("SELECT digest FROM notes WHERE path = ?", [.text(path)]) { found = UInt64(bitPattern: $0.int(0)) } } catch {
            throw .index(error.description)
        }
        return found
    }

    /// Every note in the index with the digest it was indexed from.
    public func digests() throws(SearchError) -> [String: UInt64] { try digestsAndChanges().digests }

    /// Every note path in the index.
    public func paths() throws(SearchError) -> [String] {
        var found: [String] = []
        do { try db.query("SELECT path FROM notes ORDER BY path") { if let p = $0.text(0) { found.append(p) } } } catch {
            throw .index(error.description)
        }
        return found
    }

    /// The text a chunk's vector is computed from: its heading path, then its text.
    static func embeddedText(_ heading: String, _ text: String) -> String { heading.isEmpty ? text : heading + "\n\n" + text }

    /// Replaces the note at `path` by `chunks` (read from bytes with `digest`).
    public func update(path: String, digest: UInt64, chunks: [Chunk]) throws(SearchError) {
        do { try db.transaction { () throws(ArchiveError) in try write(path: path, digest: digest, chunks: chunks, replacing: true) } } catch {
            throw .index(error.description)
        }
        loadedVectors = nil
    }

    /// Writes a note's chunks, inside the caller's transaction; `replacing`: take out what the
    /// index had for the note first.
    func write(path: String, digest: UInt64, chunks: [Chunk], replacing: Bool) throws(ArchiveError) {
        let replaced = replacing ? try delete(path) : []
        for chunk in chunks {
            let card: SQLiteValue = if case .card(let id) = chunk.kind { .text(id.rawValue) } else { .null }
            let heading = chunk.headingPath.joined(separator: " › ")
            let hash = SipHash24.hash(Self.embeddedText(heading, chunk.text).utf8)
            try db.execute("INSERT INTO info (path, first, last, card, hash, page, time) VALUES (?, ?, ?, ?, ?, ?, ?)", [
                .text(path), .int(Int64(chunk.lines.lowerBound)), .int(Int64(chunk.lines.upperBound)), card, .int(Int64(bitPattern: hash)),
                chunk.page.map { .int(Int64($0)) } ?? .null,
                chunk.time.map { .int(Int64($0)) } ?? .null,
            ])
            try db.execute("INSERT INTO chunks (rowid, text, heading) VALUES (last_insert_rowid(), ?, ?)", [.text(chunk.text), .text(heading)])
            // Only text with CJK characters is looked up by trigram (other words are in `chunks`).
            if chunk.text.unicodeScalars.contains(where: Self.isCJK) {
                try db.execute("INSERT INTO grams (rowid, text) VALUES (last_insert_rowid(), ?)", [.text(chunk.text)])
            }
        }
        try db.execute("INSERT OR REPLACE INTO notes VALUES (?, ?)", [.text(path), .int(Int64(bitPattern: digest))])
        try dropVectors(replaced)
        try countChange()
    }

    /// Takes the note at `path` out of the index.
    public func remove(path: String) throws(SearchError) {
        do { try db.transaction { () throws(ArchiveError) in try dropVectors(try delete(path)) } } catch { throw .index(error.description) }
        loadedVectors = nil
    }

    /// Takes the note's rows out; the hashes of the chunks it had.
    private func delete(_ path: String) throws(ArchiveError) -> Set<Int64> {
        var hashes: Set<Int64> = [], count: Int64 = 0
        try db.query("SELECT hash FROM info WHERE path = ?", [.text(path)]) { row in
            hashes.insert(row.int(0))
            count += 1
        }
        try db.execute("DELETE FROM grams WHERE rowid IN (SELECT id FROM info WHERE path = ?)", [.text(path)])
        try db.execute("DELETE FROM chunks WHERE rowid IN (SELECT id FROM info WHERE path = ?)", [.text(path)])
        try db.execute("DELETE FROM info WHERE path = ?", [.text(path)])
        try db.execute("DELETE FROM notes WHERE path = ?", [.text(path)])
        try countDeleted(count)
        try countChange()
        return hashes
    }

    /// Takes out the vectors of `hashes` that no chunk has any more (an edited or removed note's
    /// old text): a lookup each, where a sweep of every vector would take seconds at a million.
    private func dropVectors(_ hashes: Set<Int64>) throws(ArchiveError) {
        for hash in hashes {
            try db.execute("DELETE FROM vectors WHERE hash = ?1 AND NOT EXISTS (SELECT 1 FROM info WHERE hash = ?1)", [.int(hash)])
        }
    }

    /// Adds `count` to the chunk rows taken out, inside the writer's transaction.
    func countDeleted(_ count: Int64) throws(ArchiveError) {
        guard count > 0 else { return }
        try db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'deleted'", [.int(count)])
    }

    /// Counts a change to the chunks or the vectors, inside the writer's transaction: a vector
    /// file stamped before it no longer stands for the index.
    func countChange() throws(ArchiveError) { try Self.countChange(db) }

    static func countChange(_ db: SQLiteConnection) throws(ArchiveError) {
        try db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'changes'")
    }

    /// The state a vector file must be stamped with to stand for the index now.
    func changeStamp() throws(ArchiveError) -> VectorFile.Stamp {
        var stamp = VectorFile.Stamp(instance: 0, changes: -1)
        try db.query("SELECT key, value FROM meta WHERE key IN ('instance', 'changes')") { row in
            let value = row.text(1) ?? ""
            if row.text(0) == "instance" { stamp.instance = UInt64(value) ?? 0 } else { stamp.changes = Int64(value) ?? -1 }
        }
        return stamp
    }

    /// Words too common to help (``search(_:limit:matchAll:)``): left out of a query unless they
    /// are all there is.
    static let stopwords: Set<String> = [
        "a", "about", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "if", "in",
        "into", "is", "it", "its", "my", "of", "on", "or", "should", "that", "the", "their", "there", "this", "to", "was",
        "what", "when", "where", "which", "who", "why", "will", "with", "would", "you", "your",
    ]

    /// The chunks matching `words`, best first (bm25), at most `limit`.
    ///
    /// With `matchAll`, words are all required; otherwise any may match and chunks with more and
    /// rarer ones rank first — for questions. Common words are left out either way. `word*` matches a prefix
    /// and `"two words"` a phrase. A word in a script written without spaces (CJK) is looked up
    /// as a substring. Whatever the user types is data: FTS5's own query syntax (column filters,
    /// `NEAR`, operators) is never passed on.
    public func search(_ words: String, limit: Int = 20, matchAll: Bool = true) throws(SearchError) -> [SearchHit] {
        var terms = Self.terms(words)
        // Common words are not asked for (`how do I embed a note` is `embed note`), unless they
        // are all there is or are quoted or a prefix.
        let kept = terms.filter { $0.prefix || $0.text.contains(" ") || !Self.stopwords.contains($0.text.lowercased()) }
        if !kept.isEmpty { terms = kept }
        guard !terms.isEmpty else { return [] }
        let cjk = terms.contains { $0.text.unicodeScalars.contains { Self.isCJK($0) } }
        var hits: [SearchHit] = []
        func hit(_ row: SQLiteRow) { hits.append(Self.hit(row)) }
        let join = matchAll ? " AND " : " OR "
        do {
            if cjk {
                // Substrings: each term in the trigram table (three characters at least), else scanned.
                let long = terms.filter { $0.text.unicodeScalars.count >= 3 }
                let short = terms.filter { $0.text.unicodeScalars.count < 3 }
                var sql = "SELECT " + Self.hitColumns(text: "grams.text", heading: "c.heading", bm25: long.isEmpty ? "0.0" : "bm25(grams)")
                    + " FROM grams JOIN info i ON i.id = grams.rowid "
                    + "JOIN chunks c ON c.rowid = grams.rowid WHERE "
                var values: [SQLiteValue] = []
                var conditions: [String] = []
                if !long.isEmpty {
                    conditions.append("grams MATCH ?")
                    values.append(.text(long.map { Self.quoted($0.text) }.joined(separator: join)))
                }
                for term in short {
                    conditions.append("grams.text LIKE ? ESCAPE '\\'")
                    values.append(.text("%" + Self.likeEscaped(term.text) + "%"))
                }
                sql += conditions.joined(separator: matchAll ? " AND " : " OR ") + " ORDER BY 7 LIMIT ?"
                values.append(.int(Int64(limit)))
                try db.query(sql, values, hit)
            } else {
                let match = try terms.map { term throws(ArchiveError) in
                    if term.prefix { return Self.quoted(term.text) + "*" }
                    let forms = try variants(of: term.text)
                    return forms.count == 1 ? Self.quoted(forms[0]) : "(" + forms.map(Self.quoted).joined(separator: " OR ") + ")"
                }.joined(separator: join)
                try db.query("SELECT " + Self.hitColumns(text: "snippet(chunks, 0, ?, ?, '…', 16)", heading: "chunks.heading", bm25: "bm25(chunks)")
                             + " FROM chunks JOIN info i ON i.id = chunks.rowid WHERE chunks MATCH ? ORDER BY bm25(chunks) LIMIT ?",
                             [.text(Self.marks.open), .text(Self.marks.close), .text(match), .int(Int64(limit))], hit)
            }
        } catch { throw .index(error.description) }
        return hits
    }

    /// The forms a word is looked up in, itself first: a hyphenated word also written closed up
    /// (`trade-off`, `tradeoff`); a closed-up word also as the two words the notes write where
    /// they have them (`tradeoff` → `trade off`, which matches `trade-off` too); British and
    /// American spellings (`organise`, `organize`; `colour`, `color`; `centre`, `center`).
    func variants(of word: String) throws(ArchiveError) -> [String] {
        var forms = [word]
        let lower = word.lowercased()
        guard !word.contains(" ") else { return forms }
        if lower.contains("-") {
            let closed = lower.replacing("-", with: "")
            if closed.count >= 3 { forms.append(closed) }
        } else if lower.count >= 6, lower.count <= 30, lower.allSatisfy({ $0.isLetter }), try chunks(holding: lower, upTo: 3) < 3 {
            // Each place a rare word could be two words of three letters or more, kept where a note
            // writes them so (a common word — however, without — is no closed-up pair).
            let letters = Array(lower)
            for k in 3...(letters.count - 3) {
                let phrase = String(letters[..<k]) + " " + String(letters[k...])
                if try chunks(holding: phrase, upTo: 1) > 0 { forms.append(phrase) }
            }
        }
        for (british, american) in Self.spellings {
            for (from, to) in [(british, american), (american, british)] where lower.hasSuffix(from) && lower.count > from.count + 2 {
                forms.append(String(lower.dropLast(from.count)) + to)
            }
        }
        var seen: Set<String> = []
        return forms.filter { seen.insert($0.lowercased()).inserted }
    }

    /// How many chunks hold `phrase` (counted up to `limit`).
    func chunks(holding phrase: String, upTo limit: Int) throws(ArchiveError) -> Int {
        var count = 0
        try db.query("SELECT 1 FROM chunks WHERE chunks MATCH ? LIMIT ?", [.text(Self.quoted(phrase)), .int(Int64(limit))]) { _ in count += 1 }
        return count
    }

    /// Word endings spelt one way in British English and another in American.
    static let spellings: [(String, String)] = [("isation", "ization"), ("isations", "izations"), ("ise", "ize"), ("ised", "ized"),
                                                ("ises", "izes"), ("ising", "izing"), ("yse", "yze"), ("ysed", "yzed"), ("our", "or"),
                                                ("ours", "ors"), ("tre", "ter"), ("tres", "ters"), ("ogue", "og"), ("ence", "ense")]

    /// The user's words: phrases in double quotes, `word*` prefixes, the rest single words.
    static func terms(_ words: String) -> [(text: String, prefix: Bool)] {
        var out: [(String, Bool)] = []
        var rest = Substring(words)
        while let c = rest.first {
            if c.isWhitespace { rest = rest.dropFirst(); continue }
            if c == "\"" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: "\"") ?? body.endIndex
                let phrase = String(body[..<end]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if !phrase.isEmpty { out.append((phrase, false)) }
                rest = end < body.endIndex ? body[body.index(after: end)...] : body[end...]
                continue
            }
            let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
            var word = String(rest[..<end])
            rest = rest[end...]
            let prefix = word.hasSuffix("*")
            while word.hasSuffix("*") { word.removeLast() }
            if !word.isEmpty { out.append((word, prefix)) }
        }
        return out
    }

    /// A term as an FTS5 string: double quotes around it, its own doubled.
    static func quoted(_ text: String) -> String { "\"" + text.replacing("\"", with: "\"\"") + "\"" }

    /// A term inside a LIKE pattern with `\` as escape.
    static func likeEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
    }

    /// A character of a script written without spaces between words.
    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0x2E80 && s.properties.isIdeographic || (0x3040...0x30FF).contains(s.value) || (0xAC00...0xD7A3).contains(s.value)
    }
}

extension SearchIndex {
    /// The columns a hit is read from, in the order ``hit(_:)`` reads them (`bm25` the score's).
    static func hitColumns(text: String, heading: String, bm25: String) -> String {
        "\(text), i.path, \(heading), i.first, i.last, i.card, \(bm25), i.id, i.page, i.time"
    }

    /// A hit from a row of ``hitColumns(text:heading:bm25:)``: the text as its snippet, bm25 negated as its score.
    static func hit(_ row: SQLiteRow) -> SearchHit {
        SearchHit(chunk: row.int(7), path: row.text(1) ?? "", lines: Int(row.int(3))...Int(max(row.int(3), row.int(4))),
                  headingPath: headingPath(row.text(2) ?? ""), card: row.text(5).flatMap { CardID($0) },
                  page: row.isNull(8) ? nil : Int(row.int(8)), time: row.isNull(9) ? nil : Int(row.int(9)), snippet: row.text(0) ?? "", score: -row.double(6))
    }

    /// A heading path as stored (`A › B`) made a list again.
    static func headingPath(_ stored: String) -> [String] {
        stored.isEmpty ? [] : stored.split(separator: " › ", omittingEmptySubsequences: false).map(String.init)
    }

    /// A note's chunks, read from its file now (nil when it cannot be read: it stays as indexed).
    static func chunks(of note: Note, in vault: Vault) -> [Chunk]? {
        guard let full = try? vault.notePath(note.path), let bytes = try? vault.io.read(full).bytes else { return nil }
        return NoteChunker.chunks(of: note, bytes: bytes)
    }
}

extension SearchIndex {
    /// Reads every page and every full-text block of the index and compares the blocks with the
    /// text they index: nil when whole, else what is wrong. A garbled block may read as a valid,
    /// empty one (a search then misses silently); only this full pass finds it, so `quire index`
    /// runs it, not every search.
    public func damage() -> String? {
        guard path != ":memory:" else { return nil }
        do {
            var pages: [String] = []
            try db.query("PRAGMA quick_check") { pages.append($0.text(0) ?? "") }
            if pages != ["ok"] { return "its pages are damaged (\(pages.prefix(3).joined(separator: "; ")))" }
            for table in ["chunks", "grams"] { try db.execute("INSERT INTO \(table)(\(table)) VALUES('integrity-check')") }
            return nil
        } catch { return error.description }
    }
}
