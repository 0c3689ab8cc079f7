// MARK: - Finding cloze, highlight and wikilink marks

/// The cloze deletions, highlights and wikilinks among the children of one inline container (a
/// paragraph, heading, table cell, emphasis, link…), found in one left-to-right pass.
///
/// The container's children come in order: the text of each text node (``addText(_:)``) and
/// every other node as an opaque item (``addNode(_:)``) — code spans, inline HTML, line breaks,
/// emphasis — so marks inside code are never seen, and a mark may enclose whole nodes
/// (`{{c1::**bold** answer}}`). Marks are matched like cmark matches its delimiters:
/// - `{{cN::` (N a number from 1) opens a cloze; its first `::` starts the hint; `}}` closes
///   the innermost open cloze, leaving the highlights opened inside it unmatched.
/// - `==` (exactly two) closes the innermost open mark when that is a highlight and the byte
///   before is not a space, and otherwise opens one when the byte after is not a space.
/// - `[[target]]` is a wikilink when both brackets are in one text node and nothing between them
///   is a bracket, and `![[target]]` an embed (neither is looked for inside a link).
///
/// Unmatched openers and closers stay text. Every byte is looked at a bounded number of times
/// and every open mark is closed or dropped once, so the pass is linear in the container's size.
struct InlineMarks {
    /// What one mark is.
    enum Kind: Equatable {
        case cloze(number: Int)
        case highlight
    }

    /// An opened cloze or highlight.
    struct Mark {
        var kind: Kind
        /// The opener's bytes in ``InlineMarks/bytes``.
        var opener: Range<Int>
        /// The hint separator's bytes (clozes).
        var separator: Range<Int>?
        /// The closer's bytes, once matched.
        var closer: Range<Int>?
        var isMatched: Bool { closer != nil }
    }

    /// The container's content, in order.
    enum Item {
        /// Text: bytes of ``InlineMarks/bytes``.
        case text(Range<Int>)
        /// The `index`-th opaque child given to ``addNode(_:)``.
        case node(Int)
        /// Where mark `marks[index]` opens, its hint starts, or it closes (when it is matched).
        case open(Int)
        case separator(Int)
        case close(Int)
        /// A wikilink and its source bytes `[[…]]`.
        case wikilink(MarkdownWikilink, Range<Int>)
        /// An embed and its source bytes `![[…]]`.
        case embed(MarkdownWikilink, Range<Int>)
    }

    /// Whether `[[…]]` is looked for (not inside a link: no link may hold another).
    let findsWikilinks: Bool
    /// The text of all text children, one after another.
    private(set) var bytes: [UInt8] = []
    private(set) var items: [Item] = []
    private(set) var marks: [Mark] = []
    /// The open marks, innermost last.
    private var open: [Int] = []
    private var openClozes = 0

    init(findsWikilinks: Bool) {
        self.findsWikilinks = findsWikilinks
    }

    /// Whether a cloze or highlight is open (so an autolink may need to end early; see ``cut(in:)``).
    var isInsideMark: Bool { !open.isEmpty }

    /// Adds an opaque child.
    mutating func addNode(_ index: Int) {
        items.append(.node(index))
    }

    /// Where a link's text `text` should end so that the closer of an open mark it swallowed
    /// is seen: the autolink extension runs a URL to the next space, `}}` and `==` included
    /// (`{{c1::see http://a.example}}`). Nil when no open mark's closer is in it.
    func cut(in text: [UInt8]) -> Int? {
        guard let top = open.last else { return nil }
        var index = 1
        while index + 1 < text.count {
            let pair = (text[index], text[index + 1])
            if openClozes > 0, pair == (0x7D, 0x7D) { return index }  // }}
            if case .cloze = marks[top].kind, marks[top].separator == nil, pair == (0x3A, 0x3A) { return index }  // ::
            if marks[top].kind == .highlight, pair == (0x3D, 0x3D) { return index }  // ==
            index += 1
        }
        return nil
    }

    /// Adds the text of a text child and finds the marks in it.
    mutating func addText(_ text: UnsafeBufferPointer<UInt8>) {
        let base = bytes.count
        bytes.append(contentsOf: text)
        let end = bytes.count
        var plain = base
        var i = base
        // No `]]` (nor any bracket) follows once a search for one has reached the end.
        var wikilinksLeft = findsWikilinks
        while i < end {
            let taken: Int?
            switch bytes[i] {
            case 0x7B:  // {
                taken = openCloze(at: i, end: end, plain: plain)
            case 0x7D:  // }
                taken = closeCloze(at: i, end: end, plain: plain)
            case 0x3A:  // :
                taken = separateCloze(at: i, end: end, plain: plain)
            case 0x3D:  // =
                let run = equalsRun(at: i, end: end, base: base, plain: plain)
                if run.isMark { plain = run.end }
                i = run.end
                continue
            case 0x5B:  // [
                taken = wikilink(at: i, end: end, base: base, plain: plain, searching: &wikilinksLeft)
            case 0x21:  // !
                taken = i + 1 < end && bytes[i + 1] == 0x5B
                    ? wikilink(at: i + 1, end: end, base: base, plain: plain, searching: &wikilinksLeft, embed: true) : nil
            default:
                taken = nil
            }
            if let next = taken {
                i = next
                plain = next
            } else {
                i += 1
            }
        }
        addPlain(from: plain, to: end)
    }

