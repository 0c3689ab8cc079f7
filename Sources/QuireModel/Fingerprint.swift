/// A card's fingerprint: a 56-bit SimHash of its text (similar texts differ in few bits) followed by
/// 8 bits that name the card's kind and variant.
///
/// Stored beside each card's scheduling line so that a card whose text was edited (a typo fixed) can
/// be matched back to its history without keeping the old text anywhere, and so that the sibling
/// cards of one cloze group or reversed pair, which share their text, are never confused.
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The 64 bits.
    public var bits: UInt64

    /// Wraps raw bits.
    public init(bits: UInt64) { self.bits = bits }

    /// Parses 16 hexadecimal digits.
    public init?(hex: Substring) {
        guard hex.utf8.count == 16, let v = UInt64(hex, radix: 16) else { return nil }
        bits = v
    }

    /// The SimHash of the lower-cased text's character trigrams (Unicode scalars), each trigram
    /// hashed with SipHash-2-4 (texts shorter than three scalars hash as one feature), in the top 56
    /// bits; `shape` in the low 8 bits.
    public init(text: String, shape: UInt8) {
        let scalars = Array(text.lowercased().unicodeScalars)
        var counts = [Int](repeating: 0, count: 64)
        func add(_ slice: ArraySlice<Unicode.Scalar>) {
            var h = SipHash24(k0: 0x7175_6972_6566_7031)
            for s in slice {
                let v = s.value
                h.combine(CollectionOfOne(UInt8(truncatingIfNeeded: v)))
                h.combine(CollectionOfOne(UInt8(truncatingIfNeeded: v >> 8)))
                h.combine(CollectionOfOne(UInt8(truncatingIfNeeded: v >> 16)))
            }
            let x = h.finalize()
            for bit in 0..<64 { counts[bit] += (x >> UInt64(bit)) & 1 == 1 ? 1 : -1 }
        }
        if scalars.count < 3 {
            add(scalars[...])
        } else {
            for i in 0...(scalars.count - 3) { add(scalars[i..<(i + 3)]) }
        }
        var bits: UInt64 = 0
        for bit in 8..<64 where counts[bit] > 0 { bits |= 1 << UInt64(bit) }
        self.bits = bits | UInt64(shape)
    }

    /// The kind-and-variant byte.
    public var shape: UInt8 { UInt8(truncatingIfNeeded: bits) }

    /// Number of differing SimHash bits (0–56); nil when the shapes differ.
    public func distance(to other: Fingerprint) -> Int? {
        shape == other.shape ? ((bits ^ other.bits) >> 8).nonzeroBitCount : nil
    }

    /// 16 lower-case hex digits.
    public var description: String {
        let s = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
