@testable import QuireSupport
import Testing

/// The one UTF-8 decoder, against the standard library's validation.
@Suite struct UTF8ScalarTests {
    /// Every two-byte sequence, and three- and four-byte ones over the edges of every range,
    /// decode exactly when Swift's own decoder calls them one well-formed scalar.
    @Test func agreesWithTheStandardLibrary() {
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var sequences: [[UInt8]] = []
        for a in 0x80...0xFF { for b in 0...0xFF { sequences.append([UInt8(a), UInt8(b)]) } }
        for a in 0xE0...0xF4 { for b in edges { for c in edges { sequences.append([UInt8(a), b, c]) } } }
        for a in 0xF0...0xF5 { for b in edges { for c in edges { for d in edges { sequences.append([UInt8(a), b, c, d]) } } } }
        for bytes in sequences {
            let ours = bytes.withUnsafeBufferPointer { UTF8Scalar.decode($0, at: 0, end: $0.count) }
            // The standard library's reading of the first scalar, when it is multi-byte and whole.
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            var expected: (UInt32, Int)?
            if case .scalarValue(let s) = decoder.decode(&iterator), s.value >= 0x80 {
                expected = (s.value, String(s).utf8.count)
            }
            #expect(ours?.scalar == expected?.0 && ours?.length == expected?.1, "\(bytes)")
        }
    }

    @Test func cutShortByTheEnd() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        euro.withUnsafeBufferPointer { buffer in
            #expect(UTF8Scalar.decode(buffer, at: 0, end: 3)! == (0x20AC, 3))
            #expect(UTF8Scalar.decode(buffer, at: 0, end: 2) == nil)
        }
        #expect(UTF8Scalar.sequenceLength(lead: 0xE2) == 3)
        #expect(UTF8Scalar.sequenceLength(lead: 0x80) == nil)
        #expect(UTF8Scalar.sequenceLength(lead: 0x41) == nil)
    }
}
