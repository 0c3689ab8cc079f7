import Foundation
import QuireModel
import QuireSupport

/// A quiz question built from cards.
public struct QuizQuestion: Sendable, Equatable {
    /// The kinds of question.
    public enum Mode: String, CaseIterable, Sendable {
        /// Four options, one right.
        case choice
        /// A statement, true or false.
        case truefalse
        /// Five questions and their five answers shuffled, to pair.
        case match
        /// The answer typed, graded by ``TypedAnswer``.
        case typed
        /// The card explained in one's own words, scored by ``Explanation``.
        case explain
    }

    public var mode: Mode
    /// The cards asked (five for match, else one).
    public var items: [QuizItem]
    /// choice: the four options; match: the answers in the order shown.
    public var options: [String] = []
    /// choice: the right option's index; truefalse: 1 when the statement is true, else 0.
    public var correct = 0
    /// truefalse: the answer the statement gives (the right one or a wrong one).
    public var statedAnswer = ""
    /// match: for each item, the index in ``options`` of its answer.
    public var pairing: [Int] = []

    /// truefalse: the statement, a cloze card's sentence with the blank filled, else the question
    /// and the answer given.
    public var statement: String {
        guard let item = items.first else { return "" }
        if item.kind == .cloze, item.prompt.components(separatedBy: "____").count == 2 {
            return item.prompt.replacingOccurrences(of: "____", with: statedAnswer)
        }
        return item.prompt + " — " + statedAnswer
    }
}

/// Builds quiz questions from cards, deterministically from a seed. Distractors (choice, the
/// false statements of true/false) are other cards' answers from the same deck and kind — its
/// top-level deck only when the deck is too small —, never the answer again nor close to it (normalised text,
/// edit distance, shared words), ranked by how plausible they look beside it: answers the user
/// once typed wrongly for this card first, then nearest in meaning (when `similarity` knows the
/// two cards; nearer than ``synonym`` is a synonym, never offered), then alike in length and form (a number for a number, a name for a name, as many
/// words). The right answer's place among the options by length is drawn evenly, so the longest
/// option is the right one about one time in four.
public struct QuizBuilder {
    public let items: [QuizItem]
    var random: SplitMix64
    let similarity: (CardID, CardID) -> Double?

    /// Each of ``items`` prepared once.
    let prepared: [Prepared]

    /// Told the cards whose meanings are about to be asked, so that they can be computed together.
    let prepareMeanings: ([CardID]) -> Void

    public init(items: [QuizItem], seed: UInt64, similarity: @escaping (CardID, CardID) -> Double? = { _, _ in nil },
                prepareMeanings: @escaping ([CardID]) -> Void = { _ in }) {
        self.items = items
        self.prepareMeanings = prepareMeanings
        prepared = items.map(Prepared.init)
        random = SplitMix64(seed: seed)
        self.similarity = similarity
    }

    /// Why a card could not be asked.
    public enum Skip: Sendable, Equatable, CustomStringConvertible {
        case tooFewAnswers(deck: DeckPath)
        case emptyAnswer

        public var description: String {
            switch self {
            case .tooFewAnswers(let deck): "deck \(deck) has too few other answers to build options from (3 needed, unlike the right one)"
            case .emptyAnswer: "the card has no answer text"
            }
        }
    }

