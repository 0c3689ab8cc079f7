/// The text of one paragraph as card recognition sees it: the source lines with container prefixes
/// (`> `, list indentation) removed, joined with `\n`, plus a masked copy in which inline code and
/// inline HTML are blanked out so that nothing inside them is taken for card syntax.
struct ParagraphText {
    /// The content bytes, lines joined with `\n`.
    var raw: [UInt8]
    /// Same length as `raw`; bytes inside inline code or HTML replaced by ``maskByte``.
    var masked: [UInt8] { hasMasks ? maskedBytes : raw }
    /// ``masked`` when some bytes are masked (most paragraphs have none, and share `raw`).
    private var maskedBytes: [UInt8]
    private var hasMasks = false
    /// Offset in `raw` where each line starts.
    var lineStarts: [Int]
    /// The file line of each line.
    var fileLines: [Int]
    /// The file column (1-based, bytes) where each line's content starts.
    var fileColumns: [Int]

    /// Stands for a masked byte: not white space, not punctuation Quire looks for.
    static let maskByte: UInt8 = 0x1A

    var lineCount: Int { lineStarts.count }

    /// Byte range of line `i` in `raw` (without the joining `\n`).
    func lineRange(_ i: Int) -> Range<Int> {
        let start = lineStarts[i]
        let end = i + 1 < lineStarts.count ? lineStarts[i + 1] - 1 : raw.count
        return start..<end
    }

    /// The file (line, column) of an offset in `raw`.
    func fileLocation(of offset: Int) -> (line: Int, column: Int) {
        var i = lineStarts.count - 1
        while i > 0 && lineStarts[i] > offset { i -= 1 }
        return (fileLines[i], fileColumns[i] + offset - lineStarts[i])
    }

    /// Empty storage, to be filled by ``load(source:first:last:startColumn:masks:)`` again and
    /// again: the walker reuses one value so that paragraphs do not each allocate their buffers.
    init() {
        raw = []
        maskedBytes = []
        lineStarts = []
        fileLines = []
        fileColumns = []
    }

    /// Fills the paragraph text from the file lines `first...last`.
    ///
    /// - Parameters:
    ///   - startColumn: the paragraph's start column on its first line; continuation lines drop up to
    ///     as many bytes of indentation and `>` markers.
    ///   - masks: inclusive byte-offset ranges in the file to blank out, in document order.
    mutating func load(source: SourceText, first: Int, last: Int, startColumn: Int, masks: [ClosedRange<Int>]) {
        raw.removeAll(keepingCapacity: true)
        maskedBytes.removeAll(keepingCapacity: true)
        lineStarts.removeAll(keepingCapacity: true)
        fileLines.removeAll(keepingCapacity: true)
        fileColumns.removeAll(keepingCapacity: true)
        let bytes = source.bytes
        var maskCursor = 0
        var maskedSpans: [Range<Int>] = []
        // Lines past the file's end (a position the parser and the line table disagree on) are
        // not read: a card is never worth a crash.
        for line in max(1, first)...max(max(1, first), min(last, source.lineCount)) where line <= source.lineCount {
            let range = source.lineRange(line)
            var start = range.lowerBound
            if line == first {
                start = min(range.upperBound, start + max(0, startColumn - 1))
            } else {
                var dropped = 0
                while start < range.upperBound, dropped < startColumn - 1,
                      bytes[start] == 32 || bytes[start] == 9 || bytes[start] == 62 {
                    start += 1
                    dropped += 1
                }
            }
            if !lineStarts.isEmpty { raw.append(10) }
            lineStarts.append(raw.count)
            fileLines.append(line)
            fileColumns.append(start - source.lineStarts[line - 1] + 1)
            let rawStart = raw.count
            raw.append(contentsOf: bytes[start..<range.upperBound])
            // Masks come in document order; skip those that end before this line.
            while maskCursor < masks.count, masks[maskCursor].upperBound < start { maskCursor += 1 }
            var k = maskCursor
            while k < masks.count, masks[k].lowerBound < range.upperBound {
                let lo = max(masks[k].lowerBound, start), hi = min(masks[k].upperBound + 1, range.upperBound)
                if lo < hi {
                    let span = (rawStart + lo - start)..<(rawStart + hi - start)
                    if Self.isSchedulingComment(bytes, at: masks[k].lowerBound) {
                        // The Obsidian plugin's scheduling comment is no part of a card: blanked.
                        for offset in span { raw[offset] = 32 }
                    } else {
                        maskedSpans.append(span)
                    }
                }
                k += 1
            }
        }
        hasMasks = !maskedSpans.isEmpty
        guard hasMasks else { return }
        maskedBytes.append(contentsOf: raw)
        for span in maskedSpans {
            for offset in span { maskedBytes[offset] = Self.maskByte }
        }
    }

    /// Fills the paragraph text from a block's text (a fenced card's cloze, FORMAT.md §3.10): no
    /// masks; line `i` of the text is file line `firstLine + i`, at `column`.
    mutating func load(text: [UInt8], firstLine: Int, column: Int) {
        raw = text
        maskedBytes.removeAll(keepingCapacity: true)
        hasMasks = false
        lineStarts = [0]
        for (i, b) in text.enumerated() where b == 10 { lineStarts.append(i + 1) }
        fileLines = lineStarts.indices.map { firstLine + $0 }
        fileColumns = [Int](repeating: column, count: lineStarts.count)
    }

    /// Whether the inline HTML at `offset` is an Obsidian spaced-repetition scheduling comment
    /// (`<!--SR:!2021-08-11,4,270-->`).
    static func isSchedulingComment(_ bytes: [UInt8], at offset: Int) -> Bool {
        let marker: [UInt8] = Array("<!--SR:".utf8)
        guard offset >= 0, offset + marker.count <= bytes.count else { return false }
        return bytes[offset..<(offset + marker.count)].elementsEqual(marker)
    }

    /// Decodes a byte range of `raw` as a string.
    func string(_ range: Range<Int>) -> String { String(decoding: raw[range], as: UTF8.self) }
}

// MARK: - Byte helpers

@inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 }

/// The range without leading and trailing spaces, tabs and line feeds.
func trimmed<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Int>) -> Range<Int>
    where Bytes.Index == Int {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi, isSpace(bytes[lo]) || bytes[lo] == 10 { lo += 1 }
    while hi > lo, isSpace(bytes[hi - 1]) || bytes[hi - 1] == 10 { hi -= 1 }
    return lo..<hi
}

/// Whether `bytes[range]` starts with `marker` (ASCII letters compared case-insensitively) after
/// optional spaces; returns the offset just after the marker and following spaces.
func afterMarker(_ bytes: [UInt8], _ range: Range<Int>, _ marker: StaticString) -> Int? {
    var i = range.lowerBound
    while i < range.upperBound, isSpace(bytes[i]) { i += 1 }
    let matched = marker.withUTF8Buffer { marker -> Bool in
        for m in marker {
            guard i < range.upperBound else { return false }
            let b = bytes[i]
            let folded = (b >= 97 && b <= 122) ? b - 32 : b
            guard folded == m else { return false }
            i += 1
        }
        return true
    }
    guard matched else { return nil }
    while i < range.upperBound, isSpace(bytes[i]) { i += 1 }
    return i
}