    /// Adds the text from `plain` to `position`, if any, as a text item.
    private mutating func addPlain(from plain: Int, to position: Int) {
        if position > plain { items.append(.text(plain..<position)) }
    }

    /// Opens a cloze at a `{{cN::` at `i`; returns the offset after it, or nil when there is none.
    private mutating func openCloze(at i: Int, end: Int, plain: Int) -> Int? {
        guard let (number, length) = clozeOpener(at: i, end: end) else { return nil }
        addPlain(from: plain, to: i)
        open.append(marks.count)
        openClozes += 1
        items.append(.open(marks.count))
        marks.append(Mark(kind: .cloze(number: number), opener: i..<(i + length)))
        return i + length
    }

    /// Closes the innermost open cloze at a `}}` at `i`; returns the offset after it, or nil when
    /// there is no `}}` or no open cloze.
    private mutating func closeCloze(at i: Int, end: Int, plain: Int) -> Int? {
        guard openClozes > 0, i + 1 < end, bytes[i + 1] == 0x7D else { return nil }
        addPlain(from: plain, to: i)
        // Marks opened inside the cloze and still open stay text.
        while let top = open.popLast() {
            if case .cloze = marks[top].kind {
                openClozes -= 1
                marks[top].closer = i..<(i + 2)
                items.append(.close(top))
                break
            }
        }
        return i + 2
    }

    /// Starts the hint of the innermost open mark at a `::` at `i`, when that mark is a cloze
    /// without one; returns the offset after it, or nil.
    private mutating func separateCloze(at i: Int, end: Int, plain: Int) -> Int? {
        guard let top = open.last, case .cloze = marks[top].kind, marks[top].separator == nil,
              i + 1 < end, bytes[i + 1] == 0x3A else { return nil }
        addPlain(from: plain, to: i)
        marks[top].separator = i..<(i + 2)
        items.append(.separator(top))
        return i + 2
    }

    /// The run of `=` at `i`: when it is exactly `==`, it closes the innermost open highlight or
    /// opens one (``InlineMarks`` says when). Returns the run's end and whether it was a mark.
    private mutating func equalsRun(at i: Int, end: Int, base: Int, plain: Int) -> (end: Int, isMark: Bool) {
        var run = i
        while run < end, bytes[run] == 0x3D { run += 1 }
        guard run - i == 2 else { return (run, false) }
        let before = i > base ? bytes[i - 1] : nil
        let after = run < end ? bytes[run] : nil
        if let top = open.last, marks[top].kind == .highlight, !Self.isSpace(before) {
            addPlain(from: plain, to: i)
            open.removeLast()
            marks[top].closer = i..<run
            items.append(.close(top))
            return (run, true)
        }
        if !Self.isSpace(after) {
            addPlain(from: plain, to: i)
            open.append(marks.count)
            items.append(.open(marks.count))
            marks.append(Mark(kind: .highlight, opener: i..<run))
            return (run, true)
        }
        return (run, false)
    }

    /// Adds the wikilink `[[…]]` at `i`, if one is there; returns the offset after it, or nil.
    /// Clears `searching` once a search has found no bracket up to the text's end.
    private mutating func wikilink(at i: Int, end: Int, base: Int, plain: Int, searching: inout Bool, embed: Bool = false) -> Int? {
        guard searching, i + 1 < end, bytes[i + 1] == 0x5B, embed || i == base || bytes[i - 1] != 0x21 else { return nil }
        var close = i + 2
        while close < end, bytes[close] != 0x5B, bytes[close] != 0x5D { close += 1 }
        if close == end { searching = false }
        guard close + 1 < end, bytes[close] == 0x5D, bytes[close + 1] == 0x5D,
              let link = MarkdownWikilink(between: bytes[(i + 2)..<close]) else { return nil }
        addPlain(from: plain, to: embed ? i - 1 : i)
        items.append(embed ? .embed(link, (i - 1)..<(close + 2)) : .wikilink(link, i..<(close + 2)))
        return close + 2
    }

    /// The cloze number and opener length of a `{{cN::` at `i`, if there is one.
    private func clozeOpener(at i: Int, end: Int) -> (number: Int, length: Int)? {
        guard i + 2 < end, bytes[i + 1] == 0x7B, bytes[i + 2] == UInt8(ascii: "c") else { return nil }
        var digit = i + 3
        var number = 0
        while digit < end, digit - (i + 3) < 9, bytes[digit] >= 0x30, bytes[digit] <= 0x39 {
            number = number * 10 + Int(bytes[digit] - 0x30)
            digit += 1
        }
        guard digit > i + 3, number > 0, digit + 1 < end, bytes[digit] == 0x3A, bytes[digit + 1] == 0x3A else {
            return nil
        }
        return (number, digit + 2 - i)
    }

    private static func isSpace(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte == 32 || byte == 9 || byte == 10 || byte == 13
    }
}
