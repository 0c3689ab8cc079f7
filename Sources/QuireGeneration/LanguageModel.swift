import QuireNetwork
import QuireModel
import QuireSupport
import QuireSystem

/// A language model cards can be asked of: instructions and a prompt in, its reply's text out.
/// The rules (``CardGenerator``) are the default and need none; ``ChatModel`` (a server on this
/// machine) is one.
public protocol LanguageModel: Sendable {
    func complete(system: String, user: String) throws -> String
    /// A reply to a conversation (worked examples as earlier turns).
    func complete(messages: [(role: String, content: String)]) throws -> String
}

extension LanguageModel {
    /// A conversation as one exchange: the system turn as instructions, the others as the prompt.
    public func complete(messages: [(role: String, content: String)]) throws -> String {
        try complete(system: messages.filter { $0.role == "system" }.map(\.content).joined(separator: "\n"),
                     user: messages.filter { $0.role != "system" }.map { "\($0.role): \($0.content)" }.joined(separator: "\n"))
    }
}

extension ChatModel: LanguageModel {
    public func complete(messages: [(role: String, content: String)]) throws -> String { try exchange(messages: messages).text }
}

/// Cards asked of a language model, never trusted: its reply must be the JSON asked for, every
/// card must come from a sentence of the note it names and say only what that sentence says, and
/// pass the rules' filters; what fails is left out, and when nothing of the reply holds (or the
/// model fails, is slow or is not there), the rules' cards are proposed alone, with the reason.
public enum ModelCards {
    /// The instructions the model gets.
    static let instructions = """
        You write flashcards from a student's note. Use only facts stated in the numbered sentences; \
        never add knowledge. Each card must make sense without the note (no "it", "this", "the above"). \
        Reply with JSON only, in this shape: {"cards": [{"format": "qa" | "definition" | "cloze", \
        "front": "...", "back": "...", "sentence": N}]}. For qa, front is a question ending in "?" and \
        back its short answer; for definition, front is the term and back its definition; for cloze, \
        front is sentence N copied exactly with one key term marked {{c1::term}}, and back is that term. \
        "sentence" is the number of the sentence the card comes from. At most 15 cards.
        """

    /// How a model is asked for cards.
    public enum Style: Sendable {
        /// The whole note at once, cards back as JSON (a model of some billions of parameters).
        case note
        /// One sentence at a time after worked examples, a question and answer back as two lines
        /// (a small model on this machine, which neither keeps a whole note in mind nor writes JSON).
        case sentence
    }

    /// The worked examples a small model sees before each sentence.
    static let examples: [(sentence: String, question: String, answer: String)] = [
        ("Photosynthesis converts light energy into chemical energy stored in glucose.",
         "What does photosynthesis convert light energy into?", "Chemical energy stored in glucose"),
        ("The Treaty of Versailles was signed in 1919.", "When was the Treaty of Versailles signed?", "1919"),
    ]

    /// The most sentences of a note a small model is asked about.
    static let sentencesAsked = 24

    /// The conversation asking for one sentence's card.
    static func sentenceConversation(_ sentence: String) -> [(role: String, content: String)] {
        var messages: [(role: String, content: String)] = [("system", "Turn the sentence into a question and its short answer, both taken from the sentence.")]
        for example in examples {
            messages.append(("user", "Sentence: " + example.sentence))
            messages.append(("assistant", "Q: \(example.question)\nA: \(example.answer)"))
        }
        messages.append(("user", "Sentence: " + sentence))
        return messages
    }

    /// The question and answer of a `Q: … / A: …` reply, or nil.
    static func questionAndAnswer(_ reply: String) -> (question: String, answer: String)? {
        var question: String?, answer: String?
        for line in reply.split(whereSeparator: \.isNewline) {
            let text = line.trimmingSpaces()
            if text.hasPrefix("Q:"), question == nil { question = clean(String(text.dropFirst(2))) }
            else if text.hasPrefix("A:"), question != nil, answer == nil { answer = clean(String(text.dropFirst(2))) }
        }
        guard let question, let answer, question.hasSuffix("?"), !answer.isEmpty else { return nil }
        return (question, answer)
    }

