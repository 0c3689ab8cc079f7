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

    /// Adds a vector stored by ``VectorCoding/encode(_:)``; false (nothing added) when the bytes
    /// are not one.
    @discardableResult
    public mutating func append(encoded bytes: [UInt8]) -> Bool {
        guard bytes.count == dimension * 2 else { return false }
        matrix.reserveCapacity(matrix.count + dimension)
        bytes.withUnsafeBytes { raw in
            for i in 0..<dimension { matrix.append(Float(Float16(bitPattern: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self).littleEndian))) }
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

/// How vectors are stored: each value a little-endian IEEE half-precision float (768 bytes for
/// 384 values; the retrieval set's recall is the same as with 32-bit floats, docs/BENCHMARKS.md).
public enum VectorCoding {
    /// The stored bytes of `vector`.
    public static func encode(_ vector: [Float]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(vector.count * 2)
        for v in vector {
            let bits = Float16(v).bitPattern
            out.append(UInt8(bits & 0xFF))
            out.append(UInt8(bits >> 8))
        }
        return out
    }
}

extension VectorSet {
    /// The vector at `index`.
    public func vector(at index: Int) -> [Float] { Array(matrix[(index * dimension)..<((index + 1) * dimension)]) }
}
