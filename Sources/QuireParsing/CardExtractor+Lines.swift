import QuireModel

/// What one paragraph line is to card recognition, in the order of precedence of FORMAT.md §3.6.
enum CardLineRole: Equatable {
    /// `Q:` (or `**Q:**`, `**Q**:`): the question's text starts at the offset.
    case question(Int)
    /// `A:`: the answer's text starts at the offset.
    case answer(Int)
    /// A line that is only `?` (or `??`, reversed).
    case separator(reversed: Bool)
    /// Holds an Anki cloze deletion `{{cN::`.
    case ankiCloze
    /// `left :: right` or `left ::: right`: the separator's range.
    case oneLine(Range<Int>)
    /// Holds a `==highlight==`.
    case highlight
    /// Prose.
    case plain
}

extension CardExtractor {
    /// The role of line `i` of a paragraph; only the syntaxes whose marker bytes the paragraph
    /// holds are looked for.
    func role(of i: Int, in text: ParagraphText, markers: SyntaxMarkers) -> CardLineRole {
        let m = text.masked
        let range = text.lineRange(i)
        if markers.contains(.colon) {
            if let after = afterCardMarker(m, range, UInt8(ascii: "Q")) { return .question(after) }
            if let after = afterCardMarker(m, range, UInt8(ascii: "A")) { return .answer(after) }
        }
        if markers.contains(.question) {
            let r = trimmed(m, range)
            if r.count == 1 || r.count == 2, m[r].allSatisfy({ $0 == UInt8(ascii: "?") }) {
                return .separator(reversed: r.count == 2)
            }
        }
        if markers.contains(.doubled), Self.hasAnkiClozeOpener(m, range) { return .ankiCloze }
        if markers.contains(.colon), let separator = Self.oneLineSeparator(m, range) { return .oneLine(separator) }
        if markers.contains(.doubled), Self.hasHighlight(m, range) { return .highlight }
        return .plain
    }

    /// A card being read inside one paragraph.
    private struct Reading {
        /// The question text: from a `Q:` line of this paragraph, or a `Q:` paragraph before.
        var front: Front
        /// The line and offset where the answer text starts, once its marker was seen; the
        /// offset may be the paragraph's end (a `?` on the last line).
        var answer: (line: Int, offset: Int)?
        /// Where the answer's marker line starts (the question ends there).
        var markerStart: Int
        var reversed = false
        /// Whether the card was opened by `Q:` (and so still waits for `A:` while `answer` is nil).
        var isQuestionAnswer: Bool
        var firstLine: Int
        var column: Int

        enum Front {
            case text(from: Int)
            case given(String)
        }
    }

    /// Where reading one paragraph's lines stands.
    private struct LineState {
        /// The card being read, if any.
        var reading: Reading?
        /// The first of the lines that belong to no card yet: a cloze group, a `?` question, or prose.
        var free: Int?
        /// Whether those lines hold a cloze deletion.
        var freeHasCloze = false
    }

    /// Reads every card of one paragraph, line by line (FORMAT.md §3): `Q:`/`A:` cards, `?`/`??`
    /// cards, one-line cards and cloze groups may share a paragraph.
    mutating func readCards(_ text: ParagraphText, markers: SyntaxMarkers) {
        var state = LineState()
        var firstFree = 0
        if let answered = answerPendingQuestion(text, markers: markers) {
            state.reading = answered
            firstFree = 1
        }
        if answerPendingAnswer(text, markers: markers) { return }
        for i in firstFree..<text.lineCount {
            let role = role(of: i, in: text, markers: markers)
            if let current = state.reading {
                continueCard(current, line: i, role: role, text, reading: &state.reading)
            } else {
                readFreeLine(i, role: role, text, state: &state)
            }
        }
        if let current = state.reading { finish(current, text, endLine: text.lineCount - 1, paragraphEnd: true) }
        flushFree(text, before: text.lineCount, state: &state)
    }

    /// An `A:` paragraph answering the question of the paragraph before: the card it goes on,
    /// or nil (with a warning when a question was waiting and this paragraph does not answer it).
    private mutating func answerPendingQuestion(_ text: ParagraphText, markers: SyntaxMarkers) -> Reading? {
        let last = frames.count - 1
        guard last >= 0, let pending = frames[last].pendingQuestion else { return nil }
        frames[last].pendingQuestion = nil
        if case let .answer(after) = role(of: 0, in: text, markers: markers) {
            return Reading(front: .given(pending.front), answer: (0, after), markerStart: 0,
                           isQuestionAnswer: true, firstLine: pending.firstLine, column: pending.column)
        }
        warn(line: pending.firstLine, column: pending.column,
             "question has no answer (expected a line starting with 'A:'); no card made")
        return nil
    }