    /// Cards asked of a small model sentence by sentence (those worth a card by their length:
    /// 6 to 60 words, at most ``sentencesAsked``), each held to the sentence it came from.
    static func perSentence(_ sentences: [SourceSentence], model: any LanguageModel) throws -> (cards: [CardProposal], rejected: [String]) {
        var cards: [CardProposal] = [], rejected: [String] = []
        let asked = sentences.filter { (6...60).contains($0.text.split(separator: " ").count) }.prefix(sentencesAsked)
        for source in asked {
            let reply = try model.complete(messages: sentenceConversation(source.text))
            guard let (question, answer) = questionAndAnswer(reply) else {
                rejected.append("line \(source.line): not a question and its answer")
                continue
            }
            let proposal = CardProposal(format: .qa, front: question, back: answer, line: source.line, headingPath: source.headingPath,
                                        rule: "model.qa", score: 0.95)
            if let problem = ungrounded(proposal, in: source, sentences: sentences) ?? restated(proposal) {
                rejected.append("line \(source.line): \(problem)")
                continue
            }
            cards.append(proposal)
        }
        return (cards, rejected)
    }

    /// Why a card's answer only repeats its question (or the answer is the whole sentence the
    /// question already gives away), or nil.
    static func restated(_ card: CardProposal) -> String? {
        let front = card.front.lowercased()
        for phrase in ["the sentence", "this sentence", "the passage", "the text", "this section", "the author", "the opposite of"]
        where front.contains(phrase) {
            return "its question is about the note, not its subject (\(phrase))"
        }
        let asked = Set(TermStatistics.contentWords(card.front))
        let answer = TermStatistics.contentWords(card.back)
        guard !answer.isEmpty else { return "an empty answer" }
        let new = answer.filter { !asked.contains($0) }
        return new.isEmpty ? "its answer only repeats its question" : nil
    }

    /// The user's message: the note's title and its sentences, numbered from 1, with the formats wanted.
    public static func prompt(_ sentences: [SourceSentence], title: String, formats: Set<CardProposal.Format>) -> String {
        var text = "Note: \(title)\nFormats: \(formats.map(\.rawValue).sorted().joined(separator: ", "))\n\n"
        for (k, s) in sentences.enumerated() { text += "[\(k + 1)] \(s.text)\n" }
        return text
    }

    /// The most characters of a card's side taken from a reply.
    static let longestSide = 600

    /// The cards of a reply that hold, and why each other was left out.
    public static func parse(_ reply: String, sentences: [SourceSentence]) -> (cards: [CardProposal], rejected: [String]) {
        // The JSON object in the reply (a model may wrap it in a code fence or words).
        guard let open = reply.firstIndex(of: "{"), let close = reply.lastIndex(of: "}"), open < close,
              let json = try? JSONValue(parsing: Array(reply[open...close].utf8)), case .object(let fields) = json,
              case .array(let items)? = fields.first(where: { $0.0 == "cards" })?.1
        else { return ([], ["the reply is not the JSON asked for"]) }
        var cards: [CardProposal] = [], rejected: [String] = []
        for (k, item) in items.prefix(100).enumerated() {
            guard case .object(let card) = item,
                  case .string(let formatName)? = card.first(where: { $0.0 == "format" })?.1,
                  let format = CardProposal.Format(rawValue: formatName),
                  case .string(let rawFront)? = card.first(where: { $0.0 == "front" })?.1,
                  case .string(let rawBack)? = card.first(where: { $0.0 == "back" })?.1,
                  case .int(let number)? = card.first(where: { $0.0 == "sentence" })?.1,
                  number >= 1, number <= sentences.count
            else { rejected.append("card \(k + 1): not in the shape asked for"); continue }
            let front = clean(rawFront), back = clean(rawBack)
            let source = sentences[number - 1]
            let proposal = CardProposal(format: format, front: front, back: back, line: source.line, headingPath: source.headingPath,
                                        rule: "model.\(format.rawValue)", score: 0.95)
            if let problem = ungrounded(proposal, in: source, sentences: sentences) {
                rejected.append("card \(k + 1): \(problem)")
                continue
            }
            cards.append(proposal)
        }
        return (cards, rejected)
    }

