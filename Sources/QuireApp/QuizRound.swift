import Foundation
import QuireModel
import QuireStudy
import QuireQuiz
import QuireSupport

/// A quiz under way, whatever asks it (the terminal's line-by-line session or its screen, a page):
/// the questions, how each answer is judged and what is said of it, the score, the results.
public struct QuizRound {
    /// How a question went.
    public struct Result {
        public var right: Bool
        /// For match, each pair; else the one answer.
        public var perItem: [Bool]
        public var milliseconds: Int
        public var points: Int
        public var given: String
        /// typed: the verdict; explain: the coverage and the terms missing.
        public var detail: JSONValue = .null
    }

    public let questions: [QuizQuestion]
    public let mode: QuizQuestion.Mode
    public let timed: Int?
    public let clock: StudyClock
    /// Hears each card's result as it is judged (with --grade: recorded as a review then), with
    /// the time of the answer, how long it took, and the answer typed (typed mode).
    public var onAnswer: (QuizItem, Bool, Timestamp, Int, String?) -> Void = { _, _, _, _, _ in }
    public private(set) var results: [Result] = []
    public private(set) var score = QuizScore()

    /// How rare a word is in the vault (explain mode weighs key terms by it).
    public let rarity: (String) -> Double
    /// How near two texts are in meaning (the cosine of their embeddings), with the search model
    /// installed: explanations and typed answers are judged by meaning then.
    public let meaning: ((String, String) -> Double)?

    public init(questions: [QuizQuestion], mode: QuizQuestion.Mode, timed: Int?, clock: StudyClock,
                rarity: @escaping (String) -> Double = { _ in 1 }, meaning: ((String, String) -> Double)? = nil) {
        self.rarity = rarity
        self.meaning = meaning
        self.questions = questions
        self.mode = mode
        self.timed = timed
        self.clock = clock
    }

    /// An explanation covering this share of the key terms counts as right (without the search
    /// model; with it, ``MeaningGrade`` judges).
    public static let explainedEnough = MeaningGrade.coveredEnough
    /// A typed answer not in the card's words is right when its meaning is at least this near
    /// (higher than an explanation's: a short answer's embedding is near many wrong ones).
    public static let typedSameMeaning = 0.85

    /// Judges the answer `line` to `question`, answered at `answered` after `milliseconds`: the
    /// result is recorded (score, results, ``onAnswer``) and the lines saying how it went returned.
    public mutating func answer(_ question: QuizQuestion, _ line: String, at answered: Timestamp, milliseconds: Int) -> [String] {
        var said: [String] = []
        var result = judge(question, line.trimmingSpaces(), said: &said)
        result.milliseconds = milliseconds
        if let timed, milliseconds > timed * 1000, result.right {
            result.right = false
            result.perItem = result.perItem.map { _ in false }
            said.append("Time's up: \(milliseconds / 1000) s.")
        }
        let partsRight = result.perItem.filter { $0 }.count
        result.points = score.record(parts: partsRight, of: result.perItem.count, milliseconds: milliseconds)
        let typed = question.mode == .typed ? line.trimmingSpaces() : nil
        for (item, right) in zip(question.items, result.perItem) { onAnswer(item, right, answered, milliseconds, typed) }
        if result.right {
            said.append("Right! +\(result.points)" + (score.streak > 1 ? " (\(score.streak) in a row)" : ""))
        } else if question.mode == .match, partsRight > 0 {
            said.append("\(partsRight) of \(result.perItem.count) pairs right: +\(result.points).")
        } else {
            said.append("Wrong.")
        }
        results.append(result)
        return said
    }

    /// A question's text, line by line, and what answers it.
    public static func lines(_ question: QuizQuestion) -> (lines: [String], prompt: String) {
        let letters = ["a", "b", "c", "d", "e"]
        guard let item = question.items.first else { return ([], "") }
        switch question.mode {
        case .choice:
            return (["Q: " + item.prompt] + question.options.enumerated().map { "  \($0.offset + 1)) \($0.element)" }, "Answer 1-4:")
        case .truefalse:
            return (["True or false? " + question.statement], "Answer t or f:")
        case .match:
            return (["Match each question with its answer:"] + question.items.enumerated().map { "  \($0.offset + 1). \($0.element.prompt)" }
                    + question.options.enumerated().map { "  \(letters[$0.offset])) \($0.element)" }, "Answer like 1c 2a 3e 4b 5d:")
        case .typed:
            return (["Q: " + item.prompt], "Type the answer:")
        case .explain:
            return (["Explain in your own words: " + item.prompt], "Your explanation (one line):")
        }
    }

