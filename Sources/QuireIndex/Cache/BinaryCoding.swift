
/// Appends little-endian values to a byte buffer: the writing half of the cache's binary format.
struct BinaryWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }

    mutating func f64(_ v: Double) { u64(v.bitPattern) }

    /// A non-negative count or small integer as LEB128 (one byte below 128).
    mutating func varint(_ v: Int) {
        var x = UInt64(bitPattern: Int64(v))
        while x >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: x) | 0x80)
            x >>= 7
        }
        bytes.append(UInt8(x))
    }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Overwrites eight bytes at `offset` (for lengths and checksums known only later).
    mutating func patchU64(_ v: UInt64, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { raw in
            for i in 0..<8 { bytes[offset + i] = raw[i] }
        }
    }
}

/// Reads what ``BinaryWriter`` wrote, checking every bound: a cut or damaged cache ends in
/// ``IndexCacheError/malformed``, never in a crash.
struct BinaryReader {
    private let base: UnsafeRawBufferPointer
    /// The next byte to read.
    private(set) var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        base = buffer
        self.offset = offset
    }

    var isAtEnd: Bool { offset >= base.count }

    private mutating func take(_ n: Int) throws(IndexCacheError) -> Int {
        guard n >= 0, n <= base.count - offset else { throw .malformed("truncated at byte \(offset)") }
        defer { offset += n }
        return offset
    }

    mutating func u8() throws(IndexCacheError) -> UInt8 { base[try take(1)] }

    mutating func bool() throws(IndexCacheError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw .malformed("bad flag at byte \(offset - 1)")
        }
    }

    mutating func u32() throws(IndexCacheError) -> UInt32 {
        let at = try take(4)
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    mutating func u64() throws(IndexCacheError) -> UInt64 {
        let at = try take(8)
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    mutating func i64() throws(IndexCacheError) -> Int64 { Int64(bitPattern: try u64()) }

    mutating func f64() throws(IndexCacheError) -> Double { Double(bitPattern: try u64()) }

    mutating func varint() throws(IndexCacheError) -> Int {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8()
            guard shift < 64 else { throw .malformed("bad number at byte \(offset - 1)") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { break }
            shift += 7
        }
        return Int(Int64(bitPattern: result))
    }

    /// A count that must fit in what is left (each counted item takes at least `minimumSize` bytes).
    mutating func count(minimumSize: Int = 1) throws(IndexCacheError) -> Int {
        let n = try varint()
        guard n >= 0, n <= (base.count - offset) / max(1, minimumSize) else {
            throw .malformed("bad count \(n) at byte \(offset)")
        }
        return n
    }

    mutating func string() throws(IndexCacheError) -> String {
        let n = try count()
        let at = try take(n)
        let slice = UnsafeRawBufferPointer(rebasing: base[at..<(at + n)])
        guard let s = String(validating: slice.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw .malformed("invalid UTF-8 at byte \(at)")
        }
        return s
    }

    /// The raw bytes of the next `n` bytes.
    mutating func bytes(_ n: Int) throws(IndexCacheError) -> UnsafeRawBufferPointer {
        let at = try take(n)
        return UnsafeRawBufferPointer(rebasing: base[at..<(at + n)])
    }
}