    /// An answer marker that ended the paragraph before: this paragraph is the answer when it
    /// holds no card syntax of its own. Returns whether it was (the card is then made).
    private mutating func answerPendingAnswer(_ text: ParagraphText, markers: SyntaxMarkers) -> Bool {
        let last = frames.count - 1
        guard last >= 0, let pending = frames[last].pendingAnswer else { return false }
        frames[last].pendingAnswer = nil
        if (0..<text.lineCount).allSatisfy({ role(of: $0, in: text, markers: markers) == .plain }) {
            var back = 0..<text.raw.count
            let id = takeExplicitID(text, &back)
            emitQuestion(front: pending.front, back: text.string(trimmed(text.raw, back)), reversed: pending.reversed,
                         lines: pending.firstLine...text.fileLines[text.lineCount - 1], column: pending.column,
                         explicitID: id)
            return true
        }
        warn(line: pending.firstLine, column: pending.column, "card has an empty answer; no card made")
        return false
    }

    /// Line `i` while card `current` is being read: a `Q:` starts the next card, an `A:` the
    /// answer of a `Q:` card, a one-line card ends the answer before it; other lines are the card's.
    private mutating func continueCard(_ current: Reading, line i: Int, role: CardLineRole, _ text: ParagraphText,
                                       reading: inout Reading?) {
        switch role {
        case let .question(after):
            finish(current, text, endLine: i - 1, paragraphEnd: false)
            reading = Reading(front: .text(from: after), markerStart: text.lineStarts[i], isQuestionAnswer: true,
                              firstLine: text.fileLines[i], column: text.fileColumns[i])
        case let .answer(after) where current.isQuestionAnswer && current.answer == nil:
            reading?.answer = (i, after)
            reading?.markerStart = text.lineStarts[i]
        case let .oneLine(separator) where current.answer != nil:
            // A one-line card ends the answer before it.
            finish(current, text, endLine: i - 1, paragraphEnd: false)
            reading = nil
            oneLineCard(text, line: i, separator: separator)
        default:
            break
        }
    }

    /// Line `i` while no card is being read: it starts a card, makes a one-line card, or joins
    /// the free lines.
    private mutating func readFreeLine(_ i: Int, role: CardLineRole, _ text: ParagraphText, state: inout LineState) {
        switch role {
        case let .question(after):
            flushFree(text, before: i, state: &state)
            state.reading = Reading(front: .text(from: after), markerStart: text.lineStarts[i], isQuestionAnswer: true,
                                    firstLine: text.fileLines[i], column: text.fileColumns[i])
        case .answer:
            warn(line: text.fileLines[i], column: text.fileColumns[i],
                 "'A:' line has no question before it (start the question with 'Q:'); no card made")
            if state.free == nil { state.free = i }
        case let .separator(reversed):
            guard let start = state.free else {
                warn(line: text.fileLines[i], column: text.fileColumns[i],
                     "'\(reversed ? "??" : "?")' line has no question above it; no card made")
                return
            }
            state.free = nil
            state.freeHasCloze = false
            let next = i + 1 < text.lineCount ? text.lineStarts[i + 1] : text.raw.count
            state.reading = Reading(front: .text(from: text.lineStarts[start]), answer: (i, next),
                                    markerStart: text.lineStarts[i], reversed: reversed, isQuestionAnswer: false,
                                    firstLine: text.fileLines[start], column: text.fileColumns[start])
        case let .oneLine(separator):
            flushFree(text, before: i, state: &state)
            oneLineCard(text, line: i, separator: separator)
        case .ankiCloze, .highlight:
            if state.free == nil { state.free = i }
            state.freeHasCloze = true
        case .plain:
            if state.free == nil { state.free = i }
        }
    }

    /// Ends the free lines before line `end`: a cloze group when they hold a deletion.
    private mutating func flushFree(_ text: ParagraphText, before end: Int, state: inout LineState) {
        if let start = state.free, state.freeHasCloze, end > start { clozeGroup(text, lines: start..<end) }
        state.free = nil
        state.freeHasCloze = false
    }

    /// Ends a card read from a paragraph at line `endLine` (inclusive).
    private mutating func finish(_ card: Reading, _ text: ParagraphText, endLine: Int, paragraphEnd: Bool) {
        let end = endLine + 1 < text.lineCount ? text.lineStarts[endLine + 1] - 1 : text.raw.count
        let lastLine = text.fileLines[max(0, endLine)]
        let front: String
        switch card.front {
        case let .given(question): front = question
        case let .text(from): front = text.string(trimmed(text.raw, from..<max(from, card.answer == nil ? end : card.markerStart)))
        }
        guard let answer = card.answer else {
            if paragraphEnd, !frames.isEmpty {
                frames[frames.count - 1].pendingQuestion = PendingQuestion(front: front, firstLine: card.firstLine,
                                                                           column: card.column)
            } else {
                warn(line: card.firstLine, column: card.column,
                     "question has no answer (expected a line starting with 'A:'); no card made")
            }
            return
        }
        var back = min(answer.offset, end)..<max(answer.offset, end)
        let id = takeExplicitID(text, &back)
        let answerText = text.string(trimmed(text.raw, back))
        if answerText.isEmpty, paragraphEnd, !front.isEmpty, !frames.isEmpty {
            // `A:`, `?` or `??` with nothing after it: the next block is the answer.
            frames[frames.count - 1].pendingAnswer = PendingAnswer(front: front, reversed: card.reversed,
                                                                   firstLine: card.firstLine, lastLine: lastLine,
                                                                   column: card.column)
            return
        }
        emitQuestion(front: front, back: answerText, reversed: card.reversed, lines: card.firstLine...lastLine,
                     column: card.column, explicitID: id)
        if !paragraphEnd, !frames.isEmpty { frames[frames.count - 1].openAnswer = nil }
    }