    /// Judges an answer line; what is to be said of it goes into `said`.
    public func judge(_ question: QuizQuestion, _ line: String, said: inout [String]) -> Result {
        let letters: [Character] = ["a", "b", "c", "d", "e"]
        guard let item = question.items.first else { return Result(right: false, perItem: [], milliseconds: 0, points: 0, given: line) }
        switch question.mode {
        case .choice:
            let lower = line.lowercased()
            let pick = Int(lower).map { $0 - 1 } ?? lower.first.flatMap { letters.firstIndex(of: $0) }
            let right = pick == question.correct
            if !right { said.append("The answer: \(question.correct + 1)) \(item.answer)") }
            return Result(right: right, perItem: [right], milliseconds: 0, points: 0, given: pick.map { question.options.indices.contains($0) ? question.options[$0] : line } ?? line)
        case .truefalse:
            let claims = line.lowercased().first.map { $0 == "t" || $0 == "y" }
            let right = claims == (question.correct == 1)
            if !right { said.append(question.correct == 1 ? "It is true." : "It is false: the answer is " + Self.sentence(item.answer)) }
            return Result(right: right, perItem: [right], milliseconds: 0, points: 0, given: line)
        case .match:
            // Pairs like "1c", "2 a", "3-e"; a line of five letters pairs them in order.
            var chosen = [Int?](repeating: nil, count: question.items.count)
            let compact = line.lowercased().filter { !$0.isWhitespace && $0 != "-" && $0 != "," }
            if compact.count == question.items.count, compact.allSatisfy({ letters.contains($0) }) {
                for (k, c) in compact.enumerated() { chosen[k] = letters.firstIndex(of: c) }
            } else {
                var number: Int?
                for c in compact {
                    if let d = c.wholeNumberValue { number = d - 1 } else if let n = number, chosen.indices.contains(n), let l = letters.firstIndex(of: c) {
                        chosen[n] = l
                        number = nil
                    }
                }
            }
            let per = question.pairing.enumerated().map { chosen[$0.offset] == $0.element }
            let right = per.allSatisfy { $0 }
            if !right {
                said.append("The pairs: " + question.pairing.enumerated().map { "\($0.offset + 1)\(letters[$0.element])" }.joined(separator: " "))
            }
            return Result(right: right, perItem: per, milliseconds: 0, points: 0, given: line)
        case .typed:
            let verdict = TypedAnswer(typed: line, expected: item.answer)
            // Not the answer's words, but its meaning: right, said so.
            if !verdict.isRight, verdict.verdict != .typo, let meaning, !line.isEmpty,
               meaning(line, AnswerText.plainText(item.answer)) >= Self.typedSameMeaning, !MeaningGrade.contradicts(line, item.answer) {
                said.append("Right by meaning; the card says: " + item.answer)
                return Result(right: true, perItem: [true], milliseconds: 0, points: 0, given: line, detail: .string("meaning"))
            }
            let matched = verdict.diff.contains { if case .same(let w) = $0 { !AnswerText.normalized(w).isEmpty } else { false } }
            if verdict.verdict != .correct {
                said.append((verdict.verdict == .typo ? "Almost (a typo): " : "Expected: ") + item.answer)
            }
            if verdict.verdict != .correct, matched {
                said.append("  " + verdict.diff.map { word in
                    switch word {
                    case .same(let w): w
                    case .wrong(let w): "[-\(w)-]"
                    case .missing(let w): "{+\(w)+}"
                    }
                }.joined(separator: " "))
            }
            return Result(right: verdict.isRight, perItem: [verdict.isRight], milliseconds: 0, points: 0, given: line,
                          detail: .string(verdict.verdict.rawValue))
        case .explain:
            let e = Explanation(explanation: line, answer: item.answer, passage: item.passage, rarity: rarity)
            let plain = AnswerText.plainText(item.answer)
            let grade = MeaningGrade(given: line, expected: plain, coverage: e.coverage, similarity: meaning.map { line.isEmpty ? 0 : $0(line, plain) })
            let right = grade.right
            said.append(String(format: "Covered %.0f%% of the key terms", e.coverage * 100)
                        + (grade.similarity.map { String(format: ", %.0f%% near its meaning", max(0, $0) * 100) } ?? "")
                        + (e.missing.isEmpty ? "." : "; missing: " + e.missing.prefix(8).joined(separator: ", ")))
            if grade.contradicts { said.append("It says the opposite of the card.") }
            if !right { said.append("The answer: \(item.answer)") }
            var detail: [(String, JSONValue)] = [("coverage", .double((e.coverage * 1000).rounded() / 1000)), ("missing", .array(e.missing.map(JSONValue.string)))]
            if let similarity = grade.similarity { detail.append(("meaning", .double((similarity * 1000).rounded() / 1000))) }
            detail.append(("contradicts", .bool(grade.contradicts)))
            return Result(right: right, perItem: [right], milliseconds: 0, points: 0, given: line, detail: .object(detail))
        }
    }

