import QuireEmbedding
import QuireSystem

/// The search index's vectors laid out to be searched in place (`search.sqlite-vectors`, beside
/// the index; FORMAT.md §1): a cache of its `vectors` and `info` tables, made by the first
/// semantic search that finds it missing or stale and memory-mapped by the next ones, so that no
/// command reads every vector out of SQLite while the index is unchanged.
///
/// Layout, in the machine's byte order (a file from a machine of the other order fails its
/// check and is made again), each array aligned to its element:
///
/// ```
/// header   "QUIREVEC", version u32, dimension u32, vectors u64, chunks with a vector u64,
///          chunks u64, index instance u64, index changes u64            (56 bytes)
/// hashes   Int64 × vectors, ascending (a chunk's vector is found by binary search)
/// ids      Int64 × chunks with a vector, each vector's chunks side by side
/// offsets  UInt32 × (vectors + 1): vector v's chunks are ids[offsets[v] ..< offsets[v + 1]]
/// scales   Float × vectors
/// codes    Int8 × vectors × dimension (``VectorCoding``'s bytes)
/// ```
///
/// It stands for the index whose `meta` names the same instance (made with the index file) and
/// the same count of changes (every write to the chunks or the vectors adds one): a file written
/// before any later write is never used. The file comes with the vault like the index, so it is
/// checked whole before use (sizes, order, offsets, scales); chunk ids are looked up in the index,
/// whose rows alone are shown.
final class VectorFile: @unchecked Sendable {
    // Sendable: read-only after init; the bytes are owned by `owner` (a mapping or a heap copy).

    /// Which index state a file stands for (the index's `meta` rows `instance` and `changes`).
    struct Stamp: Equatable {
        var instance: UInt64
        var changes: Int64
    }

    static let magic = Array("QUIREVEC".utf8)
    static let version: UInt32 = 1
    static let headerSize = 56

    let stamp: Stamp
    /// How many vectors, how many chunks have one, and how many chunks the index had.
    let count: Int, embeddedChunks: Int, chunkCount: Int
    let dimension: Int
    private let owner: AnyObject
    private let hashes: UnsafePointer<Int64>, ids: UnsafePointer<Int64>, offsets: UnsafePointer<UInt32>
    private let scales: UnsafePointer<Float>, codes: UnsafePointer<Int8>

    /// What a file is made of, as read from the index's tables. `hashes` ascending; `scales` and
    /// `codes` one per hash; `offsets` and `ids` as the layout says.
    struct Parts {
        var hashes: [Int64] = [], scales: [Float] = [], codes: [Int8] = []
        var offsets: [UInt32] = [], ids: [Int64] = []
        var chunkCount = 0
        var dimension = SentenceEncoder.dimension
        var stamp = Stamp(instance: 0, changes: -1)

        /// The header's bytes.
        var header: [UInt8] {
            var out = VectorFile.magic
            func put<T>(_ value: T) { withUnsafeBytes(of: value) { out.append(contentsOf: $0) } }
            put(VectorFile.version)
            put(UInt32(dimension))
            put(UInt64(hashes.count))
            put(UInt64(ids.count))
            put(UInt64(chunkCount))
            put(stamp.instance)
            put(stamp.changes)
            return out
        }

        /// Hands the file's bytes to `write` piece by piece, in order (no copy of the arrays),
        /// until it returns false; whether every piece was taken.
        func pieces(_ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
            header.withUnsafeBytes(write) && hashes.withUnsafeBytes(write) && ids.withUnsafeBytes(write)
                && offsets.withUnsafeBytes(write) && scales.withUnsafeBytes(write) && codes.withUnsafeBytes(write)
        }

        /// The file's bytes in one array.
        var bytes: [UInt8] {
            var out: [UInt8] = []
            _ = pieces { out.append(contentsOf: $0); return true }
            return out
        }

        /// Writes the file at `path`, replacing the old one whole; false when it cannot.
        func write(to path: String, io: FileIO = FileIO()) -> Bool {
            guard let temp = try? io.overwriting(path),
                  pieces({ (try? temp.write($0)) != nil }) else { return false }
            return (try? temp.commit()) != nil
        }
    }