    /// Up to `count` questions of `mode` on the cards `asking` (default: all; each card asked once,
    /// in an order drawn from the seed; match questions take five cards each), and the cards that
    /// could not be asked, with why. Every card of ``items`` may lend its answer as a distractor.
    public mutating func questions(_ mode: QuizQuestion.Mode, count: Int, asking: [QuizItem]? = nil)
        -> (questions: [QuizQuestion], skipped: [(QuizItem, Skip)]) {
        let asked = asking ?? items
        var order = Array(asked.indices)
        order.shuffle(using: &random)
        var out: [QuizQuestion] = [], skipped: [(QuizItem, Skip)] = []
        if mode == .match {
            var group: [QuizItem] = []
            for k in order where out.count < count {
                let item = asked[k]
                guard !AnswerText.normalized(item.answer).isEmpty else { skipped.append((item, .emptyAnswer)); continue }
                if group.contains(where: { Self.tooClose($0.answer, item.answer) || Self.tooClose($0.prompt, item.prompt) }) { continue }
                group.append(item)
                if group.count == 5 {
                    var shown = Array(0..<5)
                    shown.shuffle(using: &random)
                    var question = QuizQuestion(mode: .match, items: group)
                    question.options = shown.map { group[$0].answer }
                    question.pairing = (0..<5).map { k in shown.firstIndex(of: k) ?? 0 }
                    out.append(question)
                    group = []
                }
            }
            for item in group { skipped.append((item, .tooFewAnswers(deck: item.deck))) }
            return (out, skipped)
        }
        for k in order where out.count < count {
            let item = asked[k]
            guard !AnswerText.normalized(item.answer).isEmpty else { skipped.append((item, .emptyAnswer)); continue }
            switch mode {
            case .choice:
                guard let wrong = distractors(for: item, count: 3) else { skipped.append((item, .tooFewAnswers(deck: item.deck))); continue }
                var question = QuizQuestion(mode: .choice, items: [item])
                var options = wrong + [item.answer]
                options.shuffle(using: &random)
                question.options = options
                question.correct = options.firstIndex(of: item.answer) ?? 0
                out.append(question)
            case .truefalse:
                var question = QuizQuestion(mode: .truefalse, items: [item])
                if random.next() % 2 == 0 {
                    question.correct = 1
                    question.statedAnswer = item.answer
                } else {
                    guard let wrong = distractors(for: item, count: 1)?.first else {
                        skipped.append((item, .tooFewAnswers(deck: item.deck)))
                        continue
                    }
                    question.statedAnswer = wrong
                }
                out.append(question)
            case .typed, .explain:
                out.append(QuizQuestion(mode: mode, items: [item]))
            case .match:
                break
            }
        }
        return (out, skipped)
    }

    /// `count` wrong answers for `item`, the most plausible first; nil when the cards cannot give that many.
    public mutating func distractors(for item: QuizItem, count: Int) -> [String]? {
        // The same deck and kind; wider (any kind but cloze's partner, then the deck's top-level
        // deck) only when too few — never another subject. An answer of as many blanks, and of the
        // same way round (a reversed pair's other way is another language), at every width.
        let me = Prepared(item)
        let items = self.items, prepared = self.prepared
        let alike: (Int) -> Bool = { prepared[$0].blanks == me.blanks && items[$0].direction == item.direction }
        let sameKind: (Int) -> Bool = { (items[$0].kind == .cloze) == (item.kind == .cloze) && alike($0) }
        let scopes: [(Int) -> Bool] = [
            { items[$0].deck == item.deck && items[$0].kind == item.kind && alike($0) },
            { items[$0].deck == item.deck && sameKind($0) },
            { items[$0].deck.components.first == item.deck.components.first && sameKind($0) },
        ]
        let n = item.answer.count
        var admitted: [(text: String, words: [String], score: Double)] = []
        var longer = 0, shorter = 0
        func admit(_ text: String, _ words: [String], score: Double) {
            guard !Self.tooClose(words, me.answerWords), !Self.tooClose(words, me.promptWords),
                  !admitted.contains(where: { Self.tooClose($0.words, words) }) else { return }
            admitted.append((text, words, score))
            if text.count >= n { longer += 1 }
            if text.count <= n { shorter += 1 }
        }
        for wrong in item.wrongAnswers where !wrong.allSatisfy(\.isWhitespace) { admit(wrong, AnswerText.words(wrong), score: 100) }
        // Each width's cards by plausibility; enough taken on each side of the answer's length.
        var considered = Set<Int>()
        for scope in scopes {
            var candidates: [(index: Int, score: Double)] = []
            for k in items.indices where items[k].id != item.id && !considered.contains(k) && scope(k) {
                considered.insert(k)
                candidates.append((k, plausibility(prepared[k], meaning: nil, beside: me)))
            }
            candidates.sort { ($0.score, -$0.index) > ($1.score, -$1.index) }
            // Meaning (the costly part: answers embedded on demand) re-ranks the most plausible by
            // length and form; nearly the same meaning is a synonym, no wrong answer.
            let head = min(candidates.count, Self.weighedByMeaning)
            prepareMeanings([item.id] + candidates.prefix(head).map { items[$0.index].id })
            var weighed: [(index: Int, score: Double)] = []
            for candidate in candidates.prefix(head) {
                let meaning = similarity(item.id, items[candidate.index].id)
                if let meaning, meaning >= Self.synonym { continue }
                weighed.append((candidate.index, candidate.score + (meaning.map { 3 * $0 + 100 } ?? 0)))
            }
            weighed.sort { ($0.score, -$0.index) > ($1.score, -$1.index) }
            candidates = weighed + candidates.dropFirst(head)
            for candidate in candidates {
                if longer >= count, shorter >= count { break }
                let text = items[candidate.index].answer
                if text.count > n, longer >= count { continue }
                if text.count < n, shorter >= count { continue }
                admit(text, prepared[candidate.index].answerWords, score: candidate.score)
            }
            if admitted.count >= count { break }
        }
        guard admitted.count >= count else { return nil }
        admitted.sort { $0.score > $1.score }
        // How many options at least as long as the answer, drawn evenly (so a test-taker who picks
        // the longest is right about one time in four); each side the most plausible first.
        let longerWanted = Int(random.next() % UInt64(count + 1))
        let equal = admitted.filter { $0.text.count == n }
        let longerOnes = admitted.filter { $0.text.count > n } + equal, shorterOnes = admitted.filter { $0.text.count < n } + equal
        var chosen = Array(longerOnes.prefix(longerWanted).map(\.text))
        for option in shorterOnes where chosen.count < count && !chosen.contains(option.text) { chosen.append(option.text) }
        for extra in admitted where chosen.count < count && !chosen.contains(extra.text) { chosen.append(extra.text) }
        return Array(chosen.prefix(count))
    }

