/// Decoding one UTF-8 sequence by the Unicode standard's rules (table 3-7): the one decoder behind
/// the note reader's validity check, the fast front-matter reader and the terminal's key decoder.
public enum UTF8Scalar {
    /// How many bytes a sequence starting with `lead` has (2–4), or nil for an ASCII byte or one that
    /// cannot start a sequence (a continuation byte, C0, C1, F5–FF).
    @inlinable
    public static func sequenceLength(lead: UInt8) -> Int? {
        switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: nil
        }
    }

    /// The scalar of the multi-byte sequence at `i` (which must be before `end`) and its length, or
    /// nil when the bytes there are not one well-formed sequence: a byte that cannot lead, a missing
    /// continuation byte, a sequence cut by `end`, an overlong form, a surrogate or a value above
    /// U+10FFFF.
    @inlinable
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> (scalar: UInt32, length: Int)? {
        let lead = bytes[i]
        guard let length = sequenceLength(lead: lead), end - i >= length else { return nil }
        var value = UInt32(lead & (0xFF >> (length + 1)))
        for k in 1..<length {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= shortest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return (value, length)
    }
}
