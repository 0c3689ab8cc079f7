import Foundation
import QuireArchive
import QuireEmbedding
import QuireModel
import QuireSystem

extension SearchIndex {
    /// Computes the vectors of the chunks that have none (new or edited text) with `encoder`, and
    /// drops those no chunk has any more (`sweep`: even when none was computed), on `threads`
    /// cores (default: all). `progress` hears (done, total).
    ///
    /// - Returns: how many vectors were computed.
    @discardableResult
    public func embedMissing(with encoder: SentenceEncoder, sweep: Bool = false, threads: Int? = nil,
                             progress: (Int, Int) -> Void = { _, _ in }) throws(SearchError) -> Int {
        var missing: [(hash: Int64, text: String)] = []
        do {
            // The chunks without a vector first, then their text one by one: joined in one query,
            // SQLite read every chunk's text to find none missing (10 s at 1.4 million chunks).
            var seen: Set<Int64> = []
            var rows: [(id: Int64, hash: Int64)] = []
            try db.query("SELECT id, hash FROM info WHERE hash NOT IN (SELECT hash FROM vectors)") { row in
                if seen.insert(row.int(1)).inserted { rows.append((row.int(0), row.int(1))) }
            }
            for (id, hash) in rows {
                try db.query("SELECT heading, text FROM chunks WHERE rowid = ?", [.int(id)]) { row in
                    missing.append((hash, Self.embeddedText(row.text(0) ?? "", row.text(1) ?? "")))
                }
            }
        } catch { throw .index(error.description) }
        var done = 0
        // In batches, each its own transaction: an interrupted run keeps what it computed.
        let batch = 64
        while done < missing.count {
            progress(done, missing.count)
            let part = missing[done..<min(done + batch, missing.count)]
            let vectors = encoder.embed(part.map(\.text), threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
                .map(VectorCoding.encode)
            do {
                try db.transaction { () throws(ArchiveError) in
                    for (item, vector) in zip(part, vectors) {
                        try db.execute("INSERT OR REPLACE INTO vectors VALUES (?, ?)", [.int(item.hash), .blob(vector)])
                    }
                    try countChange()
                }
            } catch { throw .index(error.description) }
            done += part.count
        }
        progress(missing.count, missing.count)
        // Vectors no chunk has any more, taken out when new ones were computed (their chunks'
        // text changed) or when asked (`quire index`).
        if !missing.isEmpty || sweep {
            do {
                try db.transaction { () throws(ArchiveError) in
                    var gone = 0
                    try db.query("DELETE FROM vectors WHERE hash NOT IN (SELECT hash FROM info) RETURNING hash") { _ in gone += 1 }
                    if gone > 0 { try countChange() }
                }
            } catch { throw .index(error.description) }
            loadedVectors = nil
        }
        return missing.count
    }

    /// The number of chunks and of those with a vector: from the vector file when it stands for
    /// the index, else counted in the tables (the file is made by the first semantic search, once
    /// the missing vectors are computed — not twice).
    public func counts() throws(SearchError) -> (chunks: Int, embedded: Int) {
        if let current = try currentVectors() { return (current.chunkCount, current.embeddedChunks) }
        var chunks = 0, embedded = 0
        do {
            try db.query("SELECT count(*) FROM info") { chunks = Int($0.int(0)) }
            var missing = 0
            try db.query("SELECT count(*) FROM info WHERE hash NOT IN (SELECT hash FROM vectors)") { missing = Int($0.int(0)) }
            embedded = chunks - missing
        } catch { throw .index(error.description) }
        return (chunks, embedded)
    }

    /// The vectors kept, or the vector file when it stands for the index now (mapped); nil when
    /// neither does.
    func currentVectors() throws(SearchError) -> VectorFile? {
        if let loadedVectors { return loadedVectors }
        guard path != ":memory:", let mapped = VectorFile.mapped(path + Self.vectorFileSuffix) else { return nil }
        do { guard mapped.stamp == (try changeStamp()) else { return nil } } catch { throw .index(error.description) }
        loadedVectors = mapped
        return mapped
    }

    /// The vectors and the chunks that have each, as of the index now: the vector file when it
    /// stands for this state of the index (mapped, nothing read), else made from the tables — in
    /// one read transaction, so the rows and the state they are stamped with agree — and written
    /// for the next command (``VectorFile``). Kept until the index changes.
    func vectors() throws(SearchError) -> VectorFile {
        if let current = try currentVectors() { return current }
        let file = path == ":memory:" ? nil : path + Self.vectorFileSuffix
        do {
            // Built apart, so that the rows read are freed before the file is mapped.
            func made() throws(ArchiveError) -> VectorFile? {
                let parts = try db.reading { () throws(ArchiveError) in try vectorFileParts() }
                if let file, parts.write(to: file) { return nil }
                return VectorFile.inMemory(parts.bytes)
            }
            loadedVectors = try made() ?? file.flatMap { VectorFile.mapped($0) }
        } catch { throw .index(error.description) }
        guard let loadedVectors else { throw .index("the vectors read from the index do not make a vector file") }
        return loadedVectors
    }

    /// The vector file's parts for the index as it is: the vectors in one pass in hash order, the
    /// chunks in another, joined here by hash (two sequential reads, no lookup per chunk).
    private func vectorFileParts() throws(ArchiveError) -> VectorFile.Parts {
        let stamp = try changeStamp()
        let d = SentenceEncoder.dimension
        var count = 0
        try db.query("SELECT count(*) FROM vectors") { count = Int($0.int(0)) }
        // Decoded as VectorSet decodes a stored vector (a row that is not one is left out).
        var set = VectorSet(dimension: d)
        var hashes: [Int64] = []
        set.reserve(count)
        hashes.reserveCapacity(count)
        try db.query("SELECT hash, vector FROM vectors ORDER BY hash") { row in
            if row.withBytes(1, { set.append(encoded: $0) }) { hashes.append(row.int(0)) }
        }
        var byHash: [Int64: Int32] = [:]
        byHash.reserveCapacity(hashes.count)
        for (v, hash) in hashes.enumerated() { byHash[hash] = Int32(v) }
        var pairs: [(vector: Int32, id: Int64)] = []
        var chunks = 0
        try db.query("SELECT id, hash FROM info") { row in
            chunks += 1
            if let v = byHash[row.int(1)] { pairs.append((v, row.int(0))) }
        }
        // Counting sort by vector: each vector's chunks side by side.
        var offsets = [UInt32](repeating: 0, count: hashes.count + 1)
        for p in pairs { offsets[Int(p.vector) + 1] += 1 }
        for v in 0..<hashes.count { offsets[v + 1] += offsets[v] }
        var next = offsets
        var ids = [Int64](repeating: 0, count: pairs.count)
        for p in pairs {
            ids[Int(next[Int(p.vector)])] = p.id
            next[Int(p.vector)] += 1
        }
        return VectorFile.Parts(hashes: hashes, scales: set.scales, codes: set.codes, offsets: offsets, ids: ids, chunkCount: chunks,
                                dimension: d, stamp: stamp)
    }

    /// The chunks nearest `vector` (a unit vector) by cosine, best first, at most `limit`;
    /// `excluding` leaves out the chunks of those notes.
    public func nearest(_ vector: [Float], limit: Int = 20, excluding: Set<String> = []) throws(SearchError) -> [SearchHit] {
        let loaded = try vectors()
        var hits: [SearchHit] = []
        // Asks for more when excluded notes' chunks (or vectors no chunk has) take places.
        var asked = limit
        while hits.count < limit {
            hits = []
            let near = loaded.nearest(vector, limit: asked)
            found: for (index, score) in near {
                for id in loaded.chunks(of: index) {
                    guard var hit = try chunk(id), !excluding.contains(hit.path) else { continue }
                    hit.score = Double(score)
                    hits.append(hit)
                    if hits.count == limit { break found }
                }
            }
            if near.count < asked || asked >= loaded.count { break }
            asked *= 4
        }
        return hits
    }

    /// The chunk at row `id`: where it is and its first words as the snippet.
    public func chunk(_ id: Int64) throws(SearchError) -> SearchHit? {
        var hit: SearchHit?
        do {
            try db.query("SELECT " + Self.hitColumns(text: "c.text", heading: "c.heading", bm25: "0.0")
                         + " FROM info i JOIN chunks c ON c.rowid = i.id WHERE i.id = ?", [.int(id)]) { row in
                var found = Self.hit(row)
                found.snippet = Self.leadingWords(found.snippet)
                found.score = 0
                hit = found
            }
        } catch { throw .index(error.description) }
        return hit
    }

    /// A chunk's whole text.
    public func text(ofChunk id: Int64) throws(SearchError) -> String? {
        var text: String?
        do { try db.query("SELECT text FROM chunks WHERE rowid = ?", [.int(id)]) { text = $0.text(0) } } catch { throw .index(error.description) }
        return text
    }

    /// The chunks of the note at `path` (their rows), in file order.
    public func chunks(ofNote path: String) throws(SearchError) -> [Int64] {
        var rows: [Int64] = []
        do {
            try db.query("SELECT id FROM info WHERE path = ? ORDER BY first", [.text(path)]) { rows.append($0.int(0)) }
        } catch { throw .index(error.description) }
        return rows
    }

    /// The stored vector of chunk `id`, if it has one.
    public func vector(ofChunk id: Int64) throws(SearchError) -> [Float]? {
        var hash: Int64?
        do { try db.query("SELECT hash FROM info WHERE id = ?", [.int(id)]) { hash = $0.int(0) } } catch { throw .index(error.description) }
        let loaded = try vectors()
        guard let hash, let v = loaded.index(ofHash: hash) else { return nil }
        return loaded.vector(at: v)
    }

    /// Reciprocal-rank fusion: each list's hits scored 1/(k + rank) (rank from 1), summed over the
    /// lists a chunk is in; best first, at most `limit`. k = 60, as Cormack et al. chose.
    public static func fused(_ lists: [[SearchHit]], limit: Int, k: Double = 60) -> [SearchHit] {
        var best: [Int64: SearchHit] = [:]
        var scores: [Int64: Double] = [:]
        var order: [Int64] = []
        for list in lists {
            for (rank, hit) in list.enumerated() {
                if best[hit.chunk] == nil {
                    best[hit.chunk] = hit
                    order.append(hit.chunk)
                } else if best[hit.chunk]?.snippet.contains(marks.open) == false, hit.snippet.contains(marks.open) {
                    best[hit.chunk]?.snippet = hit.snippet
                }
                scores[hit.chunk, default: 0] += 1 / (k + Double(rank + 1))
            }
        }
        let ranked = order.enumerated().sorted { a, b in
            let sa = scores[a.element] ?? 0, sb = scores[b.element] ?? 0
            return sa > sb || (sa == sb && a.offset < b.offset)
        }
        return ranked.prefix(limit).compactMap { item in
            guard var hit = best[item.element] else { return nil }
            hit.score = scores[item.element] ?? 0
            return hit
        }
    }

    /// The first words of a chunk's text, on one line.
    static func leadingWords(_ text: String, count: Int = 32) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.prefix(count).joined(separator: " ") + (words.count > count ? " …" : "")
    }
}

