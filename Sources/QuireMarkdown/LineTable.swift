import QuireSupport

/// Where each line of a buffer starts, with cmark's idea of a line ending (`\n`, `\r\n` or `\r`).
struct LineTable {
    /// `starts[k]` is the offset of line `k + 1`; the last element is the buffer's length.
    private(set) var starts: [Int]
    let count: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        count = buffer.count
        var starts: [Int] = [0]
        starts.reserveCapacity(count / 40 + 4)
        if let base = buffer.baseAddress, RawBytes.first(13, in: base, count: count) == nil {
            // No carriage returns (the usual case): let memchr find the line feeds.
            var from = 0
            while from < count, let hit = RawBytes.first(10, in: base + from, count: count - from) {
                let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                starts.append(offset + 1)
                from = offset + 1
            }
            if starts.last != count { starts.append(count) }
            self.starts = starts
            return
        }
        var index = 0
        while index < count {
            let byte = buffer[index]
            if byte == 10 {
                starts.append(index + 1)
            } else if byte == 13 {
                if index + 1 < count, buffer[index + 1] == 10 { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        if starts.last != count { starts.append(count) }
        self.starts = starts
    }

    /// The number of lines (a final line without line ending counts).
    var lineCount: Int { starts.count - 1 }

    /// The offset of the first byte of 1-based `line`, clamped to the buffer.
    func start(of line: Int) -> Int {
        starts[min(max(line - 1, 0), starts.count - 1)]
    }

    /// The offset just past `line`'s line ending.
    func next(after line: Int) -> Int {
        starts[min(max(line, 0), starts.count - 1)]
    }

    /// The offset of `line`'s line ending (or of the end of the buffer).
    func contentEnd(of line: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
        let lineStart = start(of: line)
        var end = next(after: line)
        if end > lineStart, buffer[end - 1] == 10 { end -= 1 }
        if end > lineStart, buffer[end - 1] == 13 { end -= 1 }
        return end
    }

    /// Whether the buffer holds a NUL byte.
    static func containsNul(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        return RawBytes.first(0, in: base, count: buffer.count) != nil
    }

    /// The 1-based line containing `offset`, searching near `hint` first.
    func line(containing offset: Int, hint: Int) -> Int {
        let index = hint - 1
        if index >= 0, index + 1 < starts.count, starts[index] <= offset {
            if offset < starts[index + 1] { return hint }
            if index + 2 < starts.count, offset < starts[index + 2] { return hint + 1 }
        }
        return line(containing: offset)
    }

    /// The 1-based line containing `offset`.
    func line(containing offset: Int) -> Int {
        var low = 0
        var high = starts.count - 2
        if high < 0 { return 1 }
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The location of the byte at `offset`.
    func location(of offset: Int) -> SourceLocation {
        let line = line(containing: offset)
        return SourceLocation(line: line, column: offset - start(of: line) + 1)
    }
}
