@testable import QuireIndex
import Testing
@testable import QuireSupport

/// Runs `body` on a reader over `bytes`.
func reading<T>(_ bytes: [UInt8], _ body: (inout BinaryReader) throws(IndexCacheError) -> T) throws(IndexCacheError) -> T {
    let result: Result<T, IndexCacheError> = bytes.withUnsafeBytes { raw in
        var r = BinaryReader(raw)
        do throws(IndexCacheError) { return .success(try body(&r)) } catch { return .failure(error) }
    }
    return try result.get()
}

/// The cache's byte format: every value reads back, and bad bytes end in an error, never a crash.
@Suite struct BinaryCodingTests {
    @Test func valuesReadBack() throws {
        var w = BinaryWriter()
        w.u8(7); w.bool(true); w.u32(0xDEAD_BEEF); w.u64(.max); w.i64(-5); w.f64(-0.125)
        for v in [0, 1, 127, 128, 300, 1 << 40, Int.max] { w.varint(v) }
        w.string(""); w.string("naïve 日本語")
        let read = try reading(w.bytes) { r throws(IndexCacheError) in
            (try r.u8(), try r.bool(), try r.u32(), try r.u64(), try r.i64(), try r.f64(),
             try (0..<7).map { _ throws(IndexCacheError) in try r.varint() }, try r.string(), try r.string(), r.isAtEnd)
        }
        #expect(read.0 == 7 && read.1 && read.2 == 0xDEAD_BEEF && read.3 == .max && read.4 == -5 && read.5 == -0.125)
        #expect(read.6 == [0, 1, 127, 128, 300, 1 << 40, Int.max])
        #expect(read.7 == "" && read.8 == "naïve 日本語" && read.9)
    }

    @Test func everyCutIsAnErrorNotACrash() throws {
        var w = BinaryWriter()
        w.u64(1); w.string("a string that is cut"); w.varint(1 << 30)
        for cut in 0..<w.bytes.count {
            #expect(throws: IndexCacheError.self) {
                try reading(Array(w.bytes.prefix(cut))) { r throws(IndexCacheError) in
                    _ = try r.u64()
                    _ = try r.string()
                    _ = try r.varint()
                }
            }
        }
    }

    @Test func badFlagsCountsAndTextAreRefused() throws {
        #expect(throws: IndexCacheError.self) { try reading([2]) { r throws(IndexCacheError) in try r.bool() } }
        // A count larger than the bytes left could hold.
        var w = BinaryWriter()
        w.varint(1_000_000)
        #expect(throws: IndexCacheError.self) { try reading(w.bytes) { r throws(IndexCacheError) in try r.count() } }
        // A string that is not UTF-8.
        #expect(throws: IndexCacheError.self) { try reading([2, 0xC3, 0x28]) { r throws(IndexCacheError) in try r.string() } }
        // A varint that never ends.
        #expect(throws: IndexCacheError.self) {
            try reading([UInt8](repeating: 0xFF, count: 11)) { r throws(IndexCacheError) in try r.varint() }
        }
    }

    @Test func theChecksumSeesEveryOneByteChange() {
        var bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let base = Checksum64.of(bytes)
        for i in bytes.indices {
            bytes[i] ^= 0x01
            #expect(Checksum64.of(bytes) != base)
            bytes[i] ^= 0x01
        }
        #expect(Checksum64.of(bytes) == base)
        #expect(Checksum64.of(Array(bytes.dropLast())) != base)
        #expect(Checksum64.of([]) != Checksum64.of([0]))
    }
}
