import QuireEmbedding

/// The vectors of the search index as it is now: a ``VectorFile`` made at an earlier state of
/// the same index, and what was written since read from the tables — the chunks after the file's
/// last row (rows are never numbered twice), with their vectors. A chunk the file lists and the
/// index has since taken out is skipped when its row is looked up. So an edit of a note costs a
/// few rows read, not the file made again (4 s and the whole vector table at a million chunks);
/// the file is made again once the rows since are many (``SearchIndex/vectorsView()``).
final class VectorView: @unchecked Sendable {
    // Sendable: read-only after init.
    let file: VectorFile
    /// Vectors the file does not have, of chunks written since (indexes after the file's).
    private let added: VectorSet
    private let addedByHash: [Int64: Int]
    private let addedChunks: [[Int64]]
    /// Chunks written since whose vector the file has: the file's vector → those chunks.
    private let moreChunks: [Int: [Int64]]
    /// Chunks written since that have no vector yet.
    let missing: [(id: Int64, hash: Int64)]
    /// Whether the index changed since the file was made (else the file alone stands for it).
    let behind: Bool
    /// The state of the index the view stands for.
    let stamp: VectorFile.Stamp

    /// One chunk written since the file was made: its row, its text's hash, and its stored vector
    /// (nil when it has none yet).
    struct Row {
        var id: Int64
        var hash: Int64
        var vector: [UInt8]?
    }

    /// The file with the rows written since it was made, standing for the index at `stamp`.
    init(file: VectorFile, since rows: [Row], behind: Bool, stamp: VectorFile.Stamp) {
        self.file = file
        self.behind = behind
        self.stamp = stamp
        var added = VectorSet(dimension: file.dimension)
        var addedChunks: [[Int64]] = [], byHash: [Int64: Int] = [:]
        var more: [Int: [Int64]] = [:], missing: [(id: Int64, hash: Int64)] = []
        for row in rows {
            guard let stored = row.vector else {
                missing.append((row.id, row.hash))
                continue
            }
            if let v = file.index(ofHash: row.hash) {
                more[v, default: []].append(row.id)
            } else if let a = byHash[row.hash] {
                addedChunks[a].append(row.id)
            } else if added.append(encoded: stored) {
                byHash[row.hash] = addedChunks.count
                addedChunks.append([row.id])
            }
        }
        self.added = added
        addedByHash = byHash
        self.addedChunks = addedChunks
        moreChunks = more
        self.missing = missing
    }

    /// How many vectors, the file's and those added.
    var count: Int { file.count + added.count }

    /// The chunks of vector `v` (some may have been taken out since: look each up).
    func chunks(of v: Int) -> [Int64] {
        guard v >= file.count else { return Array(file.chunks(of: v)) + (moreChunks[v] ?? []) }
        return addedChunks[v - file.count]
    }

    /// The vector computed from the text with `hash`, if there is one.
    func index(ofHash hash: Int64) -> Int? {
        if let v = file.index(ofHash: hash) { return v }
        return addedByHash[hash].map { file.count + $0 }
    }

    /// Vector `v`'s values.
    func vector(at v: Int) -> [Float] { v < file.count ? file.vector(at: v) : added.vector(at: v - file.count) }

    /// The `limit` vectors nearest `query` (a unit vector): (vector, cosine), best first.
    func nearest(_ query: [Float], limit: Int) -> [(index: Int, score: Float)] {
        let inFile = file.nearest(query, limit: limit)
        guard added.count > 0 else { return inFile }
        let since = added.nearest(query, limit: limit).map { (index: $0.index + file.count, score: $0.score) }
        return Array((inFile + since).sorted { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }.prefix(limit))
    }
}
