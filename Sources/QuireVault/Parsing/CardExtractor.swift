#if canImport(Glibc)
import Glibc
#endif
import QuireMarkdown
import QuireModel

/// What card extraction finds in a note's body.
public struct BodyScan: Sendable {
    /// The cards in document order; those without an explicit ID carry ``CardID/unassigned``
    /// until ``CardMatcher`` gives them theirs.
    public var cards: [Card] = []
    /// Inline `#tags`, in order of appearance, without the `#`.
    public var inlineTags: [String] = []
    /// The text of the first level-1 heading.
    public var firstTitle: String?
    public var diagnostics: [Diagnostic] = []
}

/// Finds cards, inline tags and the title by walking a note's Markdown tree (FORMAT.md §3).
///
/// Recognition works on paragraphs only, on their source lines with inline code and inline HTML
/// masked out, so nothing in code or HTML ever becomes a card.
struct CardExtractor: MarkdownWalker {
    let source: SourceText
    let path: String
    private(set) var scan = BodyScan()
    private var headings: [(level: Int, text: String)] = []
    /// `headings` texts, kept ready because every card copies it.
    private var headingPath: [String] = []
    private var frames: [Frame] = []
    /// Reused paragraph buffers.
    private var scratch = ParagraphText()

    /// State of one container (document, block quote, list item…) whose children are being walked.
    private struct Frame {
        var container: Int
        /// A `Q:` paragraph that had no `A:` yet: its card data waits for an `A:` paragraph.
        var pendingQuestion: PendingQuestion?
        /// Index in `scan.cards` of a Q/A card whose answer may absorb following blocks.
        var openAnswer: Int?
    }

    private struct PendingQuestion {
        var front: String
        var firstLine: Int
        var column: Int
    }

    init(source: SourceText, path: String) {
        self.source = source
        self.path = path
    }

    /// Scans a parsed body.
    static func scan(_ document: MarkdownDocument, source: SourceText, path: String) -> BodyScan {
        var walker = CardExtractor(source: source, path: path)
        document.walk(&walker)
        walker.finishAllFrames()
        return walker.scan
    }

    // MARK: - Walking