    /// What the builder keeps of each card: its answer's and question's words normalised, its
    /// answer's form and number of blanks.
    struct Prepared {
        var answerWords: [String]
        var promptWords: [String]
        var form: Form
        var length: Int
        var blanks: Int

        init(_ item: QuizItem) {
            answerWords = AnswerText.words(item.answer)
            promptWords = AnswerText.words(item.prompt)
            form = QuizBuilder.form(item.answer)
            length = item.answer.count
            blanks = item.answer.components(separatedBy: " … ").count
        }
    }

    /// How plausible `other`'s answer looks as a wrong option for `item`: meaning (the cosine of
    /// the two answers' embeddings, when known), length, form.
    func plausibility(_ other: Prepared, meaning: Double?, beside item: Prepared) -> Double {
        var score = -abs(log(Double(max(1, other.length)) / Double(max(1, item.length))))
        score += 0.6 * item.form.similarity(to: other.form)
        if let meaning { score += 3 * meaning }
        return score
    }

    /// Two answers this near in meaning (cosine) say the same thing.
    static let synonym = 0.92

    /// Answers longer than this (in characters) are not compared by edit distance.
    static let longestCompared = 600

    /// How many candidates, the most plausible by length and form, are weighed by meaning.
    static let weighedByMeaning = 24

    /// What an answer looks like.
    struct Form: Equatable {
        var numeric: Bool, capitalised: Bool, words: Int, sentence: Bool, digits: Bool

        func similarity(to o: Form) -> Double {
            var same = 0.0
            if numeric == o.numeric { same += 1 }
            if capitalised == o.capitalised { same += 1 }
            if words == o.words { same += 1 }
            if sentence == o.sentence { same += 1 }
            if digits == o.digits { same += 1 }
            return same / 5
        }
    }

    static func form(_ text: String) -> Form {
        let words = text.split(whereSeparator: \.isWhitespace)
        let bucket = words.count <= 1 ? 1 : words.count <= 3 ? 2 : words.count <= 8 ? 3 : 4
        return Form(numeric: !words.isEmpty && words.allSatisfy { $0.first?.isNumber == true || $0.count <= 3 },
                    capitalised: text.first?.isUppercase == true, words: bucket,
                    sentence: text.hasSuffix(".") || text.hasSuffix("!") || text.hasSuffix("?"), digits: text.contains(where: \.isNumber))
    }

    /// Whether two answers say the same thing: equal once normalised, within a small edit
    /// distance, one's words inside the other's, or mostly the same words.
    public static func tooClose(_ x: String, _ y: String) -> Bool { tooClose(AnswerText.words(x), AnswerText.words(y)) }

    /// ``tooClose(_:_:)`` of answers already made words.
    static func tooClose(_ a: [String], _ b: [String]) -> Bool {
        let ja = a.joined(separator: " "), jb = b.joined(separator: " ")
        if ja == jb { return true }
        let shorter = min(ja.count, jb.count)
        // The edit distance is quadratic: long answers are compared by their words alone.
        if shorter >= 4, max(ja.count, jb.count) <= Self.longestCompared,
           EditDistance.between(ja, jb, limit: max(1, shorter / 5)) <= max(1, shorter / 5) { return true }
        let sa = Set(a), sb = Set(b)
        guard !sa.isEmpty, !sb.isEmpty else { return false }
        if (sa.isSubset(of: sb) || sb.isSubset(of: sa)) && min(sa.count, sb.count) * 2 >= max(sa.count, sb.count) { return true }
        return Double(sa.intersection(sb).count) / Double(sa.union(sb).count) >= 0.75
    }
}
