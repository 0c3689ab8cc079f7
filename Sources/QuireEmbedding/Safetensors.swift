import QuireSupport

/// The tensors of a `.safetensors` file (Hugging Face's format: an 8-byte little-endian header
/// length, a JSON header naming each tensor's dtype, shape and byte range, then the data). Only
/// 32-bit float tensors are read; every range is checked against the file before it is used.
public struct Safetensors: Sendable {
    /// A tensor's shape and values (row-major).
    public struct Tensor: Sendable {
        public var shape: [Int]
        public var values: [Float]
    }

    /// The header's entries by name: dtype, shape and the byte range in the data section.
    let entries: [String: (dtype: String, shape: [Int], range: Range<Int>)]
    let bytes: [UInt8]
    let dataStart: Int
    let path: String

    /// The largest header read (the real ones are a few kilobytes).
    static let maximumHeader = 16 << 20

    /// Reads the header of the file's `bytes` (`path` names it in errors).
    public init(bytes: [UInt8], path: String) throws(EmbeddingError) {
        func bad(_ offset: Int, _ reason: String) -> EmbeddingError { .malformed(path: path, location: "byte \(offset)", reason: reason) }
        guard bytes.count >= 8 else { throw bad(0, "too short for a safetensors file") }
        var length = 0
        for k in 0..<8 { length |= Int(bytes[k]) << (8 * k) }
        guard length >= 2, length <= Self.maximumHeader, length <= bytes.count - 8 else {
            throw bad(0, "header length \(length) does not fit the file")
        }
        let header: JSONValue
        do { header = try JSONValue(parsing: Array(bytes[8..<(8 + length)])) } catch let error as JSONValue.ParseError {
            throw bad(8 + error.offset, error.message)
        } catch { throw bad(8, "unreadable header") }
        guard case .object(let fields) = header else { throw bad(8, "the header is not a JSON object") }
        let dataCount = bytes.count - 8 - length
        var entries: [String: (String, [Int], Range<Int>)] = [:]
        for (name, value) in fields where name != "__metadata__" {
            guard case .object(let info) = value,
                  case .string(let dtype)? = info.first(where: { $0.0 == "dtype" })?.1,
                  case .array(let dims)? = info.first(where: { $0.0 == "shape" })?.1,
                  case .array(let offsets)? = info.first(where: { $0.0 == "data_offsets" })?.1, offsets.count == 2,
                  case .int(let begin) = offsets[0], case .int(let end) = offsets[1], 0 <= begin, begin <= end, end <= dataCount
            else { throw bad(8, "tensor \(name): no dtype, shape or data_offsets within the file") }
            var shape: [Int] = []
            for dim in dims {
                guard case .int(let n) = dim, n >= 0, n <= 1 << 32 else { throw bad(8, "tensor \(name): bad shape") }
                shape.append(n)
            }
            entries[name] = (dtype, shape, begin..<end)
        }
        self.entries = entries
        self.bytes = bytes
        self.dataStart = 8 + length
        self.path = path
    }

    /// The names of the tensors in the file.
    public var names: [String] { entries.keys.sorted() }

    /// A failure for the first 32-bit float that is not a finite number (NaN or an infinity) in
    /// any F32 tensor, or nil: such weights make every vector NaN, and every search rank nothing.
    public func nonFiniteValue() -> EmbeddingError? {
        for name in names {
            guard let entry = entries[name], entry.dtype == "F32" else { continue }
            let start = dataStart + entry.range.lowerBound, count = entry.range.count / 4
            let found: Int? = bytes.withUnsafeBytes { raw in
                for i in 0..<count {
                    // The exponent's bits all set: NaN or an infinity.
                    let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self))
                    if bits & 0x7F80_0000 == 0x7F80_0000 { return i }
                }
                return nil
            }
            if let found {
                return .malformed(path: path, location: "byte \(start + 4 * found)", reason: "tensor \(name) holds a value that is not a finite number")
            }
        }
        return nil
    }

    /// The 32-bit float tensor `name`, which must have `shape`.
    public func tensor(_ name: String, shape: [Int]) throws(EmbeddingError) -> Tensor {
        guard let entry = entries[name] else { throw .malformed(path: path, location: "byte 8", reason: "no tensor \(name)") }
        guard entry.dtype == "F32" else { throw .malformed(path: path, location: "byte 8", reason: "tensor \(name) is \(entry.dtype), not F32") }
        guard entry.shape == shape else {
            throw .malformed(path: path, location: "byte 8", reason: "tensor \(name) has shape \(entry.shape), not \(shape)")
        }
        let count = shape.reduce(1, *)
        guard entry.range.count == count * 4 else {
            throw .malformed(path: path, location: "byte \(dataStart + entry.range.lowerBound)",
                             reason: "tensor \(name) holds \(entry.range.count) bytes, not \(count * 4)")
        }
        let start = dataStart + entry.range.lowerBound
        let values = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                #if _endian(little)
                // The file's order is the machine's: one copy.
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + count * 4)]))
                #else
                for i in 0..<count {
                    buffer[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)))
                }
                #endif
            }
            initialized = count
        }
        return Tensor(shape: shape, values: values)
    }
}
