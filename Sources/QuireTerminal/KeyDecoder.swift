import QuireSupport
/// A key read in raw mode.
package enum Key: Equatable {
    case character(Character)
    case enter, space, escape, backspace, interrupt, endOfInput
    /// The arrows up and down, Page Up and Page Down, Home and End (scrolling a long card).
    case up, down, left, right, pageUp, pageDown, home, end
    /// A key the review does not use: another arrow or function key, a control character, bytes
    /// that are not UTF-8.
    case other
}

/// Splits the bytes a terminal sends into keys, several per `read` when they come fast (typed
/// ahead while the screen was busy, or pasted): every byte belongs to exactly one key, in order.
///
/// Escape sequences (`ESC [ … final`, `ESC O x`) are one key each; a multi-byte UTF-8 character
/// is one key. A key whose bytes are cut short waits for the rest unless `atEnd` says no more is
/// coming.
package struct KeyDecoder {
    private var pending: [UInt8] = []
    private var start = 0

    /// Adds bytes read from the terminal.
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0 && start == pending.count {
            pending.removeAll(keepingCapacity: true)
            start = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// Whether bytes are waiting to be decoded.
    package var isEmpty: Bool { start == pending.count }

    /// The next key, or nil when no whole key is waiting. With `atEnd`, a key cut short is
    /// taken as it is (a lone `ESC` is the Escape key; a partial sequence or character is
    /// ``Key/other``).
    package mutating func next(atEnd: Bool) -> Key? {
        guard start < pending.count else { return nil }
        let (key, length) = Self.decode(pending[start...])
        guard let key else {
            guard atEnd else { return nil }
            let cut: Key = pending[start] == 27 && pending.count - start == 1 ? .escape : .other
            start = pending.count
            return cut
        }
        start += length
        return key
    }

    /// The first key of `bytes` and its length in bytes; a nil key when `bytes` end inside it.
    package static func decode(_ bytes: ArraySlice<UInt8>) -> (Key?, Int) {
        let i = bytes.startIndex
        let first = bytes[i]
        switch first {
        case 13, 10: return (.enter, 1)
        case 32: return (.space, 1)
        case 127, 8: return (.backspace, 1)
        case 3: return (.interrupt, 1)
        case 4: return (.endOfInput, 1)
        case 27: return decodeEscape(bytes)
        case 0..<32: return (.other, 1)
        case 0x21..<0x7F: return (.character(Character(Unicode.Scalar(first))), 1)
        default: return decodeUTF8(bytes)
        }
    }

    /// `ESC [ parameters intermediates final` (CSI) and `ESC O x` (SS3) are one key; `ESC`
    /// followed by anything else is the Escape key, and what follows is a key of its own.
    private static func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int) {
        let i = bytes.startIndex
        guard bytes.count > 1 else { return (nil, 1) }
        switch bytes[i + 1] {
        case UInt8(ascii: "["):
            var j = i + 2
            while j < bytes.endIndex {
                switch bytes[j] {
                case 0x20...0x3F: j += 1
                case 0x40...0x7E: return (csiKey(parameters: bytes[(i + 2)..<j], final: bytes[j]), j - i + 1)
                default: return (.other, j - i)  // malformed: the sequence ends before this byte
                }
            }
            return (nil, j - i)
        case UInt8(ascii: "O"):
            return bytes.count > 2 ? (csiKey(parameters: [], final: bytes[i + 2]), 3) : (nil, 2)
        default:
            return (.escape, 1)
        }
    }

    /// The key a complete `CSI` (or `SS3`) sequence stands for: `A`/`B`/`C`/`D` are the arrows up,
    /// down, right and left, `5~`/`6~` Page Up/Down, `H`/`F` and `1~`/`4~` (or `7~`/`8~`) Home and End.
    private static func csiKey<Parameters: Collection<UInt8>>(parameters: Parameters, final: UInt8) -> Key {
        let p = String(decoding: parameters, as: UTF8.self)
        switch (p, final) {
        case ("", UInt8(ascii: "A")), ("1", UInt8(ascii: "A")): return .up
        case ("", UInt8(ascii: "B")), ("1", UInt8(ascii: "B")): return .down
        case ("", UInt8(ascii: "C")), ("1", UInt8(ascii: "C")): return .right
        case ("", UInt8(ascii: "D")), ("1", UInt8(ascii: "D")): return .left
        case ("5", UInt8(ascii: "~")): return .pageUp
        case ("6", UInt8(ascii: "~")): return .pageDown
        case ("", UInt8(ascii: "H")), ("1", UInt8(ascii: "~")), ("7", UInt8(ascii: "~")): return .home
        case ("", UInt8(ascii: "F")), ("4", UInt8(ascii: "~")), ("8", UInt8(ascii: "~")): return .end
        default: return .other
        }
    }

    /// One UTF-8 encoded scalar; a byte that cannot start one, or a sequence that is not valid
    /// UTF-8, is one ``Key/other`` per byte.
    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> (Key?, Int) {
        let i = bytes.startIndex
        guard let length = UTF8Scalar.sequenceLength(lead: bytes[i]) else { return (.other, 1) }
        let available = min(length, bytes.count)
        for k in 1..<available where bytes[i + k] & 0xC0 != 0x80 { return (.other, 1) }
        // The rest of the sequence has not come yet.
        guard available == length else { return (nil, available) }
        guard let (scalar, _) = bytes.withUnsafeBufferPointer({ UTF8Scalar.decode($0, at: 0, end: $0.count) }),
              let unicode = Unicode.Scalar(scalar) else { return (.other, 1) }
        return (.character(Character(unicode)), length)
    }
}
