/// A fast, exact reader for the shape Quire writes most: a top-level key holding a block mapping
/// whose entries are one-line flow mappings of simple plain scalars —
///
/// ```yaml
/// quire:
///   7k2m9xq4v1ab: {fp: 3c9e0f51aa72d418, state: review, due: 2026-11-25T09:00:00Z, reps: 4, lapses: 0}
///
///   q8d3c1f7hz0n: {fp: 91a0be3370c4d2e6, state: new}
/// ```
///
/// Lines of spaces only (a CR at the end allowed) may sit between the entries.
///
/// Such blocks are read here, without libyaml, into the nodes and marks libyaml would give; the
/// rest of the front matter still goes through libyaml, with the block's entry lines blanked out
/// (offsets, lines and columns unchanged). Anything outside the narrow shape — quotes, comments,
/// tabs, nested collections, lines of other whitespace inside the block, odd spacing, keys longer than libyaml
/// reads, a line after the block that libyaml could read otherwise — leaves the whole key to
/// libyaml, so the fast path never changes what a front matter means. Tests and a fuzz target
/// compare both paths.
struct FlowLineBlock {
    /// The top-level key's offset in the text.
    var keyOffset: Int
    /// The byte ranges of the entry lines, without their line breaks.
    var entryLines: [Range<Int>]
    /// The block mapping, with file marks.
    var mapping: YAMLMapping

    /// Finds every such block in the YAML text between the fences.
    ///
    /// - Parameters:
    ///   - yaml: the text; its indices are file offsets.
    ///   - base: the file mark of the text's first byte (at a line start).
    static func find(in yaml: ArraySlice<UInt8>, base: YAMLMark) -> [FlowLineBlock] {
        var blocks: [FlowLineBlock] = []
        var lines = LineCursor(yaml, base: base)
        while let line = lines.next() {
            guard let key = topLevelKey(yaml, line.range) else { continue }
            var entries: [(YAMLScalar, YAMLNode)] = []
            var ranges: [Range<Int>] = []
            var indent: Int?
            var ok = true
            var after = lines
            while var entryLine = after.peek() {
                if isBlank(yaml, entryLine.range) {
                    // Blank lines between entries (Quire's layout) are the block's when an entry follows.
                    var skip = after
                    while let blank = skip.peek(), isBlank(yaml, blank.range) { _ = skip.next() }
                    guard let next = skip.peek(), let first = next.range.first, yaml[first] == 0x20 else { break }
                    after = skip
                    entryLine = next
                }
                guard let first = entryLine.range.first, yaml[first] == 0x20 else { break }
                guard let (k, v, n) = entry(yaml, entryLine, indent: indent) else { ok = false; break }
                indent = n
                entries.append((k, v))
                ranges.append(entryLine.range)
                _ = after.next()
            }
            guard ok, !entries.isEmpty, let firstKey = entries.first?.0 else { continue }
            // What follows must be the next top-level key or the end (blank and comment lines
            // between them are fine): anything indented would belong to this key in YAML.
            var probe = after
            var end: YAMLMark?
            while let next = probe.next() {
                let content = yaml[next.range]
                guard let first = content.firstIndex(where: { $0 != 0x20 && $0 != 0x0D }) else { continue }
                if yaml[first] == UInt8(ascii: "#") {
                    // libyaml ends a comment at any line break, and a key may follow it.
                    guard !hasInnerLineBreak(yaml, next.range) else { ok = false; break }
                    continue
                }
                // A tab, a BOM or a Unicode line break there would not start the next token.
                guard first == next.range.lowerBound, yaml[first] > 0x20, yaml[first] < 0x7F else { ok = false; break }
                end = next.mark(at: first)
                break
            }
            guard ok else { continue }
            let streamEnd = end ?? lines.endMark()
            let mapping = YAMLMapping(entries: entries, isFlow: false, start: firstKey.start, end: streamEnd)
            blocks.append(FlowLineBlock(keyOffset: key, entryLines: ranges, mapping: mapping))
            lines = after
        }
        return blocks
    }

    /// The offset of `key:` when the line is exactly a simple key at column 1 and a colon
    /// (trailing spaces and a CR allowed).
    private static func topLevelKey(_ yaml: ArraySlice<UInt8>, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        while i < range.upperBound, isKeyByte(yaml[i]) { i += 1 }
        guard i > range.lowerBound, i < range.upperBound, yaml[i] == UInt8(ascii: ":"),
              i - range.lowerBound <= YAMLParser.maximumSimpleKeyLength else { return nil }
        i += 1
        while i < range.upperBound, yaml[i] == 0x20 { i += 1 }
        if i < range.upperBound, yaml[i] == 0x0D, i + 1 == range.upperBound { i += 1 }
        return i == range.upperBound ? range.lowerBound : nil
    }

