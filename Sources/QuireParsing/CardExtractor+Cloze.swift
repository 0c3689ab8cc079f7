import QuireModel

extension CardExtractor {
    /// Anki `{{cN::answer::hint}}` or `==highlight==` deletions in the paragraph lines `lines`
    /// (FORMAT.md §3.4): one card per cloze number, or errors for broken deletions.
    ///
    /// - Parameter fenced: for a ```` ```cloze ```` block (FORMAT.md §3.10), the ID of its info
    ///   string (the text's end is then never an ID), and the block's lines and column.
    mutating func clozeGroup(_ text: ParagraphText, lines: Range<Int>,
                             fenced: (id: CardID?, lines: ClosedRange<Int>, column: Int)? = nil) {
        let start = text.lineRange(lines.lowerBound).lowerBound
        let end = text.lineRange(lines.upperBound - 1).upperBound
        guard var deletions = ankiDeletions(text, start..<end) else { return }
        if deletions.isEmpty {
            deletions = (lines).flatMap { Self.highlights(text.masked, in: text.lineRange($0)) }
            for i in deletions.indices { deletions[i].number = i + 1 }
            if deletions.isEmpty { return }
        }
        emitClozeCards(deletions, text, lines: lines, span: start..<end, fenced: fenced)
    }

    /// The Anki deletions `{{cN::answer::hint}}` in `span` of the paragraph text, or nil (with an
    /// error for each) when one is broken: not closed, numbered below 1, or empty.
    private mutating func ankiDeletions(_ text: ParagraphText, _ span: Range<Int>) -> [ClozeDeletion]? {
        let m = text.masked
        let end = span.upperBound
        var deletions: [ClozeDeletion] = []
        var broken = false
        var j = span.lowerBound
        while j + 5 < end {
            // Most of a paragraph is prose: jump to the next `{`.
            guard let brace = Self.firstIndex(of: UInt8(ascii: "{"), in: m, from: j), brace + 5 < end else { break }
            j = brace
            guard m[j + 1] == UInt8(ascii: "{"), m[j + 2] | 0x20 == UInt8(ascii: "c")
            else { j += 1; continue }
            var k = j + 3, number = 0, digits = 0
            while k < end, m[k] >= 48, m[k] <= 57, digits < 6 {
                number = number * 10 + Int(m[k] - 48)
                k += 1
                digits += 1
            }
            guard digits > 0, k + 1 < end, m[k] == UInt8(ascii: ":"), m[k + 1] == UInt8(ascii: ":") else {
                j += 1
                continue
            }
            let contentStart = k + 2
            var close = contentStart
            while close + 1 < end, !(m[close] == UInt8(ascii: "}") && m[close + 1] == UInt8(ascii: "}")) {
                close += 1
            }
            var loc: (line: Int, column: Int) { text.fileLocation(of: j) }
            guard close + 1 < end else {
                scan.diagnostics.append(Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                                                   message: "cloze deletion '{{c\(number)::' is not closed with '}}'"))
                broken = true
                break
            }
            let (answer, hint) = Self.answerAndHint(text, contentStart..<close)
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
        return broken ? nil : deletions
    }

    /// A deletion's answer and hint (after the first `::` of `content`, if any), each trimmed.
    private static func answerAndHint(_ text: ParagraphText, _ content: Range<Int>) -> (answer: Range<Int>, hint: Range<Int>?) {
        let m = text.masked
        var answerEnd = content.upperBound
        var hint: Range<Int>?
        var h = content.lowerBound
        while h + 1 < content.upperBound {
            if m[h] == UInt8(ascii: ":"), m[h + 1] == UInt8(ascii: ":") {
                answerEnd = h
                hint = trimmed(text.raw, (h + 2)..<content.upperBound)
                break
            }
            h += 1
        }
        return (trimmed(text.raw, content.lowerBound..<answerEnd), hint)
    }

