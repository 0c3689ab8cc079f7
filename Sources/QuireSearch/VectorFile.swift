import QuireEmbedding
import QuireSystem

/// The search index's vectors laid out to be searched in place (`search.sqlite-vectors`, beside
/// the index; FORMAT.md §1): a cache of its `vectors` and `info` tables, made by a semantic search
/// that finds it missing or too far behind and memory-mapped by the next ones, so that no command
/// reads every vector out of SQLite.
///
/// Layout, in the machine's byte order (a file from a machine of the other order fails its
/// check and is made again), each array aligned to its element:
///
/// ```
/// header   "QUIREVEC", version u32, dimension u32, vectors u64, chunks with a vector u64,
///          chunks u64, index instance u64, index changes u64, last chunk row i64,
///          chunk rows taken out i64                                        (72 bytes)
/// hashes   Int64 × vectors, ascending (a chunk's vector is found by binary search)
/// ids      Int64 × chunks with a vector, each vector's chunks side by side
/// offsets  UInt32 × (vectors + 1): vector v's chunks are ids[offsets[v] ..< offsets[v + 1]]
/// codes    Int8 × vectors × dimension (``VectorCoding``'s bytes)
/// (zeros to a multiple of 4)
/// scales   Float × vectors
/// ```
///
/// It stands for the index whose `meta` names the same instance (made with the index file): as
/// it was at the count of changes it is stamped with (every write to the chunks or the vectors
/// adds one), and later too with the chunks written since (rows after its last, never reused)
/// read from the tables (``VectorView``). The file comes with the vault like the index, so it is
/// checked whole before use (sizes, order, offsets, scales); chunk ids are looked up in the
/// index, whose rows alone are shown.
final class VectorFile: @unchecked Sendable {
    // Sendable: read-only after init; the bytes are owned by `owner` (a mapping or a heap copy).

    /// Which index state a file stands for (the index's `meta` rows `instance` and `changes`).
    struct Stamp: Equatable {
        var instance: UInt64
        var changes: Int64
    }

    static let magic = Array("QUIREVEC".utf8)
    static let version: UInt32 = 2
    static let headerSize = 72

    let stamp: Stamp
    /// How many vectors, how many chunks have one, and how many chunks the index had.
    let count: Int, embeddedChunks: Int, chunkCount: Int
    /// The index's last chunk row when the file was made, and its count of rows taken out then.
    let lastChunk: Int64, deletedChunks: Int64
    let dimension: Int
    private let owner: AnyObject
    private let hashes: UnsafePointer<Int64>, ids: UnsafePointer<Int64>, offsets: UnsafePointer<UInt32>
    private let scales: UnsafePointer<Float>, codes: UnsafePointer<Int8>
    /// Where the codes start in the file's bytes.
    private let codesOffset: Int
    /// How many vectors a scan scores before it gives back the pages it read (``nearest(_:limit:)``).
    static let scanWindow = 262_144