    /// Reads `<indent>key: {k: v, k: v}` exactly.
    static func entry(_ yaml: ArraySlice<UInt8>, _ line: LineCursor.Line, indent: Int?)
        -> (YAMLScalar, YAMLNode, Int)? {
        var i = line.range.lowerBound
        var end = line.range.upperBound
        if end > i, yaml[end - 1] == 0x0D { end -= 1 }
        while end > i, yaml[end - 1] == 0x20 { end -= 1 }
        while i < end, yaml[i] == 0x20 { i += 1 }
        let n = i - line.range.lowerBound
        guard n > 0, indent == nil || indent == n else { return nil }
        guard let key = token(yaml, &i, end, key: true, line: line) else { return nil }
        guard i + 2 < end, yaml[i] == UInt8(ascii: ":"), yaml[i + 1] == 0x20, yaml[i + 2] == UInt8(ascii: "{") else { return nil }
        let open = i + 2
        i = open + 1
        var pairs: [(key: YAMLScalar, value: YAMLNode)] = []
        while true {
            guard let k = token(yaml, &i, end, key: true, line: line) else { return nil }
            guard i + 1 < end, yaml[i] == UInt8(ascii: ":"), yaml[i + 1] == 0x20 else { return nil }
            i += 2
            guard let v = token(yaml, &i, end, key: false, line: line) else { return nil }
            pairs.append((k, .scalar(v)))
            guard i < end else { return nil }
            if yaml[i] == UInt8(ascii: "}") { i += 1; break }
            guard i + 1 < end, yaml[i] == UInt8(ascii: ","), yaml[i + 1] == 0x20 else { return nil }
            i += 2
        }
        guard i == end else { return nil }
        let flow = YAMLMapping(entries: pairs, isFlow: true, start: line.mark(at: open), end: line.mark(at: i))
        return (key, .mapping(flow), n)
    }

    /// A plain scalar made only of bytes that mean nothing special to YAML here.
    private static func token(_ yaml: ArraySlice<UInt8>, _ i: inout Int, _ end: Int, key: Bool,
                              line: LineCursor.Line) -> YAMLScalar? {
        let start = i
        while i < end, key ? isKeyByte(yaml[i]) : isValueByte(yaml[i]) {
            // In a value, `:` followed by a space would end it; keys stop at any `:`.
            if !key, yaml[i] == UInt8(ascii: ":"), i + 1 < end, yaml[i + 1] == 0x20 { break }
            i += 1
        }
        guard i > start, !key || i - start <= YAMLParser.maximumSimpleKeyLength else { return nil }
        let first = yaml[start], last = yaml[i - 1]
        // Leading indicators and a trailing colon change the meaning; leave those to libyaml.
        if first == UInt8(ascii: ":") || last == UInt8(ascii: ":") || (first == UInt8(ascii: "-") && i - start == 1) { return nil }
        if !key, first == UInt8(ascii: "."), i - start >= 3 { return nil }
        let text = String(decoding: yaml[start..<i], as: UTF8.self)
        return YAMLScalar(value: text, style: .plain, start: line.mark(at: start), end: line.mark(at: i))
    }

    /// A line of spaces only, with maybe a CR at its end.
    private static func isBlank(_ yaml: ArraySlice<UInt8>, _ range: Range<Int>) -> Bool {
        var end = range.upperBound
        if end > range.lowerBound, yaml[end - 1] == 0x0D { end -= 1 }
        return yaml[range.lowerBound..<end].allSatisfy { $0 == 0x20 }
    }

    /// Whether a line holds a line break of libyaml's other than a last CR: a CR inside, or a
    /// NEL, LS or PS (U+0085, U+2028, U+2029).
    private static func hasInnerLineBreak(_ yaml: ArraySlice<UInt8>, _ range: Range<Int>) -> Bool {
        for i in range {
            switch yaml[i] {
            case 0x0D where i + 1 < range.upperBound: return true
            case 0x85 where i > range.lowerBound && yaml[i - 1] == 0xC2: return true
            case 0xA8...0xA9 where i >= range.lowerBound + 2 && yaml[i - 1] == 0x80 && yaml[i - 2] == 0xE2: return true
            default: continue
            }
        }
        return false
    }

    private static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45
    }

    private static func isValueByte(_ b: UInt8) -> Bool {
        isKeyByte(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: ":") || b == UInt8(ascii: "+")
    }
}

/// Walks the lines of a text, knowing each line's file mark.
struct LineCursor {
    struct Line {
        /// The line's bytes, without its `\n`.
        var range: Range<Int>
        var number: Int

        /// The file mark of an offset on this line.
        func mark(at offset: Int) -> YAMLMark {
            YAMLMark(offset: offset, line: number, column: offset - range.lowerBound + 1)
        }
    }

    private let text: ArraySlice<UInt8>
    private var position: Int
    private var number: Int

    init(_ text: ArraySlice<UInt8>, base: YAMLMark) {
        self.text = text
        position = text.startIndex
        number = base.line
    }

    /// The next line without moving.
    func peek() -> Line? {
        var copy = self
        return copy.next()
    }

    mutating func next() -> Line? {
        guard position < text.endIndex else { return nil }
        let end = text[position...].firstIndex(of: 0x0A) ?? text.endIndex
        let line = Line(range: position..<end, number: number)
        position = end < text.endIndex ? end + 1 : end
        number += 1
        return line
    }

    /// The mark of the end of the text once every line has been read: column 1 of the line after
    /// the last line break, where libyaml puts the end of the stream.
    func endMark() -> YAMLMark {
        var copy = self
        while copy.next() != nil {}
        return YAMLMark(offset: text.endIndex, line: copy.number, column: text.endIndex - copy.position + 1)
    }
}