    /// `term :: definition`, `question? :: answer`, `front ::: back` on one line.
    private mutating func oneLineCard(_ text: ParagraphText, line i: Int, separator: Range<Int>) {
        let range = text.lineRange(i)
        let left = text.string(trimmed(text.raw, range.lowerBound..<separator.lowerBound))
        var back = separator.upperBound..<range.upperBound
        let id = takeExplicitID(text, &back)
        let right = text.string(trimmed(text.raw, back))
        let lines = text.fileLines[i]...text.fileLines[i]
        let column = text.fileColumns[i]
        let mark = separator.count == 3 ? ":::" : "::"
        guard !left.isEmpty, !right.isEmpty else {
            warn(line: lines.lowerBound, column: column,
                 "'\(mark)' card has an empty \(left.isEmpty ? "left" : "right") side; no card made")
            return
        }
        if separator.count == 3 {
            emitReversed(left: left, right: right, lines: lines, column: column, explicitID: id)
        } else if left.hasSuffix("?") {
            emit(makeCard(kind: .basic, variant: .single, front: left, back: right, lines: lines, column: column,
                          identityText: "", explicitID: id))
        } else {
            emit(makeCard(kind: .definition, variant: .single, front: left, back: right, lines: lines,
                          column: column, identityText: "", explicitID: id))
        }
    }

    /// The first run of exactly two or three colons in `bytes[range]` with white space or the
    /// line's edge on both sides.
    static func oneLineSeparator(_ m: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var j = range.lowerBound
        // Most lines hold no colon, or one: jump to each with memchr.
        while let colon = firstIndex(of: UInt8(ascii: ":"), in: m, from: j, before: range.upperBound) {
            j = colon
            var end = j
            while end < range.upperBound, m[end] == UInt8(ascii: ":") { end += 1 }
            let run = end - j
            let spaceBefore = j == range.lowerBound || isSpace(m[j - 1])
            let spaceAfter = end == range.upperBound || isSpace(m[end])
            if run == 2 || run == 3, spaceBefore, spaceAfter { return j..<end }
            j = end
        }
        return nil
    }

    /// Whether `bytes[range]` holds `{{c` followed by digits and `::`.
    static func hasAnkiClozeOpener(_ m: [UInt8], _ range: Range<Int>) -> Bool {
        var j = range.lowerBound
        while let brace = firstIndex(of: UInt8(ascii: "{"), in: m, from: j, before: range.upperBound) {
            j = brace
            guard j + 5 < range.upperBound else { return false }
            guard m[j + 1] == UInt8(ascii: "{"), m[j + 2] | 0x20 == UInt8(ascii: "c") else {
                j += 1
                continue
            }
            var k = j + 3
            while k < range.upperBound, m[k] >= 48, m[k] <= 57 { k += 1 }
            if k > j + 3, k + 1 < range.upperBound, m[k] == UInt8(ascii: ":"), m[k + 1] == UInt8(ascii: ":") { return true }
            j += 1
        }
        return false
    }
}

/// Whether `bytes[range]` starts with a card marker for `letter` (`Q` or `A`), after optional
/// spaces: `Q:`, or in bold `**Q:**`, `**Q**:`, `__Q:__`, `__Q__:` (the letter in either case).
/// Returns the offset after the marker and the spaces that follow.
func afterCardMarker(_ bytes: [UInt8], _ range: Range<Int>, _ letter: UInt8) -> Int? {
    var i = range.lowerBound
    let end = range.upperBound
    while i < end, isSpace(bytes[i]) { i += 1 }
    var bold: UInt8?
    if i + 1 < end, bytes[i] == bytes[i + 1], bytes[i] == UInt8(ascii: "*") || bytes[i] == UInt8(ascii: "_") {
        bold = bytes[i]
        i += 2
    }
    guard i < end, bytes[i] | 0x20 == letter | 0x20 else { return nil }
    i += 1
    let colon = UInt8(ascii: ":")
    if let b = bold {
        guard i + 3 <= end else { return nil }
        if bytes[i] == colon, bytes[i + 1] == b, bytes[i + 2] == b {
            i += 3
        } else if bytes[i] == b, bytes[i + 1] == b, bytes[i + 2] == colon {
            i += 3
        } else {
            return nil
        }
    } else {
        guard i < end, bytes[i] == colon else { return nil }
        i += 1
    }
    while i < end, isSpace(bytes[i]) { i += 1 }
    return i
}
