import QuireSupport
/// A fast, exact reader for the front matter most notes have: top-level `key: value` lines whose
/// values are simple plain scalars, simple double-quoted strings, or lists of such scalars, in
/// flow or block form:
///
/// ```yaml
/// title: "Cell biology"
/// deck: Biology/Cells
/// tags: [biology, exam]
/// aliases:
///   - "the cell"
///   - cytology
/// created: 2026-01-02
/// ```
///
/// It gives the nodes and marks libyaml would give, without libyaml. Scalars may hold non-ASCII
/// text (printable scalars that are not line breaks); keys are ASCII. Anything outside that narrow
/// shape — tabs, carriage returns, comments, other indentation, nested collections, anchors, tags,
/// escapes, single quotes, indicator characters, trailing spaces, keys longer than libyaml reads —
/// makes it give up, and the whole front matter goes through libyaml. It never reports an error:
/// text libyaml would refuse is never of its shape. Tests and a fuzz target compare both paths.
enum SimpleMappingReader {
    /// Reads `yaml` (its indices are file offsets; `base` marks its first byte, at column 1), or
    /// returns nil when it is not of the simple shape.
    ///
    /// - Parameter placeholders: the key offsets whose value was blanked out for a
    ///   ``FlowLineBlock``; such a key may have an empty value, returned as an empty plain scalar
    ///   for the caller to replace.
    static func read(_ yaml: ArraySlice<UInt8>, base: YAMLMark, placeholders: [Int]) -> YAMLMapping? {
        guard base.column == 1 else { return nil }
        return yaml.withUnsafeBufferPointer { buffer -> YAMLMapping? in
            var reader = Reader(bytes: buffer, origin: yaml.startIndex, firstLine: base.line)
            return reader.mapping(placeholders: placeholders)
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The file offset of `bytes[0]`.
        let origin: Int
        let firstLine: Int
        var lineStart = 0
        var line = 0

        init(bytes: UnsafeBufferPointer<UInt8>, origin: Int, firstLine: Int) {
            self.bytes = bytes
            self.origin = origin
            self.firstLine = firstLine
        }

        func mark(_ i: Int) -> YAMLMark {
            YAMLMark(offset: origin + i, line: firstLine + line, column: i - lineStart + 1)
        }

        mutating func mapping(placeholders: [Int]) -> YAMLMapping? {
            var entries: [(key: YAMLScalar, value: YAMLNode)] = []
            entries.reserveCapacity(16)
            let n = bytes.count
            var i = 0
            // A key with nothing after its colon, waiting for the lines of a block list.
            var pendingList: (key: YAMLScalar, lineStart: Int)?
            var listItems: [YAMLNode] = []
            var listStart: YAMLMark?
            var listIndent: Int?
            /// Ends the pending key's list at `end` (the next key, or the end of the stream).
            func closeList(at end: YAMLMark) -> Bool {
                guard let pending = pendingList.take() else { return true }
                guard let start = listStart else {
                    // No list followed: only a blanked-out scheduling block may leave a key empty.
                    guard placeholders.contains(origin + pending.lineStart) else { return false }
                    entries.append((pending.key, .scalar(YAMLScalar(value: "", style: .plain, start: pending.key.end,
                                                                    end: pending.key.end))))
                    return true
                }
                entries.append((pending.key, .sequence(YAMLSequence(items: listItems, isFlow: false, start: start, end: end))))
                listItems = []
                listStart = nil
                return true
            }
            while i < n {
                lineStart = i
                var end = i
                while end < n, bytes[end] != 0x0A { end += 1 }
                if isBlank(i, end) {
                    // Blank (or a blanked scheduling line): skipped.
                } else if pendingList != nil, bytes[i] == 0x20 {
                    guard let item = listItem(i, end, indent: listIndent) else { return nil }
                    if listStart == nil { listStart = mark(item.dash) }
                    listIndent = item.dash - i
                    listItems.append(item.value)
                } else {
                    guard closeList(at: mark(i)) else { return nil }
                    // Key and value are moved into place: copying a scalar retains each of its strings.
                    guard let (key, value) = lineEntry(i, end) else { return nil }
                    if let value {
                        entries.append((key: consume key, value: consume value))
                    } else {
                        pendingList = (consume key, i)
                        listIndent = nil
                    }
                }
                i = end + 1
                line += 1
            }
            // libyaml ends the root mapping, and a list still open, at the end of the stream: column 1
            // of the line after a last line break, else just after the last line's last byte.
            if bytes.last == 0x0A || n == 0 { lineStart = n } else { line -= 1 }
            let streamEnd = mark(n)
            guard closeList(at: streamEnd), let first = entries.first else { return nil }
            return YAMLMapping(entries: entries, isFlow: false, start: first.key.start, end: streamEnd)
        }

        /// `<spaces>- item`, with as many spaces as the list's first item (at least one); the item
        /// a simple plain or double-quoted scalar.
        func listItem(_ start: Int, _ end: Int, indent: Int?) -> (dash: Int, value: YAMLNode)? {
            var k = start
            while k < end, bytes[k] == 0x20 { k += 1 }
            guard k > start, indent == nil || k - start == indent, k + 2 < end, bytes[k] == 0x2D,
                  bytes[k + 1] == 0x20, bytes[k + 2] != 0x20, bytes[end - 1] != 0x20,
                  bytes[k + 2] != 0x5B else { return nil }
            guard let value = value(k + 2, end) else { return nil }
            return (k, value)
        }

        /// A line of spaces only (a line of a ``FlowLineBlock`` blanked out).
        func isBlank(_ start: Int, _ end: Int) -> Bool {
            for k in start..<end where bytes[k] != 0x20 { return false }
            return true
        }

        /// `key: value` at column 1, or nil; a nil value for `key:` with nothing after it.
        func lineEntry(_ start: Int, _ end: Int) -> (key: YAMLScalar, value: YAMLNode?)? {
            guard start < end, isKeyByte(bytes[start]), bytes[start] != 0x2D else { return nil }
            var k = start
            while k < end, isKeyByte(bytes[k]) { k += 1 }
            guard k < end, bytes[k] == 0x3A, k - start <= YAMLParser.maximumSimpleKeyLength else { return nil }
            let key = YAMLScalar(value: text(start, k), style: .plain, start: mark(start), end: mark(k))
            let afterColon = k + 1
            if afterColon == end { return (key, nil) }
            guard bytes[afterColon] == 0x20, afterColon + 1 < end, bytes[afterColon + 1] != 0x20,
                  bytes[end - 1] != 0x20 else { return nil }
            guard let value = value(afterColon + 1, end) else { return nil }
            return (key, value)
        }

        func value(_ start: Int, _ end: Int) -> YAMLNode? {
            switch bytes[start] {
            case 0x22:  // "text"
                guard let close = closingQuote(start, end), close == end - 1 else { return nil }
                return .scalar(quoted(start, close))
            case 0x5B:  // [a, b]
                guard bytes[end - 1] == 0x5D else { return nil }
                var items: [YAMLNode] = []
                var k = start + 1
                while k < end - 1, bytes[k] == 0x20 { k += 1 }
                if k == end - 1 {
                    return .sequence(YAMLSequence(items: [], isFlow: true, start: mark(start), end: mark(end)))
                }
                while true {
                    let itemStart = k
                    if bytes[k] == 0x22 {
                        guard let close = closingQuote(k, end - 1) else { return nil }
                        items.append(.scalar(quoted(k, close)))
                        k = close + 1
                    } else {
                        while k < end - 1, bytes[k] != 0x2C, bytes[k] != 0x20 { k += 1 }
                        guard k > itemStart, isPlain(itemStart, k, inFlow: true) else { return nil }
                        items.append(.scalar(YAMLScalar(value: text(itemStart, k), style: .plain,
                                                        start: mark(itemStart), end: mark(k))))
                    }
                    while k < end - 1, bytes[k] == 0x20 { k += 1 }
                    if k == end - 1 { break }
                    guard bytes[k] == 0x2C else { return nil }
                    k += 1
                    while k < end - 1, bytes[k] == 0x20 { k += 1 }
                    guard k < end - 1 else { return nil }
                }
                return .sequence(YAMLSequence(items: items, isFlow: true, start: mark(start), end: mark(end)))
            default:
                guard isPlain(start, end, inFlow: false) else { return nil }
                return .scalar(YAMLScalar(value: text(start, end), style: .plain, start: mark(start), end: mark(end)))
            }
        }

        /// The closing quote of a double-quoted string opened at `open`, before `limit`, when
        /// everything between is printable ASCII with no `\` (escapes are left to libyaml).
        func closingQuote(_ open: Int, _ limit: Int) -> Int? {
            var k = open + 1
            while k < limit {
                let b = bytes[k]
                if b == 0x22 { return k }
                if b >= 0x80 {
                    guard let length = plainScalarLength(at: k, limit) else { return nil }
                    k += length
                    continue
                }
                guard b >= 0x20, b < 0x7F, b != 0x5C else { return nil }
                k += 1
            }
            return nil
        }

        /// The length of the well-formed UTF-8 sequence at `k` (before `end`) when its scalar is
        /// one libyaml takes as plain content: printable (U+00A0 and up, but not U+FEFF, U+FFFE or
        /// U+FFFF) and not a line break (U+2028, U+2029). Else nil.
        func plainScalarLength(at k: Int, _ end: Int) -> Int? {
            guard let (v, length) = UTF8Scalar.decode(bytes, at: k, end: end), v >= 0xA0,
                  v != 0x2028, v != 0x2029, v != 0xFEFF, v != 0xFFFE, v != 0xFFFF else { return nil }
            return length
        }

        func quoted(_ open: Int, _ close: Int) -> YAMLScalar {
            YAMLScalar(value: text(open + 1, close), style: .doubleQuoted, start: mark(open), end: mark(close + 1))
        }

        /// A plain scalar that needs no YAML rule beyond "ends at the line's end": letters,
        /// digits and a few punctuation characters, single spaces inside (not in a flow list),
        /// and `:` only before a character that is not a space.
        func isPlain(_ start: Int, _ end: Int, inFlow: Bool) -> Bool {
            guard start < end, isPlainStart(bytes[start]) || bytes[start] >= 0x80 else { return false }
            var previousSpace = false
            var k = start
            while k < end {
                let b = bytes[k]
                if b >= 0x80 {
                    guard let length = plainScalarLength(at: k, end) else { return false }
                    previousSpace = false
                    k += length
                    continue
                }
                defer { k += 1 }
                if b == 0x20 {
                    if inFlow || previousSpace { return false }
                    previousSpace = true
                    continue
                }
                previousSpace = false
                if b == 0x3A {
                    guard !inFlow, k + 1 < end, bytes[k + 1] != 0x20 else { return false }
                    continue
                }
                guard isPlainByte(b) else { return false }
            }
            return !previousSpace
        }

        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// Key characters: letters, digits, `_` and `-`.
    @inline(__always) static func isKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
    }

    /// Characters a simple plain scalar may start with: letters, digits, `_`, `.`, `/` and `(`.
    @inline(__always) static func isPlainStart(_ b: UInt8) -> Bool {
        isKeyByte(b) && b != 0x2D || b == 0x2E || b == 0x2F || b == 0x28
    }

    /// Characters inside a simple plain scalar: letters, digits and `_ - . / ( ) + ' ; = ! ? $ ~ ^`.
    /// Not the flow indicators `, [ ] { }`, not `#`, `&`, `*`, `|`, `>`, `"`, `%`, `@`, `` ` ``, `\`.
    @inline(__always) static func isPlainByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x5F, 0x2D, 0x2E, 0x2F, 0x28, 0x29, 0x2B, 0x27, 0x3B, 0x3D, 0x21, 0x3F, 0x24, 0x7E, 0x5E: true
        default: false
        }
    }
}