    /// The file at `path` mapped and checked; nil when missing, unreadable or not one.
    static func mapped(_ path: String, io: FileIO = FileIO()) -> VectorFile? {
        guard let file = try? MappedFile(path: path, io: io) else { return nil }
        return VectorFile(file.bytes, owner: file)
    }

    /// A copy of `bytes` in memory, checked (where the file could not be written).
    static func inMemory(_ bytes: [UInt8]) -> VectorFile? {
        let heap = HeapBytes(bytes)
        return VectorFile(UnsafeRawBufferPointer(heap.bytes), owner: heap)
    }

    /// A view of `raw`, which `owner` keeps alive, after checking it whole; nil when it is not a
    /// vector file of this version and dimension, or any part of it does not add up.
    init?(_ raw: UnsafeRawBufferPointer, owner: AnyObject, dimension: Int = SentenceEncoder.dimension) {
        guard raw.count >= Self.headerSize, let base = raw.baseAddress, Int(bitPattern: base) % 8 == 0,
              Array(raw.prefix(8)) == Self.magic,
              raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == Self.version,
              raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == UInt32(dimension) else { return nil }
        let count64 = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        let embedded64 = raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        let chunks64 = raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self)
        // Bounded by the file's size before any product, so that nothing overflows.
        guard count64 <= UInt64(raw.count / (16 + dimension)), embedded64 <= UInt64(raw.count / 8),
              embedded64 <= UInt64(UInt32.max), chunks64 >= embedded64, chunks64 <= UInt64(Int32.max) else { return nil }
        let count = Int(count64), embedded = Int(embedded64)
        let hashesAt = Self.headerSize, idsAt = hashesAt + 8 * count, offsetsAt = idsAt + 8 * embedded
        let scalesAt = offsetsAt + 4 * (count + 1), codesAt = scalesAt + 4 * count
        guard codesAt + count * dimension == raw.count else { return nil }
        hashes = (base + hashesAt).assumingMemoryBound(to: Int64.self)
        ids = (base + idsAt).assumingMemoryBound(to: Int64.self)
        offsets = (base + offsetsAt).assumingMemoryBound(to: UInt32.self)
        scales = (base + scalesAt).assumingMemoryBound(to: Float.self)
        codes = (base + codesAt).assumingMemoryBound(to: Int8.self)
        guard offsets[0] == 0, offsets[count] == UInt32(embedded) else { return nil }
        for v in 0..<count {
            guard offsets[v] <= offsets[v + 1], scales[v].isFinite, v == 0 || hashes[v - 1] < hashes[v] else { return nil }
        }
        stamp = Stamp(instance: raw.loadUnaligned(fromByteOffset: 40, as: UInt64.self),
                      changes: raw.loadUnaligned(fromByteOffset: 48, as: Int64.self))
        self.count = count
        embeddedChunks = embedded
        chunkCount = Int(chunks64)
        self.dimension = dimension
        self.owner = owner
    }

    /// The chunks (rows of `info`) of vector `v`.
    func chunks(of v: Int) -> UnsafeBufferPointer<Int64> {
        UnsafeBufferPointer(start: ids + Int(offsets[v]), count: Int(offsets[v + 1] - offsets[v]))
    }

    /// The vector computed from the text with `hash`, if there is one.
    func index(ofHash hash: Int64) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if hashes[mid] < hash { low = mid + 1 } else { high = mid }
        }
        return low < count && hashes[low] == hash ? low : nil
    }

    /// Vector `v`'s values.
    func vector(at v: Int) -> [Float] {
        (0..<dimension).map { Float(codes[v * dimension + $0]) * scales[v] }
    }

    /// The `limit` vectors nearest `query` (a unit vector): (vector, cosine), best first.
    func nearest(_ query: [Float], limit: Int) -> [(index: Int, score: Float)] {
        VectorSet.best(VectorSet.scores(query, codes: codes, scales: scales, count: count, dimension: dimension), limit: limit)
    }
}

/// Bytes on the heap, 8-aligned, freed with their owner.
private final class HeapBytes {
    let bytes: UnsafeMutableRawBufferPointer

    init(_ source: [UInt8]) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
        source.withUnsafeBytes { bytes.copyMemory(from: $0) }
    }

    deinit { bytes.deallocate() }
}