    /// What a file holds before its codes, as read from the index's tables. `hashes` ascending;
    /// `offsets` and `ids` as the layout says.
    struct Head {
        var hashes: [Int64] = [], offsets: [UInt32] = [], ids: [Int64] = []
        var chunkCount = 0
        var dimension = SentenceEncoder.dimension
        var stamp = Stamp(instance: 0, changes: -1)
        var lastChunk: Int64 = 0, deletedChunks: Int64 = 0

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
            put(lastChunk)
            put(deletedChunks)
            return out
        }
    }

    /// Writes a file piece by piece to `sink` (which answers false when it cannot take one): the
    /// head at once, then each vector's stored bytes in hash order as they are read, the scales
    /// kept to the end — so that a file of a million vectors is written without holding them.
    struct Writer {
        private let sink: (UnsafeRawBufferPointer) -> Bool
        private let count: Int, dimension: Int
        private var pending: [Int8] = [], scales: [Float] = []
        private var ok: Bool

        init(_ head: Head, sink: @escaping (UnsafeRawBufferPointer) -> Bool) {
            self.sink = sink
            count = head.hashes.count
            dimension = head.dimension
            ok = head.header.withUnsafeBytes(sink) && head.hashes.withUnsafeBytes(sink) && head.ids.withUnsafeBytes(sink)
                && head.offsets.withUnsafeBytes(sink)
            scales.reserveCapacity(count)
            pending.reserveCapacity(Self.flushSize + dimension)
        }

        static let flushSize = 1 << 22

        /// The next vector, stored as ``VectorCoding`` stores it; bytes that are not one (a scale
        /// that is not a number) are kept as a vector of zeros, which matches nothing.
        mutating func add(encoded raw: UnsafeRawBufferPointer) {
            let scale = raw.count == VectorCoding.size(dimension)
                ? Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))) : .nan
            if scale.isFinite {
                scales.append(scale)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[4...]).bindMemory(to: Int8.self))
            } else {
                scales.append(0)
                pending.append(contentsOf: repeatElement(0, count: dimension))
            }
            if pending.count >= Self.flushSize { flush() }
        }

        private mutating func flush() {
            ok = ok && pending.withUnsafeBytes(sink)
            pending.removeAll(keepingCapacity: true)
        }

        /// Writes the rest; whether the whole file was taken, with one vector for each hash.
        mutating func finish() -> Bool {
            flush()
            let padding = [UInt8](repeating: 0, count: (4 - count * dimension % 4) % 4)
            return ok && scales.count == count && padding.withUnsafeBytes(sink) && scales.withUnsafeBytes(sink)
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
        let codesAt = offsetsAt + 4 * (count + 1), scalesAt = (codesAt + count * dimension + 3) / 4 * 4
        guard scalesAt + 4 * count == raw.count else { return nil }
        hashes = (base + hashesAt).assumingMemoryBound(to: Int64.self)
        ids = (base + idsAt).assumingMemoryBound(to: Int64.self)
        offsets = (base + offsetsAt).assumingMemoryBound(to: UInt32.self)
        scales = (base + scalesAt).assumingMemoryBound(to: Float.self)
        codes = (base + codesAt).assumingMemoryBound(to: Int8.self)
        codesOffset = codesAt
        guard offsets[0] == 0, offsets[count] == UInt32(embedded) else { return nil }
        for v in 0..<count {
            guard offsets[v] <= offsets[v + 1], scales[v].isFinite, v == 0 || hashes[v - 1] < hashes[v] else { return nil }
        }
        stamp = Stamp(instance: raw.loadUnaligned(fromByteOffset: 40, as: UInt64.self),
                      changes: raw.loadUnaligned(fromByteOffset: 48, as: Int64.self))
        lastChunk = raw.loadUnaligned(fromByteOffset: 56, as: Int64.self)
        deletedChunks = raw.loadUnaligned(fromByteOffset: 64, as: Int64.self)
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
    func index(ofHash hash: Int64) -> Int? { Self.position(of: hash, in: UnsafeBufferPointer(start: hashes, count: count)) }

    /// Where `hash` is in `sorted` (ascending), by binary search; nil when it is not there.
    static func position(of hash: Int64, in sorted: UnsafeBufferPointer<Int64>) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < hash { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == hash ? low : nil
    }

    /// Vector `v`'s values.
    func vector(at v: Int) -> [Float] {
        (0..<dimension).map { Float(codes[v * dimension + $0]) * scales[v] }
    }

    /// The `limit` vectors nearest `query` (a unit vector): (vector, cosine), best first. A
    /// mapped file is scored a window at a time, each window's pages given back once scored: the
    /// codes of 1.4 million vectors are 530 MB, which would otherwise all count in the process's
    /// memory (they stay in the page cache for the next command).
    func nearest(_ query: [Float], limit: Int, window: Int = scanWindow) -> [(index: Int, score: Float)] {
        var all: [Float] = []
        all.reserveCapacity(count)
        var start = 0
        while start < count {
            let n = min(max(window, 1), count - start)
            all += VectorSet.scores(query, codes: codes + start * dimension, scales: scales + start, count: n, dimension: dimension)
            (owner as? MappedFile)?.release(codesOffset + start * dimension ..< codesOffset + (start + n) * dimension)
            start += n
        }
        return VectorSet.best(all, limit: limit)
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
