internal import COpenBLAS

/// Unit vectors held in one matrix, searched by cosine (a dot product, the vectors being of unit
/// length) with one matrix–vector product: brute force, exact, linear in the number of vectors.
public struct VectorSet: Sendable {
    /// The vectors' length.
    public let dimension: Int
    /// Row-major, `count` × `dimension`.
    var matrix: [Float] = []

    /// An empty set of vectors of length `dimension`.
    public init(dimension: Int = SentenceEncoder.dimension) { self.dimension = dimension }

    /// The number of vectors.
    public var count: Int { dimension == 0 ? 0 : matrix.count / dimension }

    /// Adds a vector (it must have `dimension` values).
    public mutating func append(_ vector: [Float]) {
        precondition(vector.count == dimension, "a vector of the wrong length")
        matrix.append(contentsOf: vector)
    }

    /// Room for `count` vectors in all, made at once.
    public mutating func reserve(_ count: Int) { matrix.reserveCapacity(count * dimension) }

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
        let start = matrix.count
        matrix.append(contentsOf: repeatElement(0, count: dimension))
        matrix.withUnsafeMutableBufferPointer { m in
            for i in 0..<dimension { m[start + i] = Float(Int8(bitPattern: raw[4 + i])) * scale }
        }
        return true
    }

    /// The cosine of every vector with `query` (a unit vector), in order.
    public func scores(_ query: [Float]) -> [Float] {
        guard count > 0, query.count == dimension else { return [] }
        var out = [Float](repeating: 0, count: count)
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                out.withUnsafeMutableBufferPointer { o in
                    cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(count), Int32(dimension), 1, m.baseAddress, Int32(dimension),
                                q.baseAddress, 1, 0, o.baseAddress, 1)
                }
            }
        }
        return out
    }

    /// The `limit` vectors nearest `query`: (index, cosine), best first.
    public func nearest(_ query: [Float], limit: Int) -> [(index: Int, score: Float)] {
        let all = scores(query)
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
    public func vector(at index: Int) -> [Float] { Array(matrix[(index * dimension)..<((index + 1) * dimension)]) }
}
