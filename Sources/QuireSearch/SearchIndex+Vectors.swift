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
        let view = sweep ? nil : try currentVectors()
        var rows: [(id: Int64, hash: Int64)] = []
        do {
            var seen: Set<Int64> = []
            // Behind a complete vector file, only chunks written since can lack a vector: no
            // look at every chunk (a second at a million) — unless asked to sweep (`quire index`
            // takes nothing on trust).
            if let view, view.file.chunkCount == view.file.embeddedChunks {
                rows = view.missing.filter { seen.insert($0.hash).inserted }
            } else {
                // The chunks without a vector first, then their text batch by batch: joined in one
                // query, SQLite read every chunk's text to find none missing (10 s at 1.4 million
                // chunks), and every text held at once was half a gigabyte.
                try db.query("SELECT id, hash FROM info WHERE hash NOT IN (SELECT hash FROM vectors)") { row in
                    if seen.insert(row.int(1)).inserted { rows.append((row.int(0), row.int(1))) }
                }
            }
        } catch { throw .index(error.description) }
        var done = 0
        // In batches, each its own transaction: an interrupted run keeps what it computed.
        let batch = 64
        while done < rows.count {
            progress(done, rows.count)
            var part: [(hash: Int64, text: String)] = []
            do {
                for (id, hash) in rows[done..<min(done + batch, rows.count)] {
                    try db.query("SELECT heading, text FROM chunks WHERE rowid = ?", [.int(id)]) { row in
                        part.append((hash, Self.embeddedText(row.text(0) ?? "", row.text(1) ?? "")))
                    }
                }
            } catch { throw .index(error.description) }
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
            loadedVectors = nil
            done += min(batch, rows.count - done)
        }
        progress(rows.count, rows.count)
        // Vectors no chunk has any more: an edit takes out its old text's (``write``); the rest
        // (rows of another version, planted ones) when asked (`quire index`).
        if sweep {
            do {
                try db.transaction { () throws(ArchiveError) in
                    var gone = 0
                    try db.query("DELETE FROM vectors WHERE hash NOT IN (SELECT hash FROM info) RETURNING hash") { _ in gone += 1 }
                    if gone > 0 { try countChange() }
                }
            } catch { throw .index(error.description) }
            loadedVectors = nil
        }
        return rows.count
    }

    /// The number of chunks and of those with a vector: from the vector file when it stands for
    /// the index as it is, else counted in the tables.
    public func counts() throws(SearchError) -> (chunks: Int, embedded: Int) {
        if let current = try currentVectors(), !current.behind { return (current.file.chunkCount, current.file.embeddedChunks) }
        var chunks = 0
        do { try db.query("SELECT count(*) FROM info") { chunks = Int($0.int(0)) } } catch { throw .index(error.description) }
        return (chunks, chunks - (try missingVectors()))
    }

    /// How many chunks have no vector: from the vector file and the rows written since it was
    /// made when it is on disk, else counted in the tables.
    public func missingVectors() throws(SearchError) -> Int {
        if let current = try currentVectors() {
            if !current.behind { return current.file.chunkCount - current.file.embeddedChunks }
            return current.missing.count
        }
        var missing = 0
        do {
            try db.query("SELECT count(*) FROM info WHERE hash NOT IN (SELECT hash FROM vectors)") { missing = Int($0.int(0)) }
        } catch { throw .index(error.description) }
        return missing
    }

    /// How many rows written after a vector file (or taken out since) it stays in use for; beyond,
    /// it is made again: a thirty-second of its vectors, within ``minimumRowsBehind`` and 16,384
    /// (reading that many rows and their vectors takes about as long as the scan of a million).
    func rowsBehindLimit(_ file: VectorFile) -> Int { max(minimumRowsBehind, min(16_384, file.count / 32)) }

    /// The vectors kept, or the vector file of this index on disk (mapped) with what was written
    /// since; nil when there is none, or it is too far behind (or was made with chunks still
    /// lacking a vector, which may have one now).
    func currentVectors() throws(SearchError) -> VectorView? {
        // Kept while no other connection (a watcher's, another command's) wrote since.
        if let loadedVectors {
            do { if try changeStamp() == loadedVectors.stamp { return loadedVectors } } catch { throw .index(error.description) }
            self.loadedVectors = nil
        }
        guard path != ":memory:", let mapped = VectorFile.mapped(path + Self.vectorFileSuffix) else { return nil }
        do {
            // In one read transaction: the rows read and the state they are compared with agree.
            let view = try db.reading { () throws(ArchiveError) -> VectorView? in
                let stamp = try changeStamp()
                guard mapped.stamp.instance == stamp.instance, mapped.stamp.changes <= stamp.changes else { return nil }
                if mapped.stamp.changes == stamp.changes { return VectorView(file: mapped, since: [], behind: false, stamp: stamp) }
                guard mapped.chunkCount == mapped.embeddedChunks else { return nil }
                let limit = rowsBehindLimit(mapped)
                let gone = try deletedChunks() - mapped.deletedChunks
                guard gone >= 0, gone <= limit else { return nil }
                var rows: [VectorView.Row] = []
                try db.query("SELECT i.id, i.hash, v.vector FROM info i LEFT JOIN vectors v ON v.hash = i.hash WHERE i.id > ? "
                             + "ORDER BY i.id LIMIT ?", [.int(mapped.lastChunk), .int(Int64(limit) + 1)]) { row in
                    rows.append(VectorView.Row(id: row.int(0), hash: row.int(1), vector: row.isNull(2) ? nil : row.bytes(2)))
                }
                guard rows.count + Int(gone) <= limit else { return nil }
                return VectorView(file: mapped, since: rows, behind: true, stamp: stamp)
            }
            loadedVectors = view
            return view
        } catch { throw .index(error.description) }
    }

    /// The index's count of chunk rows taken out.
    func deletedChunks() throws(ArchiveError) -> Int64 {
        var deleted: Int64 = 0
        try db.query("SELECT value FROM meta WHERE key = 'deleted'") { deleted = Int64($0.text(0) ?? "") ?? 0 }
        return deleted
    }

    /// The vectors and the chunks that have each, as of the index now: the vector file with what
    /// was written since (``currentVectors()``), else a file made from the tables — in one read
    /// transaction, so the rows and the state they are stamped with agree — and written for the
    /// next command. Kept until the index changes.
    func vectors() throws(SearchError) -> VectorView {
        if let current = try currentVectors() { return current }
        let made: VectorFile?
        do { made = path == ":memory:" ? try inMemoryVectorFile() : try writtenVectorFile(path + Self.vectorFileSuffix) } catch {
            throw .index(error.description)
        }
        guard let made else { throw .index("the vectors read from the index do not make a vector file") }
        let view = VectorView(file: made, since: [], behind: false, stamp: made.stamp)
        loadedVectors = view
        return view
    }

    /// The vector file written at `file` from the tables and mapped; where it cannot be written
    /// (a read-only vault), made in memory.
    private func writtenVectorFile(_ file: String, io: FileIO = FileIO()) throws(ArchiveError) -> VectorFile? {
        if let temp = try? io.overwriting(file),
           try db.reading({ () throws(ArchiveError) in try writeVectorFile { (try? temp.write($0)) != nil } }),
           (try? temp.commit()) != nil, let mapped = VectorFile.mapped(file) {
            return mapped
        }
        return try inMemoryVectorFile()
    }

    /// The vector file made from the tables in memory.
    private func inMemoryVectorFile() throws(ArchiveError) -> VectorFile? {
        var bytes: [UInt8] = []
        guard try db.reading({ () throws(ArchiveError) in try writeVectorFile { bytes.append(contentsOf: $0); return true } }) else { return nil }
        return VectorFile.inMemory(bytes)
    }

    /// Writes the vector file for the index as it is to `sink`, piece by piece: the vectors'
    /// hashes in one pass, the chunks in another (each found by binary search among the hashes),
    /// then the vectors streamed in hash order — nothing held but the hashes and the chunk rows.
    /// False when `sink` refused a piece.
    private func writeVectorFile(_ sink: @escaping (UnsafeRawBufferPointer) -> Bool) throws(ArchiveError) -> Bool {
        let d = SentenceEncoder.dimension, size = Int64(VectorCoding.size(d))
        var head = VectorFile.Head(dimension: d, stamp: try changeStamp(), deletedChunks: try deletedChunks())
        try db.query("SELECT coalesce(max(id), 0) FROM info") { head.lastChunk = $0.int(0) }
        // A row that is not a vector's size is left out (its chunks count as having none).
        var hashes: [Int64] = []
        try db.query("SELECT hash FROM vectors WHERE length(vector) = ? ORDER BY hash", [.int(size)]) { hashes.append($0.int(0)) }
        var pairs: [(vector: Int32, id: Int64)] = []
        try hashes.withUnsafeBufferPointer { sorted throws(ArchiveError) in
            try db.query("SELECT id, hash FROM info") { row in
                head.chunkCount += 1
                if let v = VectorFile.position(of: row.int(1), in: sorted) { pairs.append((Int32(v), row.int(0))) }
            }
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
        pairs = []
        head.hashes = hashes
        head.offsets = offsets
        head.ids = ids
        var writer = VectorFile.Writer(head, sink: sink)
        var v = 0, inStep = true
        try db.query("SELECT hash, vector FROM vectors WHERE length(vector) = ? ORDER BY hash", [.int(size)]) { row in
            guard v < hashes.count, row.int(0) == hashes[v] else {
                inStep = false
                return
            }
            row.withBytes(1) { writer.add(encoded: $0) }
            v += 1
        }
        return inStep && v == hashes.count && writer.finish()
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