    /// `text` ending with a full stop (unless it ends with punctuation already).
    public static func sentence(_ text: String) -> String {
        text.last.map { ".!?…".contains($0) } == true ? text : text + "."
    }

    /// `text` on one line, cut to `limit` characters with an ellipsis.
    static func shortened(_ text: String, _ limit: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }

    /// The cards asked and answered wrongly.
    public var missed: [QuizItem] {
        zip(questions, results).flatMap { q, r in zip(q.items, r.perItem).filter { !$0.1 }.map(\.0) }
    }

    /// The results' lines.
    public func summary(graded: Int?) -> [String] {
        guard !results.isEmpty else { return ["No question answered."] }
        let seconds = results.reduce(0) { $0 + $1.milliseconds } / 1000
        // A match round counts its pairs, each for its card.
        let (right, asked) = mode == .match ? (results.reduce(0) { $0 + $1.perItem.filter { $0 }.count }, results.reduce(0) { $0 + $1.perItem.count })
            : (score.right, results.count)
        var lines = ["", "Score: \(score.points) points · \(right) of \(asked) \(mode == .match ? "pairs " : "")right · longest streak \(score.longestStreak) · "
                     + "\(StudyStats.duration(seconds: seconds)) (\(StudyStats.duration(seconds: seconds / max(1, results.count))) a question)"]
        if let graded { lines.append("Recorded \(Plural.counted(graded, "review")) (right: good, wrong: again).") }
        if !missed.isEmpty {
            lines.append("Missed:")
            for item in missed { lines.append("  \(item.id)  \(Self.shortened(item.prompt, 60)) → \(Self.shortened(item.answer, 60))") }
            lines.append("(later: quire review --cram '" + missed.map { "id:\($0.id)" }.joined(separator: " or ") + "')")
        }
        return lines
    }

    public func json(seed: UInt64, graded: Int) -> JSONValue {
        .object([
            ("mode", .string(mode.rawValue)), ("seed", .string(String(seed))), ("points", .int(score.points)),
            ("right", .int(score.right)), ("asked", .int(results.count)), ("longest_streak", .int(score.longestStreak)), ("graded", .int(graded)),
            ("questions", .array(zip(questions, results).map { q, r in
                var fields: [(String, JSONValue)] = [
                    ("cards", .array(q.items.map { .string($0.id.description) })), ("prompts", .array(q.items.map { .string($0.prompt) })),
                ]
                switch q.mode {
                case .choice: fields += [("options", .array(q.options.map(JSONValue.string))), ("correct", .int(q.correct))]
                case .truefalse: fields += [("statement", .string(q.statement)), ("true", .bool(q.correct == 1))]
                case .match: fields += [("options", .array(q.options.map(JSONValue.string))), ("pairing", .array(q.pairing.map(JSONValue.int)))]
                case .typed, .explain: break
                }
                return .object(fields + [
                    ("right", .bool(r.right)),
                    ("per_card", .array(r.perItem.map(JSONValue.bool))), ("milliseconds", .int(r.milliseconds)), ("points", .int(r.points)),
                    ("given", .string(r.given)), ("expected", .array(q.items.map { .string($0.answer) })), ("detail", r.detail),
                ])
            })),
            ("missed", .array(missed.map { .string($0.id.description) })),
        ])
    }
}
