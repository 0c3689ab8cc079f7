import QuireSupport

/// Shapes of Markdown whose cost inside cmark-gfm grows faster than their size, found before cmark
/// sees them, so that any note costs time and memory linear in its length or is refused with a
/// location.
///
/// - Nesting: each block quote or list item open on a line costs cmark a node and its parser
///   state, many times the bytes of its marker, and a failed allocation aborts the process.
/// - Table columns: cmark-gfm's table extension takes time quadratic in a row's cell count.
///
/// What such notes cost without the limits is in docs/BENCHMARKS.md.
public enum MarkdownLimits {
    /// The most block quotes and list items one line may open.
    public static let maximumNesting = 100
    /// The most `|` on one line (a table row's cells).
    public static let maximumPipesPerLine = 1000

    /// The first place in `text` past a limit, with a message, or nil. One pass over the bytes.
    public static func firstExcess(in text: UnsafeBufferPointer<UInt8>) -> (offset: Int, message: String)? {
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        // Pipes: only a text with that many in all can have that many on a line.
        var pipes = 0
        var p = 0
        while p < count, let hit = RawBytes.first(UInt8(ascii: "|"), in: base + p, count: count - p) {
            pipes += 1
            p = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        let checkPipes = pipes > maximumPipesPerLine
        var start = 0
        while start < count {
            let end: Int
            if let hit = RawBytes.first(0x0A, in: base + start, count: count - start) {
                end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            } else {
                end = count
            }
            if nesting(base, from: start, to: end) > maximumNesting {
                return (start, "a line nests more than \(maximumNesting) block quotes and list items")
            }
            if checkPipes {
                var n = 0
                for i in start..<end where base[i] == UInt8(ascii: "|") { n += 1 }
                if n > maximumPipesPerLine {
                    return (start, "a line holds more than \(maximumPipesPerLine) '|' (table cells)")
                }
            }
            start = end + 1
        }
        return nil
    }

    /// How many block quote and list item markers open the line `base[start..<end]`.
    private static func nesting(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var depth = 0
        var i = start
        while i < end {
            let b = base[i]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                i += 1
            case UInt8(ascii: ">"):
                depth += 1
                i += 1
            case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"):
                // A bullet only when a space, a tab or the line's end follows.
                guard i + 1 == end || base[i + 1] == UInt8(ascii: " ") || base[i + 1] == UInt8(ascii: "\t") else { return depth }
                depth += 1
                i += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var j = i
                while j < end, j - i < 9, base[j] >= UInt8(ascii: "0"), base[j] <= UInt8(ascii: "9") { j += 1 }
                guard j < end, base[j] == UInt8(ascii: ".") || base[j] == UInt8(ascii: ")"),
                      j + 1 == end || base[j + 1] == UInt8(ascii: " ") || base[j + 1] == UInt8(ascii: "\t") else { return depth }
                depth += 1
                i = j + 1
            default:
                return depth
            }
        }
        return depth
    }
}
