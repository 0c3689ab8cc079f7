/// A fast 64-bit checksum of bytes (word-wise multiply-xorshift, one multiply per eight bytes):
/// it guards the cache against torn writes and bit rot, not against an adversary.
package enum Checksum64 {
    static package func of(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(buffer.count)
        let words = buffer.count / 8
        var i = 0
        while i < words {
            let w = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            h = (h ^ w) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 1
        }
        var tail: UInt64 = 0
        for j in (words * 8)..<buffer.count { tail = tail << 8 | UInt64(buffer[j]) }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 31
        return h
    }

    static package func of(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { of($0) } }
}
