/// The lines of `bytes`, each as the range of the whole line (its line break included) — how the
/// merge code walks a note, keeping every byte it does not change.
func lineRanges(of bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    while start < bytes.count {
        var end = start
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        let next = min(end + 1, bytes.count)
        lines.append(start..<next)
        start = next
    }
    return lines
}
