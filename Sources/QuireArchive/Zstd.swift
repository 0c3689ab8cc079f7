internal import CZstd

/// zstd decompression (Anki's current package format compresses its collection and media with
/// it), through the system library, with a size limit: a small frame that would become
/// gigabytes is refused, not decompressed.
public enum Zstd {
    /// The frame magic number, little-endian: whether bytes start a zstd frame.
    public static func isFrame(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) }

    /// Decompresses all the frames in `bytes`.
    ///
    /// - Throws: ``ArchiveError/tooLarge(name:limit:)`` past `limit` bytes of output,
    ///   ``ArchiveError/invalidCompression(name:reason:)`` for data that is not zstd or ends
    ///   inside a frame.
    public static func decompress(_ bytes: [UInt8], limit: Int, name: String) throws(ArchiveError) -> [UInt8] {
        guard let stream = ZSTD_createDStream() else { throw .invalidCompression(name: name, reason: "out of memory") }
        defer { ZSTD_freeDStream(stream) }
        ZSTD_initDStream(stream)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        let failure: ArchiveError? = bytes.withUnsafeBytes { source in
            var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            var pending = 1
            // Until every input byte is read and the last frame is complete (`pending` 0).
            while input.pos < input.size || pending != 0 {
                let before = input.pos
                let (result, produced) = buffer.withUnsafeMutableBytes { target in
                    var output = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                    let r = ZSTD_decompressStream(stream, &output, &input)
                    return (r, output.pos)
                }
                if ZSTD_isError(result) != 0 { return .invalidCompression(name: name, reason: String(cString: ZSTD_getErrorName(result))) }
                guard out.count + produced <= limit else { return .tooLarge(name: name, limit: limit) }
                out.append(contentsOf: buffer[0..<produced])
                pending = result
                if produced == 0, input.pos == before {
                    return .invalidCompression(name: name, reason: "the data ends inside a frame")
                }
            }
            return nil
        }
        if let failure { throw failure }
        return out
    }
}
