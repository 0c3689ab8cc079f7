/// The fields of a protocol-buffer message, read by their numbers without a schema: what Quire
/// needs of Anki's few messages (the media list, a note type's kind, a template's formats).
///
/// Varints and length-delimited fields are kept; fixed-width ones are skipped. A message that
/// breaks the wire format gives nil. Linear in the message's size; nested messages are read by
/// calling ``init(_:)`` again on a field's bytes.
public struct ProtobufFields: Sendable {
    /// Each field in order: its number, and its varint or bytes.
    public private(set) var fields: [(number: Int, value: Value)] = []

    /// A field's value.
    public enum Value: Sendable, Equatable {
        case varint(UInt64)
        case bytes([UInt8])
    }

    /// Reads a message; nil when it is not one.
    public init?(_ bytes: [UInt8]) {
        var i = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count, shift < 64 {
                let b = bytes[i]
                i += 1
                value |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        while i < bytes.count {
            guard let key = varint() else { return nil }
            let number = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard let v = varint() else { return nil }
                fields.append((number, .varint(v)))
            case 1:
                guard i + 8 <= bytes.count else { return nil }
                i += 8
            case 2:
                guard let n = varint(), n <= UInt64(bytes.count - i) else { return nil }
                fields.append((number, .bytes(Array(bytes[i..<i + Int(n)]))))
                i += Int(n)
            case 5:
                guard i + 4 <= bytes.count else { return nil }
                i += 4
            default:
                return nil
            }
        }
    }

    /// The last varint with this number (protocol buffers: the last one wins), or nil.
    public func varint(_ number: Int) -> UInt64? {
        for field in fields.reversed() where field.number == number {
            if case .varint(let v) = field.value { return v }
        }
        return nil
    }

    /// Every length-delimited value with this number, in order (a repeated field).
    public func all(_ number: Int) -> [[UInt8]] {
        fields.compactMap { field in
            guard field.number == number, case .bytes(let b) = field.value else { return nil }
            return b
        }
    }

    /// The last length-delimited value with this number as UTF-8 text, or nil.
    public func string(_ number: Int) -> String? {
        all(number).last.map { String(decoding: $0, as: UTF8.self) }
    }
}