    mutating func visit(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> MarkdownWalkAction {
        // Blocks directly following a Q/A answer belong to it.
        if var frame = frames.last, node.parent == frame.container {
            if let open = frame.openAnswer {
                switch node.kind {
                case .list, .codeBlock, .table, .blockQuote:
                    absorb(node, into: open)
                    return .skipChildren
                default:
                    frame.openAnswer = nil
                    frames[frames.count - 1] = frame
                }
            }
        }
        switch node.kind {
        case .document, .blockQuote, .list, .item, .footnoteDefinition:
            frames.append(Frame(container: index))
            return .visitChildren
        case .heading:
            closePendingQuestion()
            let text = document.plainText(of: index).trimmingSpaces()
            while let last = headings.last, last.level >= node.headingLevel { headings.removeLast() }
            headings.append((node.headingLevel, text))
            headingPath = headings.map(\.text)
            if node.headingLevel == 1, scan.firstTitle == nil, !text.isEmpty { scan.firstTitle = text }
            return .skipChildren
        case .paragraph:
            paragraph(node, at: index, in: document)
            return .skipChildren
        default:
            return .skipChildren
        }
    }

    mutating func leave(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {
        if let frame = frames.last, frame.container == index {
            closePendingQuestion()
            frames.removeLast()
        }
    }

    mutating func finishAllFrames() {
        while !frames.isEmpty {
            closePendingQuestion()
            frames.removeLast()
        }
    }

    private mutating func closePendingQuestion() {
        guard var frame = frames.last else { return }
        if let pending = frame.pendingQuestion {
            scan.diagnostics.append(Diagnostic(.warning, path: path, line: pending.firstLine, column: pending.column,
                                               message: "question has no answer (expected a line starting with 'A:')"))
        }
        frame.pendingQuestion = nil
        frame.openAnswer = nil
        frames[frames.count - 1] = frame
    }

    private mutating func absorb(_ node: MarkdownNode, into cardIndex: Int) {
        var card = scan.cards[cardIndex]
        let first = node.range.start.line, last = max(node.range.end.line, first)
        let drop = node.range.start.column - 1
        var text: [String] = []
        for line in first...last {
            let range = source.lineRange(line)
            var start = range.lowerBound, dropped = 0
            while start < range.upperBound, dropped < drop,
                  isSpace(source.bytes[start]) || source.bytes[start] == 62 {
                start += 1
                dropped += 1
            }
            text.append(String(decoding: source.bytes[start..<range.upperBound], as: UTF8.self))
        }
        let block = text.joined(separator: "\n")
        card.back += "\n\n" + block
        card.lines = card.lines.lowerBound...max(card.lines.upperBound, last)
        scan.cards[cardIndex] = card
    }

    // MARK: - Paragraphs

    private mutating func paragraph(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {
        // Most prose holds none of the bytes any card syntax or tag needs: skip it cheaply, and
        // later skip each syntax whose marker bytes are absent.
        let markers = syntaxMarkers(node)
        if frames.last?.pendingQuestion == nil, markers.isEmpty { return }
        let masks = inlineMasks(of: index, in: document)
        scratch.load(source: source, first: node.range.start.line, last: node.range.end.line,
                     startColumn: node.range.start.column, masks: masks)
        // Moved out for the card readers (mutating methods of `self` cannot be handed a stored
        // property), and moved back when done so its buffers serve the next paragraph.
        var text = ParagraphText()
        swap(&text, &scratch)
        defer { swap(&text, &scratch) }
        if markers.contains(.hash) { collectTags(text) }

        // An `A:` paragraph answering the question of the paragraph before.
        if let pending = frames.last?.pendingQuestion {
            frames[frames.count - 1].pendingQuestion = nil
            if let answerStart = afterMarker(text.masked, text.lineRange(0), "A:") {
                var back = answerStart..<text.raw.count
                let id = takeExplicitID(text, &back)
                emitBasic(front: pending.front, back: text.string(trimmed(text.raw, back)),
                          lines: pending.firstLine...text.fileLines[text.lineCount - 1], column: pending.column,
                          explicitID: id, openAnswer: true)
                return
            }
            scan.diagnostics.append(Diagnostic(.warning, path: path, line: pending.firstLine, column: pending.column,
                                               message: "question has no answer (expected a line starting with 'A:')"))
        }
        if markers.contains(.doubled), clozeGroup(text) { return }
        guard markers.contains(.colon) || markers.contains(.question) else { return }
        if markers.contains(.colon), questionAnswer(text) { return }
        if markers.contains(.question), multiLineCard(text) { return }
        if markers.contains(.colon) {
            for i in 0..<text.lineCount { oneLineCard(text, line: i) }
        }
    }

    /// Which marker bytes a paragraph's source holds.
    private struct SyntaxMarkers: OptionSet {
        let rawValue: UInt8
        /// `:` — `Q:`/`A:`, `::`, `:::`.
        static let colon = SyntaxMarkers(rawValue: 1)
        /// `?` — the multi-line `?`/`??` separators.
        static let question = SyntaxMarkers(rawValue: 2)
        /// `{{` or `==` — cloze deletions.
        static let doubled = SyntaxMarkers(rawValue: 4)
        /// `#` — inline tags.
        static let hash = SyntaxMarkers(rawValue: 8)
    }

    /// The bytes every card syntax and tag needs, looked for in the paragraph's source lines with
    /// `memchr` (a paragraph is mostly prose, which it skips many bytes at a time).
    private func syntaxMarkers(_ node: MarkdownNode) -> SyntaxMarkers {
        let start = source.lineRange(node.range.start.line).lowerBound
        let end = source.lineRange(max(node.range.end.line, node.range.start.line)).upperBound
        return source.bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, end > start else { return [] }
            let count = end - start
            var found: SyntaxMarkers = []
            if memchr(base + start, 0x3A, count) != nil { found.insert(.colon) }
            if memchr(base + start, 0x3F, count) != nil { found.insert(.question) }
            if memchr(base + start, 0x23, count) != nil { found.insert(.hash) }
            // `{{` or `==`: each `{` or `=` found is checked for a second one after it.
            func doubled(_ byte: UInt8) -> Bool {
                var i = start
                while let at = Self.firstIndex(of: byte, in: buf, from: i, before: end) {
                    if at + 1 < end, base[at + 1] == byte { return true }
                    i = at + 1
                }
                return false
            }
            if doubled(UInt8(ascii: "{")) || doubled(UInt8(ascii: "=")) { found.insert(.doubled) }
            return found
        }
    }

    /// Byte ranges (in the file) of inline code and inline HTML inside a paragraph, in document
    /// order.
    private func inlineMasks(of index: Int, in document: MarkdownDocument) -> [ClosedRange<Int>] {
        var masks: [ClosedRange<Int>] = []
        // Read the nodes in place: copying each node out of the array would retain its fields.
        document.nodes.withUnsafeBufferPointer { nodes in
            var i = index + 1
            let end = nodes[index].subtreeEnd
            while i < end {
                let kind = nodes[i].kind
                if kind == .code || kind == .htmlInline {
                    let range = nodes[i].range
                    let lo = source.offset(line: range.start.line, column: range.start.column)
                    let hi = source.offset(line: range.end.line, column: range.end.column)
                    if hi >= lo { masks.append(lo...hi) }
                    i = nodes[i].subtreeEnd
                } else {
                    i += 1
                }
            }
        }
        return masks
    }

    // MARK: - Card syntaxes

    /// `Q:` / `A:` lines (FORMAT.md §3.1). Returns whether the paragraph held a `Q:` line.
    private mutating func questionAnswer(_ text: ParagraphText) -> Bool {
        let masked = text.masked
        guard (0..<text.lineCount).contains(where: { afterMarker(masked, text.lineRange($0), "Q:") != nil })
        else { return false }
        // The card being read: where its question text starts, and where its answer starts.
        var question: (line: Int, offset: Int)?
        var answer: (line: Int, offset: Int)?
        for i in 0..<text.lineCount {
            let range = text.lineRange(i)
            if let after = afterMarker(masked, range, "Q:") {
                if let q = question {
                    finishQuestion(text, question: q, answer: answer, end: range.lowerBound - 1, lastLine: i - 1,
                                   paragraphEnd: false)
                }
                question = (i, after)
                answer = nil
            } else if question != nil, answer == nil, let after = afterMarker(masked, range, "A:") {
                answer = (i, after)
            } else if question == nil {
                oneLineCard(text, line: i)
            }
        }
        if let q = question {
            finishQuestion(text, question: q, answer: answer, end: text.raw.count, lastLine: text.lineCount - 1,
                           paragraphEnd: true)
        }
        return true
    }

    private mutating func finishQuestion(_ text: ParagraphText, question q: (line: Int, offset: Int),
                                         answer a: (line: Int, offset: Int)?, end: Int, lastLine: Int,
                                         paragraphEnd: Bool) {
        let column = text.fileColumns[q.line]
        guard let a else {
            let front = text.string(trimmed(text.raw, q.offset..<max(q.offset, end)))
            if paragraphEnd, !frames.isEmpty {
                frames[frames.count - 1].pendingQuestion = PendingQuestion(front: front, firstLine: text.fileLines[q.line],
                                                                           column: column)
            } else {
                scan.diagnostics.append(Diagnostic(.warning, path: path, line: text.fileLines[q.line], column: column,
                    message: "question has no answer (expected a line starting with 'A:')"))
            }
            return
        }
        let questionEnd = max(q.offset, text.lineRange(a.line).lowerBound)
        let front = text.string(trimmed(text.raw, q.offset..<questionEnd))
        var back = a.offset..<max(a.offset, end)
        let id = takeExplicitID(text, &back)
        emitBasic(front: front, back: text.string(trimmed(text.raw, back)),
                  lines: text.fileLines[q.line]...text.fileLines[max(q.line, lastLine)], column: column,
                  explicitID: id, openAnswer: paragraphEnd)
    }

    /// The Obsidian multi-line form: a line `?` (or `??`) between question and answer lines.
    private mutating func multiLineCard(_ text: ParagraphText) -> Bool {
        guard text.lineCount >= 3 else { return false }
        for i in 1..<(text.lineCount - 1) {
            let r = trimmed(text.masked, text.lineRange(i))
            let len = r.count
            guard len == 1 || len == 2, text.masked[r].allSatisfy({ $0 == UInt8(ascii: "?") }) else { continue }
            let question = text.string(trimmed(text.raw, 0..<text.lineRange(i).lowerBound))
            var back = text.lineRange(i + 1).lowerBound..<text.raw.count
            let id = takeExplicitID(text, &back)
            let answer = text.string(trimmed(text.raw, back))
            guard !question.isEmpty, !answer.isEmpty else { return false }
            let lines = text.fileLines[0]...text.fileLines[text.lineCount - 1]
            if len == 1 {
                emitBasic(front: question, back: answer, lines: lines, column: text.fileColumns[0],
                          explicitID: id, openAnswer: false)
            } else {
                emitReversed(left: question, right: answer, lines: lines, column: text.fileColumns[0], explicitID: id)
            }
            return true
        }
        return false
    }

    /// `term :: definition`, `question? :: answer`, `front ::: back` on one line.
    private mutating func oneLineCard(_ text: ParagraphText, line i: Int) {
        let range = text.lineRange(i)
        let m = text.masked
        var j = range.lowerBound
        while j < range.upperBound {
            guard m[j] == UInt8(ascii: ":") else { j += 1; continue }
            var end = j
            while end < range.upperBound, m[end] == UInt8(ascii: ":") { end += 1 }
            let run = end - j
            let spaceBefore = j == range.lowerBound || isSpace(m[j - 1])
            let spaceAfter = end == range.upperBound || isSpace(m[end])
            if (run == 2 || run == 3), spaceBefore, spaceAfter {
                let left = text.string(trimmed(text.raw, range.lowerBound..<j))
                var back = end..<range.upperBound
                let id = takeExplicitID(text, &back)
                let right = text.string(trimmed(text.raw, back))
                guard !left.isEmpty, !right.isEmpty else { return }
                let lines = text.fileLines[i]...text.fileLines[i]
                let column = text.fileColumns[i]
                if run == 3 {
                    emitReversed(left: left, right: right, lines: lines, column: column, explicitID: id)
                } else if left.hasSuffix("?") {
                    emitBasic(front: left, back: right, lines: lines, column: column, explicitID: id, openAnswer: false)
                } else {
                    emit(makeCard(kind: .definition, variant: .single, front: left, back: right, lines: lines,
                                       column: column, headingPath: headingPath, identityText: "",
                                       explicitID: id))
                }
                return
            }
            j = end
        }
    }

    /// Anki `{{cN::answer::hint}}` or `==highlight==` deletions. Returns whether the paragraph was a
    /// cloze group (or held a broken deletion, which was reported).
    private mutating func clozeGroup(_ text: ParagraphText) -> Bool {
        let m = text.masked
        var deletions: [ClozeDeletion] = []
        var broken = false
        var j = 0
        while j + 5 < m.count {
            // Most of a paragraph is prose: jump to the next `{`.
            guard let brace = Self.firstIndex(of: UInt8(ascii: "{"), in: m, from: j) else { break }
            j = brace
            guard j + 5 < m.count else { break }
            guard m[j + 1] == UInt8(ascii: "{"), m[j + 2] | 0x20 == UInt8(ascii: "c")
            else { j += 1; continue }
            var k = j + 3, number = 0, digits = 0
            while k < m.count, m[k] >= 48, m[k] <= 57, digits < 6 {
                number = number * 10 + Int(m[k] - 48)
                k += 1
                digits += 1
            }
            guard digits > 0, k + 1 < m.count, m[k] == UInt8(ascii: ":"), m[k + 1] == UInt8(ascii: ":") else {
                j += 1
                continue
            }
            let contentStart = k + 2
            var close = contentStart
            while close + 1 < m.count, !(m[close] == UInt8(ascii: "}") && m[close + 1] == UInt8(ascii: "}")) {
                close += 1
            }
            var loc: (line: Int, column: Int) { text.fileLocation(of: j) }
            guard close + 1 < m.count else {
                scan.diagnostics.append(Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                                                   message: "cloze deletion '{{c\(number)::' is not closed with '}}'"))
                broken = true
                break
            }
            var answerEnd = close
            var hint: Range<Int>?
            var h = contentStart
            while h + 1 < close {
                if m[h] == UInt8(ascii: ":"), m[h + 1] == UInt8(ascii: ":") {
                    answerEnd = h
                    hint = trimmed(text.raw, (h + 2)..<close)
                    break
                }
                h += 1
            }
            let answer = trimmed(text.raw, contentStart..<answerEnd)
            if number < 1 {
                scan.diagnostics.append(Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                                                   message: "cloze number must be 1 or more, not c\(number)"))
                broken = true
            } else if answer.isEmpty {
                scan.diagnostics.append(Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                                                   message: "cloze deletion c\(number) is empty"))
                broken = true
            } else {
                deletions.append(ClozeDeletion(number: number, range: j..<(close + 2), answer: answer,
                                               hint: hint.flatMap { $0.isEmpty ? nil : $0 }))
            }
            j = close + 2
        }
        if broken { return true }
        if deletions.isEmpty {
            deletions = highlights(text)
            if deletions.isEmpty { return false }
        }
        var back = 0..<text.raw.count
        let id = takeExplicitID(text, &back)
        let fullText = text.string(trimmed(text.raw, back))
        let ident = CardID.normalizeIdentityText(fullText)
        let lines = text.fileLines[0]...text.fileLines[text.lineCount - 1]
        var numbers: [Int] = []
        for n in deletions.map(\.number).sorted() where numbers.last != n { numbers.append(n) }
        // Each card repeats the paragraph: many numbers in a long paragraph would cost their product
        // in time and memory. Past a budget linear in the paragraph, it makes no cards, and says so.
        let cost = numbers.count * (back.count + deletions.count)
        if cost > Self.clozeBudget(paragraphBytes: text.raw.count) {
            let loc = text.fileLocation(of: 0)
            scan.diagnostics.append(Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                message: "\(numbers.count) cloze numbers in a paragraph of \(text.raw.count) bytes: each card repeats "
                    + "the paragraph, which would make \(cost >> 20) MB of cards; no cards made from it "
                    + "(split it into smaller paragraphs)"))
            return true
        }
        let revealed = render(deletions, text, back, hiding: nil)
        for n in numbers {
            emit(makeCard(kind: .cloze, variant: .cloze(n), front: render(deletions, text, back, hiding: n),
                               back: revealed, lines: lines, column: text.fileColumns[0], headingPath: headingPath,
                               identityText: ident, explicitID: id?.suffixed("c\(n)")))
        }
        return true
    }

    /// How much card text one cloze paragraph may make: 64 times its size, at least 8 MB.
    static func clozeBudget(paragraphBytes: Int) -> Int { max(8 << 20, paragraphBytes * 64) }

    /// The offset of the first `byte` in `bytes` at or after `start`.
    private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { firstIndex(of: byte, in: $0, from: start, before: $0.count) }
    }

    /// The offset of the first `byte` in `bytes[start..<end]`, found with `memchr`.
    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard let base = bytes.baseAddress, start < end, end <= bytes.count,
              let hit = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// The cloze text with the deletions numbered `hiding` shown as `[...]` or `[hint]` and every
    /// other deletion as its answer.
    private func render(_ deletions: [ClozeDeletion], _ text: ParagraphText, _ back: Range<Int>, hiding: Int?) -> String {
        // The pieces are copied straight into the string's storage, then trimmed in place.
        func inside(_ d: ClozeDeletion) -> Bool { d.range.lowerBound >= back.lowerBound && d.range.upperBound <= back.upperBound }
        var length = back.count
        for d in deletions where inside(d) {
            length -= d.range.count
            length += d.number == hiding ? 2 + (d.hint?.count ?? 3) : d.answer.count
        }
        return text.raw.withUnsafeBufferPointer { raw in
            String(unsafeUninitializedCapacity: max(length, 1)) { out -> Int in
                guard let source = raw.baseAddress, let target = out.baseAddress else { return 0 }
                var n = 0
                func copy(_ range: Range<Int>) {
                    guard !range.isEmpty, n + range.count <= out.count else { return }
                    memcpy(target + n, source + range.lowerBound, range.count)
                    n += range.count
                }
                func put(_ byte: UInt8) {
                    guard n < out.count else { return }
                    target[n] = byte
                    n += 1
                }
                var cursor = back.lowerBound
                for d in deletions where inside(d) {
                    copy(cursor..<d.range.lowerBound)
                    if d.number == hiding {
                        put(UInt8(ascii: "["))
                        if let hint = d.hint {
                            copy(hint)
                        } else {
                            for _ in 0..<3 { put(UInt8(ascii: ".")) }
                        }
                        put(UInt8(ascii: "]"))
                    } else {
                        copy(d.answer)
                    }
                    cursor = d.range.upperBound
                }
                copy(cursor..<back.upperBound)
                let kept = trimmed(UnsafeBufferPointer(start: target, count: n), 0..<n)
                if kept.lowerBound > 0 { memmove(target, target + kept.lowerBound, kept.count) }
                return kept.count
            }
        }
    }

    private struct ClozeDeletion {
        var number: Int
        var range: Range<Int>
        /// The answer's bytes in the paragraph text, trimmed.
        var answer: Range<Int>
        /// The hint's bytes in the paragraph text, trimmed; nil when there is none or it is empty.
        var hint: Range<Int>?
    }

    /// `==text==` spans on one line: no space just inside the markers, not part of a longer `=` run.
    private func highlights(_ text: ParagraphText) -> [ClozeDeletion] {
        let m = text.masked
        var found: [ClozeDeletion] = []
        let eq = UInt8(ascii: "=")
        for i in 0..<text.lineCount {
            let r = text.lineRange(i)
            var j = r.lowerBound
            while j + 1 < r.upperBound {
                guard m[j] == eq, m[j + 1] == eq, j == r.lowerBound || m[j - 1] != eq,
                      j + 2 < r.upperBound, m[j + 2] != eq, !isSpace(m[j + 2]) else { j += 1; continue }
                var k = j + 2
                var closeAt: Int?
                while k + 1 < r.upperBound {
                    if m[k] == eq, m[k + 1] == eq {
                        if !isSpace(m[k - 1]), k + 2 >= r.upperBound || m[k + 2] != eq { closeAt = k }
                        break
                    }
                    k += 1
                }
                guard let close = closeAt else { j += 2; continue }
                found.append(ClozeDeletion(number: found.count + 1, range: j..<(close + 2),
                                           answer: (j + 2)..<close, hint: nil))
                j = close + 2
            }
        }
        return found
    }

    // MARK: - Emitting


    private func makeCard(kind: CardKind, variant: CardVariant, front: String, back: String, lines: ClosedRange<Int>,
                          column: Int, headingPath: [String], identityText: String, explicitID: CardID?) -> Card {
        Card(id: explicitID ?? .unassigned, kind: kind, variant: variant, front: front, back: back, lines: lines,
             column: column, headingPath: headingPath, identityText: identityText, hasExplicitID: explicitID != nil)
    }

    private mutating func emit(_ card: Card) {
        scan.cards.append(card)
    }

    private mutating func emitBasic(front: String, back: String, lines: ClosedRange<Int>, column: Int,
                                    explicitID: CardID?, openAnswer: Bool) {
        guard !front.isEmpty, !back.isEmpty else {
            scan.diagnostics.append(Diagnostic(.warning, path: path, line: lines.lowerBound, column: column,
                                               message: front.isEmpty ? "card has an empty question" : "card has an empty answer"))
            return
        }
        emit(makeCard(kind: .basic, variant: .single, front: front, back: back, lines: lines, column: column,
                           headingPath: headingPath, identityText: "", explicitID: explicitID))
        if openAnswer, !frames.isEmpty { frames[frames.count - 1].openAnswer = scan.cards.count - 1 }
    }

    private mutating func emitReversed(left: String, right: String, lines: ClosedRange<Int>, column: Int,
                                       explicitID: CardID?) {
        // The identity text of a pair is computed from the sides when needed (see `Card`).
        let ident = ""
        emit(makeCard(kind: .reversed, variant: .forward, front: left, back: right, lines: lines, column: column,
                           headingPath: headingPath, identityText: ident, explicitID: explicitID))
        emit(makeCard(kind: .reversed, variant: .backward, front: right, back: left, lines: lines, column: column,
                           headingPath: headingPath, identityText: ident, explicitID: explicitID?.suffixed("r")))
    }

    /// Removes a trailing Obsidian block ID (` ^id`) from the end of `range` and returns it.
    private func takeExplicitID(_ text: ParagraphText, _ range: inout Range<Int>) -> CardID? {
        let m = text.masked
        var end = range.upperBound
        while end > range.lowerBound, isSpace(m[end - 1]) || m[end - 1] == 10 { end -= 1 }
        var start = end
        while start > range.lowerBound, m[start - 1] != 10, CardID.isIDByte(m[start - 1]), m[start - 1] != 95 {
            start -= 1
        }
        guard start < end, start - 1 > range.lowerBound, m[start - 1] == UInt8(ascii: "^"),
              isSpace(m[start - 2]) else { return nil }
        guard let id = CardID(text.string(start..<end)) else { return nil }
        range = range.lowerBound..<(start - 1)
        return id
    }

    // MARK: - Inline tags

    private mutating func collectTags(_ text: ParagraphText) {
        let m = text.masked
        guard m.contains(UInt8(ascii: "#")) else { return }
        var j = 0
        while j < m.count {
            guard m[j] == UInt8(ascii: "#"), j == 0 || isSpace(m[j - 1]) || m[j - 1] == 10 else { j += 1; continue }
            var k = j + 1
            var hasNonDigit = false
            while k < m.count {
                let b = m[k]
                let isDigit = b >= 48 && b <= 57
                let ok = isDigit || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45 || b == 47
                    || b >= 0x80
                guard ok else { break }
                if !isDigit { hasNonDigit = true }
                k += 1
            }
            // A tag does not end in `/` or `-`.
            while k > j + 1, m[k - 1] == 47 || m[k - 1] == 45 { k -= 1 }
            if k > j + 1, hasNonDigit {
                scan.inlineTags.append(text.string((j + 1)..<k))
            }
            j = max(k, j + 1)
        }
    }
}
