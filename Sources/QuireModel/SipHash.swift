/// SipHash-2-4, the keyed 64-bit hash by Aumasson and Bernstein.
///
/// Card IDs must come out the same on every machine and in every version of Quire, so they use this
/// fully specified function rather than Swift's per-process seeded `Hasher`.
public struct SipHash24: Sendable {
    private var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64
    private var tail: UInt64 = 0
    private var tailCount = 0
    private var length: UInt64 = 0

    /// Creates a hasher with a 128-bit key given as two words (little-endian halves).
    public init(k0: UInt64 = 0, k1: UInt64 = 0) {
        v0 = 0x736f_6d65_7073_6575 ^ k0
        v1 = 0x646f_7261_6e64_6f6d ^ k1
        v2 = 0x6c79_6765_6e65_7261 ^ k0
        v3 = 0x7465_6462_7974_6573 ^ k1
    }

    private mutating func round() {
        v0 &+= v1; v1 = v1.rotl(13); v1 ^= v0; v0 = v0.rotl(32)
        v2 &+= v3; v3 = v3.rotl(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotl(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotl(17); v1 ^= v2; v2 = v2.rotl(32)
    }

    private mutating func compress(_ m: UInt64) {
        v3 ^= m
        round(); round()
        v0 ^= m
    }

    /// Feeds bytes (eight at a time when they are contiguous, as in arrays and their slices).
    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { combine(buffer: $0) }
        if done == nil {
            for byte in bytes { combine(byte: byte) }
        }
    }

    /// Feeds the UTF-8 bytes of a string.
    public mutating func combine(_ string: String) {
        var string = string
        string.withUTF8 { combine(buffer: $0) }
    }

    /// Feeds contiguous bytes, eight at a time where possible.
    public mutating func combine(buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        let n = buffer.count
        var i = 0
        // Finish a partial word first.
        while tailCount != 0, i < n {
            tail |= UInt64(base[i]) << (8 * UInt64(tailCount))
            tailCount += 1
            i += 1
            if tailCount == 8 {
                compress(tail)
                tail = 0
                tailCount = 0
            }
        }
        while i + 8 <= n {
            compress(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
            i += 8
        }
        while i < n {
            tail |= UInt64(base[i]) << (8 * UInt64(tailCount))
            tailCount += 1
            i += 1
        }
        length &+= UInt64(n)
    }

    /// Feeds one byte.
    public mutating func combine(byte: UInt8) {
        tail |= UInt64(byte) << (8 * UInt64(tailCount))
        tailCount += 1
        length &+= 1
        if tailCount == 8 {
            compress(tail)
            tail = 0
            tailCount = 0
        }
    }

    /// Finishes and returns the 64-bit hash.
    public consuming func finalize() -> UInt64 {
        let b = tail | (length << 56)
        compress(b)
        v2 ^= 0xff
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// Hashes bytes in one call.
    public static func hash(_ bytes: some Sequence<UInt8>, k0: UInt64 = 0, k1: UInt64 = 0) -> UInt64 {
        var h = SipHash24(k0: k0, k1: k1)
        h.combine(bytes)
        return h.finalize()
    }
}

extension UInt64 {
    @inline(__always) func rotl(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}

/// Crockford's base32 alphabet in lower case, used for card and device IDs.
public enum Base32 {
    /// The 32 symbols, in value order.
    public static let alphabet: [Character] = Array("0123456789abcdefghjkmnpqrstvwxyz")

    /// The top `count * 5` bits of `value`, as `count` symbols (at most 12).
    public static func encodeTopBits(_ value: UInt64, count: Int) -> String {
        let n = min(count, 12)
        return String(unsafeUninitializedCapacity: n) { buffer in
            for i in 0..<n {
                let shift = UInt64(59 - 5 * i)
                buffer[i] = symbols[Int((value >> shift) & 31)]
            }
            return n
        }
    }

    /// The alphabet as ASCII bytes.
    private static let symbols: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
}
