import QuireSupport

/// Unit vectors held as stored (``VectorCoding``: a byte a value and a scale each), searched by
/// cosine — a dot product, the vectors being of unit length — with every vector read once: brute
/// force, exact over the stored values, linear in their number. A quarter of the memory 32-bit
/// floats would take, and nothing to convert when loaded.
public struct VectorSet: Sendable {
    /// The vectors' length.
    public let dimension: Int
    /// Row-major, `count` × `dimension` signed bytes.
    package private(set) var codes: [Int8] = []
    /// Each vector's scale (value = byte × scale).
    package private(set) var scales: [Float] = []

    /// An empty set of vectors of length `dimension`.
    public init(dimension: Int = SentenceEncoder.dimension) { self.dimension = dimension }

    /// The number of vectors.
    public var count: Int { scales.count }

    /// Adds a vector (it must have `dimension` values), stored as ``VectorCoding`` stores it.
    public mutating func append(_ vector: [Float]) {
        precondition(vector.count == dimension, "a vector of the wrong length")
        append(encoded: VectorCoding.encode(vector))
    }

    /// Room for `count` vectors in all, made at once.
    public mutating func reserve(_ count: Int) {
        codes.reserveCapacity(count * dimension)
        scales.reserveCapacity(count)
    }

    /// Adds a vector stored by ``VectorCoding/encode(_:)``; false (nothing added) when the bytes
    /// are not one.
    @discardableResult
    public mutating func append(encoded bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { append(encoded: $0) }
    }

    /// Adds a vector stored by ``VectorCoding/encode(_:)`` from bytes in place.
    @discardableResult
    public mutating func append(encoded raw: UnsafeRawBufferPointer) -> Bool {
        guard raw.count == VectorCoding.size(dimension) else { return false }
        let scale = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
        guard scale.isFinite else { return false }
        scales.append(scale)
        codes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[4...]).bindMemory(to: Int8.self))
        return true
    }

    /// The cosine of every vector with `query` (a unit vector), in order.
    public func scores(_ query: [Float]) -> [Float] {
        guard count > 0 else { return [] }
        return codes.withUnsafeBufferPointer { c in
            scales.withUnsafeBufferPointer { s in
                guard let cb = c.baseAddress, let sb = s.baseAddress else { return [] }
                return Self.scores(query, codes: cb, scales: sb, count: count, dimension: dimension)
            }
        }
    }

    /// The cosine with `query` (a unit vector) of each of `count` vectors stored in place as
    /// ``VectorCoding`` stores them, the bytes row by row (`codes`) and the scales apart: in
    /// memory or in a mapped file alike. Empty when `query` is not `dimension` long.
    public static func scores(_ query: [Float], codes: UnsafePointer<Int8>, scales: UnsafePointer<Float>, count: Int,
                              dimension d: Int) -> [Float] {
        guard count > 0, query.count == d else { return [] }
        var out = [Float](repeating: 0, count: count)
        query.withUnsafeBufferPointer { q in
            out.withUnsafeMutableBufferPointer { o in
                guard let qb = q.baseAddress, let ob = o.baseAddress else { return }
                let places = Places(codes: codes, scales: scales, query: qb, out: ob)
                // Many vectors (a big vault's, read from a mapped file) are scored on every core.
                let concurrency = count >= 65_536 ? nil : 1
                _ = inParallelChunks(of: count, chunk: 16_384, concurrency: concurrency) { rows in
                    VectorMath.scores(codes: places.codes, scales: places.scales, query: places.query, rows: rows, dimension: d,
                                      out: places.out)
                    return true
                }
            }
        }
        return out
    }

    /// Where ``scores(_:codes:scales:count:dimension:)`` reads and writes, handed to its workers
    /// (each writes rows of its own; the caller's buffers outlive them).
    private struct Places: @unchecked Sendable {
        let codes: UnsafePointer<Int8>, scales: UnsafePointer<Float>, query: UnsafePointer<Float>
        let out: UnsafeMutablePointer<Float>
    }

    /// The `limit` vectors nearest `query`: (index, cosine), best first.
    public func nearest(_ query: [Float], limit: Int) -> [(index: Int, score: Float)] {
        Self.best(scores(query), limit: limit)
    }

    /// The `limit` best of `all` scores: (index, score), best first, ties by index.
    public static func best(_ all: [Float], limit: Int) -> [(index: Int, score: Float)] {
        guard limit > 0 else { return [] }
        // A bounded selection: keep the best `limit`, sorted once at the end.
        var best: [(index: Int, score: Float)] = []
        best.reserveCapacity(limit + 1)
        var floor = -Float.infinity
        for (i, s) in all.enumerated() where best.count < limit || s > floor {
            best.append((i, s))
            if best.count > limit * 4 {
                best.sort { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
                best.removeLast(best.count - limit)
                floor = best[limit - 1].score
            }
        }
        best.sort { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
        return Array(best.prefix(limit))
    }
}

/// How vectors are stored: a little-endian 32-bit float scale, then each value as a signed byte
/// (value ≈ byte × scale, the scale making the largest value ±127): 388 bytes for 384 values, a
/// quarter of 32-bit floats. On the retrieval set, recall@3 and MRR are the same as with 32-bit
/// floats (docs/BENCHMARKS.md).
public enum VectorCoding {
    /// The stored size of a vector of `dimension` values.
    public static func size(_ dimension: Int) -> Int { 4 + dimension }

    /// The stored bytes of `vector`.
    public static func encode(_ vector: [Float]) -> [UInt8] {
        let top = vector.reduce(0) { max($0, abs($1)) }
        let scale: Float = top > 0 && top.isFinite ? top / 127 : 1
        var out: [UInt8] = []
        out.reserveCapacity(size(vector.count))
        let bits = scale.bitPattern
        for k in 0..<4 { out.append(UInt8((bits >> (8 * UInt32(k))) & 0xFF)) }
        for v in vector {
            let q = (v / scale).rounded()
            out.append(UInt8(bitPattern: Int8(q.isFinite ? max(-127, min(127, q)) : 0)))
        }
        return out
    }
}

extension VectorSet {
    /// The vector at `index`.
    public func vector(at index: Int) -> [Float] {
        codes[(index * dimension)..<((index + 1) * dimension)].map { Float($0) * scales[index] }
    }
}
