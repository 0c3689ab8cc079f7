@testable import QuireArchive
import Testing

/// Protocol-buffer messages read without a schema.
@Suite struct ProtobufFieldsTests {
    @Test func varintsStringsAndRepeatedFields() throws {
        // 1: varint 300; 2: "hi"; 1: varint 1 (the last wins); 3: fixed64 skipped; 4: two entries.
        let bytes: [UInt8] = [0x08, 0xAC, 0x02, 0x12, 0x02, 0x68, 0x69, 0x08, 0x01, 0x19, 1, 2, 3, 4, 5, 6, 7, 8,
                              0x22, 0x01, 0x61, 0x22, 0x00, 0x2D, 1, 2, 3, 4]
        let message = try #require(ProtobufFields(bytes))
        #expect(message.varint(1) == 1)
        #expect(message.string(2) == "hi")
        #expect(message.all(4) == [[0x61], []])
        #expect(message.varint(9) == nil && message.string(9) == nil)
    }

    @Test(arguments: [[0x12, 0x05, 0x61] as [UInt8], [0x08], [0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x0B], [0x19, 1]])
    func brokenMessagesAreNil(_ bytes: [UInt8]) {
        #expect(ProtobufFields(bytes) == nil)
    }
}
