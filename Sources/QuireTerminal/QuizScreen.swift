import QuireApp
import Foundation
import QuireMarkdown
import QuireModel
import QuireQuiz

/// `quire quiz` full screen: one question at a time, answered by keys (choice 1-4 or a-d,
/// true/false t/f, match a number then a letter for each pair, typed and explain text then
/// Enter), what it earned shown, a clock (counting down with --timed), and the results with the
/// cards missed, from which `r` reviews them at once. Redraws on resize and every second.
package struct QuizScreen {
    package var round: QuizRound
    package let heading: String
    /// Whether the user asked, on the results, to review the cards missed.
    package private(set) var reviewMissed = false

    private enum Phase { case question, feedback, results }
    private var phase = Phase.question
    private var index = 0
    /// typed and explain: the text so far.
    private var input = ""
    /// match: the letter chosen for each question, and a number pressed waiting for its letter.
    private var pairs: [Int?] = []
    private var pendingNumber: Int?
    private var feedback: [String] = []
    private var shownAt = Timestamp(milliseconds: 0)
    /// When the feedback came on screen: after a choice or true/false (answered by one key), Enter
    /// or Space within ``typeAhead`` of it was typed with the answer (`2⏎`, as the plain quiz takes
    /// it) and does not skip the feedback.
    private var feedbackAt = ContinuousClock.now
    private static let typeAhead: Duration = .milliseconds(400)
    private let color = Output.useColor
    private static let letters: [Character] = ["a", "b", "c", "d", "e"]

    package init(round: QuizRound, heading: String) {
        self.round = round
        self.heading = heading
    }

    package mutating func run() {
        guard Terminal.begin() else {
            Output.error("quire: error: the quiz screen needs a terminal (use --plain)")
            return
        }
        defer { Terminal.end() }
        ask(0)
        draw()
        var lastDraw = ContinuousClock.now
        while true {
            let key = Terminal.readKey(timeoutMilliseconds: 250)
            var redraw = Terminal.takeResized() || key != nil || ContinuousClock.now - lastDraw >= .seconds(1)
            if phase == .question, let timed = round.timed, elapsed >= timed * 1000 {
                submit("")
                feedback.insert("Time's up.", at: 0)
                redraw = true
            }
            if let key, !handle(key) { return }
            if redraw {
                draw()
                lastDraw = ContinuousClock.now
            }
        }
    }

    /// Milliseconds since the question was shown (the pinned clock of tests does not move here).
    private var elapsed: Int { Int(max(0, round.clock.peek().milliseconds - shownAt.milliseconds)) }

    private var question: QuizQuestion? { round.questions.indices.contains(index) ? round.questions[index] : nil }

    private mutating func ask(_ k: Int) {
        index = k
        input = ""
        pendingNumber = nil
        pairs = [Int?](repeating: nil, count: question?.items.count ?? 0)
        feedback = []
        guard question != nil else {
            phase = .results
            return
        }
        phase = .question
        shownAt = round.clock.now()
    }

    private mutating func submit(_ line: String) {
        guard let question else { return }
        let answered = round.clock.now()
        feedback = round.answer(question, line, at: answered, milliseconds: round.clock.milliseconds(from: shownAt, to: answered))
        phase = .feedback
        feedbackAt = ContinuousClock.now
    }

    /// Acts on a key; false to leave the screen.
    private mutating func handle(_ key: Key) -> Bool {
        if key == .interrupt || key == .endOfInput { return false }
        switch phase {
        case .results:
            if key == .character("r"), !round.missed.isEmpty { reviewMissed = true }
            return !(key == .character("q") || key == .enter || key == .character("r") || key == .escape)
        case .feedback:
            if key == .character("q") { phase = .results; return true }
            // A choice or true/false is answered by one key: an Enter typed right after it was
            // typed with it, and the feedback stays.
            let oneKey = question?.mode == .choice || question?.mode == .truefalse
            if key == .enter || key == .space, !oneKey || ContinuousClock.now - feedbackAt >= Self.typeAhead { ask(index + 1) }
            return true
        case .question:
            guard let question else { return true }
            switch question.mode {
            case .choice:
                if key == .character("q") { phase = .results; return true }
                if case .character(let c) = key, let n = c.wholeNumberValue, (1...question.options.count).contains(n) { submit(String(n)) }
                if case .character(let c) = key, let n = Self.letters.firstIndex(of: c), n < question.options.count { submit(String(n + 1)) }
            case .truefalse:
                if key == .character("q") { phase = .results; return true }
                if case .character(let c) = key, "tfyn".contains(c) { submit(String(c)) }
            case .match:
                if key == .character("q") { phase = .results; return true }
                if case .character(let c) = key, let n = c.wholeNumberValue, (1...pairs.count).contains(n) { pendingNumber = n - 1 }
                if case .character(let c) = key, let letter = Self.letters.firstIndex(of: c), letter < question.options.count {
                    // A letter alone goes to the first question still unpaired.
                    if let n = pendingNumber ?? pairs.firstIndex(where: { $0 == nil }) { pairs[n] = letter }
                    pendingNumber = nil
                }
                if key == .backspace, let last = pairs.lastIndex(where: { $0 != nil }) { pairs[last] = nil }
                if key == .enter, !pairs.contains(where: { $0 == nil }) {
                    submit(pairs.enumerated().map { "\($0.offset + 1)\(Self.letters[$0.element ?? 0])" }.joined(separator: " "))
                }
            case .typed, .explain:
                switch key {
                case .character(let c): input.append(c)
                case .space: input.append(" ")
                case .backspace: if !input.isEmpty { input.removeLast() }
                case .enter: submit(input)
                case .escape: phase = .results
                default: break
                }
            }
            return true
        }
    }

    private func draw() {
        let (width, height) = Terminal.size
        var lines: [String] = []
        let total = round.questions.count
        var status = "Quiz · \(round.mode.rawValue) · question \(min(index + 1, total)) of \(total) · \(round.score.points) points"
        if round.score.streak > 1 { status += " · \(round.score.streak) in a row" }
        if phase == .question {
            let seconds = elapsed / 1000
            status += round.timed.map { " · \(max(0, $0 - seconds)) s left" } ?? " · \(seconds) s"
        }
        lines.append(bold(status))
        lines.append("")
        var footer = ""
        switch phase {
        case .question, .feedback:
            guard let question else { break }
            let text = QuizRound.lines(question).lines
            for line in text { lines += wrap(line, width: width) }
            if question.mode == .match {
                lines.append("")
                lines.append("Pairs: " + pairs.enumerated().map { "\($0.offset + 1)→" + ($0.element.map { String(Self.letters[$0]) } ?? "?") }.joined(separator: " ")
                             + (pendingNumber.map { "   (\($0 + 1) → which letter?)" } ?? ""))
            }
            if question.mode == .typed || question.mode == .explain {
                lines.append("")
                lines += wrap("> " + input + (phase == .question ? "▏" : ""), width: width)
            }
            if phase == .feedback {
                // The verdict first, in colour, then what the right answer was.
                lines.append("")
                if let verdict = feedback.last { lines.append(verdictLine(verdict)) }
                for line in feedback.dropLast() { lines += wrap(line, width: width) }
                footer = "Enter: next question · q: results"
            } else {
                footer = switch question.mode {
                case .choice: "1-4 or a-d: answer · q: results"
                case .truefalse: "t: true · f: false · q: results"
                case .match: "a number, then a letter: pair them · Backspace: undo · Enter: check · q: results"
                case .typed, .explain: "type, then Enter · Esc: results"
                }
            }
        case .results:
            lines += round.summary(graded: nil).filter { !$0.isEmpty && !$0.hasPrefix("(later:") }.flatMap { wrap($0, width: width) }
            footer = round.missed.isEmpty ? "q or Enter: quit" : "r: review the cards missed now · q or Enter: quit"
        }
        lines = Array(lines.prefix(max(1, height - 2)))
        while lines.count < height - 1 { lines.append("") }
        lines.append(dim(footer))
        var frame = "\u{1B}[H"
        for (i, line) in lines.prefix(height).enumerated() {
            frame += TerminalText.clip(Output.safe(line), to: width) + "\u{1B}[0m\u{1B}[K" + (i < min(lines.count, height) - 1 ? "\r\n" : "")
        }
        Terminal.write(frame + "\u{1B}[J")
    }

    /// `text` cut into lines of at most `width` columns at spaces (a longer word is clipped).
    private func wrap(_ text: String, width: Int) -> [String] {
        // The indentation stays, on the lines that follow too.
        let indent = String(text.prefix { $0 == " " })
        var out: [String] = [], line = indent
        for word in text.dropFirst(indent.count).split(separator: " ") {
            let candidate = line == indent || line.isEmpty ? line + word : line + " " + word
            if TerminalText.width(candidate) > width, line != indent {
                out.append(line)
                line = indent + word
            } else {
                line = candidate
            }
        }
        out.append(line)
        return out
    }

    /// The verdict in bold, green when right, red when wrong, yellow when in part.
    private func verdictLine(_ verdict: String) -> String {
        let right = round.results.last?.right ?? false
        let some = round.results.last?.perItem.contains(true) ?? false
        let mark = right ? "✓ " : "✗ "
        guard color else { return mark + TerminalText.visible(verdict) }
        return (right ? "\u{1B}[1;32m" : some ? "\u{1B}[1;33m" : "\u{1B}[1;31m") + mark + TerminalText.visible(verdict) + "\u{1B}[0m"
    }

    private func bold(_ s: String) -> String { color ? "\u{1B}[1m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
    private func dim(_ s: String) -> String { color ? "\u{1B}[2m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
}
