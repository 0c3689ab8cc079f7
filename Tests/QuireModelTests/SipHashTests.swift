import Testing
@testable import QuireModel

/// SipHash-2-4 against the reference vectors of Aumasson and Bernstein (key 00 01 … 0f, message
/// 00 01 … n-1), and the Crockford base32 encoder next to it.
@Suite struct SipHashTests {
    static let k0: UInt64 = 0x0706_0504_0302_0100
    static let k1: UInt64 = 0x0f0e_0d0c_0b0a_0908

    @Test(arguments: [
        (0, 0x726f_db47_dd0e_0e31 as UInt64),
        (1, 0x74f8_39c5_93dc_67fd),
        (2, 0x0d6c_8009_d9a9_4f5a),
        (3, 0x8567_6696_d7fb_7e2d),
        (4, 0xcf27_94e0_2771_87b7),
        (7, 0xab02_00f5_8b01_d137),
        (8, 0x93f5_f579_9a93_2462),
        (9, 0x9e00_82df_0ba9_e4b0),
        (15, 0xa129_ca61_49be_45e5),
        (16, 0x3f2a_cc7f_57c2_9bdb),
        (63, 0x958a_324c_eb06_4572),
    ])
    func referenceVectors(length: Int, expected: UInt64) {
        let message = (0..<length).map { UInt8($0) }
        #expect(SipHash24.hash(message, k0: Self.k0, k1: Self.k1) == expected)
    }

    @Test func incrementalFeedingEqualsOneShot() {
        let message = (0..<63).map { UInt8($0) }
        for split in [0, 1, 7, 8, 9, 31, 62, 63] {
            var h = SipHash24(k0: Self.k0, k1: Self.k1)
            h.combine(message[..<split])
            h.combine(message[split...])
            #expect(h.finalize() == 0x958a_324c_eb06_4572, "split at \(split)")
        }
        var byByte = SipHash24(k0: Self.k0, k1: Self.k1)
        for b in message.prefix(15) { byByte.combine(CollectionOfOne(b)) }
        #expect(byByte.finalize() == 0xa129_ca61_49be_45e5)
    }

    @Test func stringAndBufferFeedingEqualsByteFeeding() {
        let text = "quire-card-v1 é ünïcödé and a longer tail of ASCII bytes"
        let bytes = Array(text.utf8)
        let expected = SipHash24.hash(bytes, k0: Self.k0, k1: Self.k1)
        var whole = SipHash24(k0: Self.k0, k1: Self.k1)
        whole.combine(text)
        #expect(whole.finalize() == expected)
        // Strings fed after an odd number of bytes must continue the partial word.
        for split in [1, 3, 7, 8, 9, 17] {
            var h = SipHash24(k0: Self.k0, k1: Self.k1)
            h.combine(bytes[..<split])
            h.combine(String(decoding: bytes[split...], as: UTF8.self))
            #expect(h.finalize() == expected, "split at \(split)")
            var b = SipHash24(k0: Self.k0, k1: Self.k1)
            bytes.withUnsafeBufferPointer { buf in
                b.combine(buffer: UnsafeBufferPointer(rebasing: buf[..<split]))
                b.combine(buffer: UnsafeBufferPointer(rebasing: buf[split...]))
            }
            #expect(b.finalize() == expected, "buffer split at \(split)")
        }
        let message = (0..<63).map { UInt8($0) }
        var fromBuffer = SipHash24(k0: Self.k0, k1: Self.k1)
        message.withUnsafeBufferPointer { fromBuffer.combine(buffer: $0) }
        #expect(fromBuffer.finalize() == 0x958a_324c_eb06_4572)
    }

    @Test func stringCombineHashesUTF8() {
        var h = SipHash24()
        h.combine("é")
        #expect(h.finalize() == SipHash24.hash([0xC3, 0xA9]))
    }

    @Test func keyChangesHash() {
        #expect(SipHash24.hash([1, 2, 3]) != SipHash24.hash([1, 2, 3], k0: 1))
        #expect(SipHash24.hash([1, 2, 3], k1: 1) != SipHash24.hash([1, 2, 3], k0: 1))
    }
}

@Suite struct Base32Tests {
    @Test func alphabetIsCrockfordLowerCase() {
        #expect(String(Base32.alphabet) == "0123456789abcdefghjkmnpqrstvwxyz")
        #expect(!Base32.alphabet.contains("i") && !Base32.alphabet.contains("l") && !Base32.alphabet.contains("o")
            && !Base32.alphabet.contains("u"))
    }

    @Test func encodesTopBitsMostSignificantFirst() {
        #expect(Base32.encodeTopBits(0, count: 12) == "000000000000")
        #expect(Base32.encodeTopBits(.max, count: 12) == "zzzzzzzzzzzz")
        // Top five bits 00001 → "1"; the next group 11111 → "z".
        #expect(Base32.encodeTopBits(0x0800_0000_0000_0000, count: 1) == "1")
        #expect(Base32.encodeTopBits(0x07C0_0000_0000_0000, count: 2) == "0z")
        // Symbol i takes bits 63-5i … 59-5i: 0b10000 in the first group is 16 → "g".
        #expect(Base32.encodeTopBits(1 << 63, count: 3) == "g00")
        // Only the top 60 bits count: the low four bits never show.
        #expect(Base32.encodeTopBits(0xF, count: 12) == "000000000000")
        #expect(Base32.encodeTopBits(0x10, count: 12) == "000000000001")
    }

    @Test func countIsCappedAtTwelve() {
        #expect(Base32.encodeTopBits(.max, count: 20).count == 12)
        #expect(Base32.encodeTopBits(.max, count: 8) == "zzzzzzzz")
        #expect(Base32.encodeTopBits(.max, count: 0) == "")
    }
}
