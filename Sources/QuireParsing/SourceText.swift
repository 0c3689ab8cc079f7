import QuireSupport

/// A file's bytes with an index of where each line starts, for turning (line, column) positions into
/// byte offsets and slicing lines without their line ending.
public struct SourceText: Sendable {
    /// The whole file.
    public let bytes: [UInt8]
    /// Byte offset where each line starts; `lineStarts[0]` is past a UTF-8 byte-order mark.
    public let lineStarts: [Int]

    /// Indexes a file's bytes.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int] = []
        starts.reserveCapacity(bytes.count / 40 + 1)
        let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        starts.append(bom ? 3 : 0)
        bytes.withUnsafeBytes { buf in
            guard let base = buf.baseAddress else { return }
            if RawBytes.first(13, in: base, count: buf.count) != nil {
                // A lone `\r` ends a line too, as cmark-gfm and libyaml count lines (old Mac files,
                // or a crafted note): the lines must be theirs.
                var i = 0
                while i < buf.count {
                    let b = buf[i]
                    if b == 10 || (b == 13 && (i + 1 == buf.count || buf[i + 1] != 10)) { starts.append(i + 1) }
                    i += 1
                }
                return
            }
            var offset = 0
            while offset < buf.count, let hit = RawBytes.first(10, in: base + offset, count: buf.count - offset) {
                offset = base.distance(to: UnsafeRawPointer(hit)) + 1
                starts.append(offset)
            }
        }
        lineStarts = starts
    }

    /// Number of lines (a final line ending starts an empty last line).
    public var lineCount: Int { lineStarts.count }

    /// Byte range of a 1-based line, without its `\n`, `\r\n` or lone `\r`.
    public func lineRange(_ line: Int) -> Range<Int> {
        guard line >= 1, line <= lineStarts.count else { return bytes.count..<bytes.count }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 13, end < bytes.count, bytes[end] == 10 { end -= 1 }
        return start..<max(start, end)
    }

    /// The text of a 1-based line, without its line ending.
    public func line(_ line: Int) -> String {
        String(decoding: bytes[lineRange(line)], as: UTF8.self)
    }

    /// Byte offset of a 1-based (line, column) position, column counted in bytes.
    public func offset(line: Int, column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return bytes.count }
        return min(bytes.count, lineStarts[line - 1] + max(0, column - 1))
    }

    /// The 1-based (line, column) of a byte offset.
    public func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return (lo + 1, offset - lineStarts[lo] + 1)
    }
}