    /// Why a model's card does not say only what its sentence says, or nil.
    static func ungrounded(_ card: CardProposal, in source: SourceSentence, sentences: [SourceSentence]) -> String? {
        guard !card.front.isEmpty, !card.back.isEmpty else { return "an empty side" }
        switch card.format {
        case .cloze:
            let shown = CardProposal.clozeShown(card.front)
            guard card.front.components(separatedBy: "{{c").count == 2, card.front.contains("{{c1::"),
                  CardGenerator.normalized(shown) == CardGenerator.normalized(source.text)
                    || CardGenerator.normalized(shown) == CardGenerator.normalized(CardGenerator.standingAlone(source.text))
            else { return "not its sentence with one deletion" }
            guard CardGenerator.normalized(CardGenerator.clozeDeletion(card.front) ?? "") == CardGenerator.normalized(card.back) else {
                return "its answer is not the deleted text"
            }
        case .qa, .definition:
            // The answer's words are the sentence's (or its paragraph's).
            let block = sentences.filter { $0.block == source.block }.map(\.text).joined(separator: " ")
            let words = Set(EnglishWords.words(block))
            let missing = TermStatistics.contentWords(card.back).filter { !words.contains($0) }
            if !missing.isEmpty { return "its answer says what the note does not (\(missing.prefix(3).joined(separator: ", ")))" }
        }
        return CardGenerator.passesHardRules(card) ? nil : "it breaks a rule every card keeps (a dangling reference, a length, card syntax)"
    }

    /// A side as one line of printable text, at most ``longestSide`` characters.
    static func clean(_ text: String) -> String {
        let printable = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80..<0xA0).contains($0.value) || $0 == "\n" || $0 == "\t" })
        return String(printable.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(longestSide))
    }

    /// The cards for one note: the model's that hold, then the rules' (one card per fact, the
    /// model's first), and the reason the model's were not used, if so.
    public static func propose(_ sentences: [SourceSentence], title: String, model: any LanguageModel, style: Style = .note,
                               statistics: TermStatistics, existing: Set<String> = [], tested: Set<String> = [],
                               options: CardGenerator.Options = .init()) -> (cards: [CardProposal], problem: String?) {
        var problem: String?
        var fromModel: [CardProposal] = []
        if !sentences.isEmpty, style == .note || options.formats.contains(.qa) {
            do {
                let (cards, rejected) = switch style {
                case .note: parse(try model.complete(system: instructions, user: prompt(sentences, title: title, formats: options.formats)),
                                  sentences: sentences)
                case .sentence: try perSentence(sentences, model: model)
                }
                fromModel = cards
                if cards.isEmpty { problem = rejected.first.map { "no card of the model's reply holds (\($0))" } ?? "the model proposed no card" }
                else if !rejected.isEmpty { problem = "\(rejected.count) of the model's cards left out (\(rejected[0]))" }
            } catch {
                problem = "the language model failed (\(error)); the rules' cards instead"
            }
        }
        let cards = CardGenerator.propose(sentences, statistics: statistics, existing: existing, tested: tested, options: options, additional: fromModel)
        return (cards, problem)
    }

    /// ``propose(_:title:model:statistics:existing:tested:options:)`` for several notes in order, a
    /// card proposed for one not proposed again for a later one.
    public static func propose(notes: [(note: Note, bytes: [UInt8])], model: any LanguageModel, style: Style = .note, statistics: TermStatistics,
                               existing: Set<String> = [], options: CardGenerator.Options = .init()) -> [(cards: [CardProposal], problem: String?)] {
        var seen = existing
        return notes.map { note, bytes in
            let result = propose(NoteProse.sentences(of: note, bytes: bytes), title: note.title, model: model, style: style, statistics: statistics,
                                 existing: seen, tested: CardGenerator.testedTerms(of: note), options: options)
            for card in result.cards { seen.insert(CardGenerator.normalized(card.front)) }
            return result
        }
    }
}