    /// Makes one card per cloze number of the deletions in `span` (lines `lines` of the
    /// paragraph), unless their text would pass ``clozeBudget(paragraphBytes:)`` (an error then).
    private mutating func emitClozeCards(_ deletions: [ClozeDeletion], _ text: ParagraphText, lines: Range<Int>,
                                         span: Range<Int>, fenced: (id: CardID?, lines: ClosedRange<Int>, column: Int)?) {
        var back = span
        let id = fenced.map(\.id) ?? takeExplicitID(text, &back)
        let fullText = text.string(trimmed(text.raw, back))
        let ident = CardID.normalizeIdentityText(fullText)
        let fileLines = fenced?.lines ?? text.fileLines[lines.lowerBound]...text.fileLines[lines.upperBound - 1]
        var numbers: [Int] = []
        for n in deletions.map(\.number).sorted() where numbers.last != n { numbers.append(n) }
        // Each card repeats the paragraph: many numbers in a long paragraph would cost their product
        // in time and memory. Past a budget linear in the paragraph, it makes no cards, and says so.
        let cost = numbers.count * (back.count + deletions.count)
        if cost > Self.clozeBudget(paragraphBytes: text.raw.count) {
            let loc = text.fileLocation(of: span.lowerBound)
            scan.diagnostics.append(Diagnostic(.error, path: path, line: loc.line, column: loc.column,
                message: "\(numbers.count) cloze numbers in a paragraph of \(text.raw.count) bytes: each card repeats "
                    + "the paragraph, which would make \(cost >> 20) MB of cards; no cards made from it "
                    + "(split it into smaller paragraphs)"))
            return
        }
        let revealed = render(deletions, text, back, hiding: nil)
        for n in numbers {
            emit(makeCard(kind: .cloze, variant: .cloze(n), front: render(deletions, text, back, hiding: n),
                          back: revealed, lines: fileLines, column: fenced?.column ?? text.fileColumns[lines.lowerBound],
                          identityText: ident, explicitID: id?.suffixed("c\(n)")))
        }
    }

    /// How much card text one cloze paragraph may make: 64 times its size, at least 8 MB.
    static func clozeBudget(paragraphBytes: Int) -> Int { max(8 << 20, paragraphBytes * 64) }

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
                    UnsafeMutableRawPointer(target + n).copyMemory(from: source + range.lowerBound, byteCount: range.count)
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
                // Overlapping regions: copyMemory moves (memmove).
                if kept.lowerBound > 0 { UnsafeMutableRawPointer(target).copyMemory(from: target + kept.lowerBound, byteCount: kept.count) }
                return kept.count
            }
        }
    }

    struct ClozeDeletion {
        var number: Int
        var range: Range<Int>
        /// The answer's bytes in the paragraph text, trimmed.
        var answer: Range<Int>
        /// The hint's bytes in the paragraph text, trimmed; nil when there is none or it is empty.
        var hint: Range<Int>?
    }

    /// `==text==` spans on one line: no space just inside the markers, not part of a longer `=` run.
    static func highlights(_ m: [UInt8], in r: Range<Int>) -> [ClozeDeletion] {
        var found: [ClozeDeletion] = []
        forEachHighlight(m, r) { range in
            found.append(ClozeDeletion(number: found.count + 1, range: range, answer: (range.lowerBound + 2)..<(range.upperBound - 2),
                                       hint: nil))
            return true
        }
        return found
    }

    /// Whether a line holds a `==highlight==` (without building the list).
    static func hasHighlight(_ m: [UInt8], _ r: Range<Int>) -> Bool {
        var found = false
        forEachHighlight(m, r) { _ in
            found = true
            return false
        }
        return found
    }

    /// Calls `body` with each highlight's range (markers included) until it returns false.
    private static func forEachHighlight(_ m: [UInt8], _ r: Range<Int>, _ body: (Range<Int>) -> Bool) {
        let eq = UInt8(ascii: "=")
        var j = r.lowerBound
        while let at = firstIndex(of: eq, in: m, from: j, before: r.upperBound), at + 1 < r.upperBound {
            j = at
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
            guard body(j..<(close + 2)) else { return }
            j = close + 2
        }
    }
}