/// How a search ranks chunks.
public enum SearchMode: String, Sendable, CaseIterable {
    /// Words (bm25).
    case lexical
    /// Meaning: the cosine of the words' vector with each chunk's.
    case semantic
    /// Both, fused by reciprocal rank.
    case hybrid
}

extension SearchIndex {
    /// How many hits of each list hybrid ranking fuses.
    static let fusionDepth = 50

    /// The chunks for `words`, best first, at most `limit`, ranked by `mode` (semantic and hybrid
    /// need `encoder`; without one they rank lexically). `matchAll`: every word required in the
    /// lexical ranking (a search), or any (a question).
    public func find(_ words: String, mode: SearchMode, encoder: SentenceEncoder?, limit: Int = 20,
                     matchAll: Bool = true) throws(SearchError) -> [SearchHit] {
        guard let encoder, mode != .lexical else { return try search(words, limit: limit, matchAll: matchAll) }
        let query = encoder.embed(words)
        if mode == .semantic { return try nearest(query, limit: limit) }
        let depth = max(limit, Self.fusionDepth)
        return Self.fused([try search(words, limit: depth, matchAll: matchAll), try nearest(query, limit: depth)], limit: limit)
    }
}

extension SearchIndex {
    /// Stores `vector` for every chunk without one, whatever its text (for benchmarks of ranking
    /// over many chunks, where computing real vectors would take hours): `make(hash)` gives each.
    package func fillVectors(_ make: (Int64) -> [Float]) throws(SearchError) {
        var hashes: [Int64] = []
        do {
            try db.query("SELECT DISTINCT hash FROM info WHERE hash NOT IN (SELECT hash FROM vectors)") { hashes.append($0.int(0)) }
            try db.transaction { () throws(ArchiveError) in
                for hash in hashes { try db.execute("INSERT INTO vectors VALUES (?, ?)", [.int(hash), .blob(VectorCoding.encode(make(hash)))]) }
                try countChange()
            }
        } catch { throw .index(error.description) }
        loadedVectors = nil
    }
}
