import QuireNetwork
import QuireModel
import QuireSupport
import QuireSystem

/// A language model cards can be asked of: instructions and a prompt in, its reply's text out.
/// The rules (``CardGenerator``) are the default and need none; ``ChatModel`` (a server on this
/// machine) is one.
public protocol LanguageModel: Sendable {
    func complete(system: String, user: String) throws -> String
}

extension ChatModel: LanguageModel {}

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
    public static func propose(_ sentences: [SourceSentence], title: String, model: any LanguageModel, statistics: TermStatistics,
                               existing: Set<String> = [], tested: Set<String> = [],
                               options: CardGenerator.Options = .init()) -> (cards: [CardProposal], problem: String?) {
        var problem: String?
        var fromModel: [CardProposal] = []
        if !sentences.isEmpty {
            do {
                let reply = try model.complete(system: instructions, user: prompt(sentences, title: title, formats: options.formats))
                let (cards, rejected) = parse(reply, sentences: sentences)
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
    public static func propose(notes: [(note: Note, bytes: [UInt8])], model: any LanguageModel, statistics: TermStatistics,
                               existing: Set<String> = [], options: CardGenerator.Options = .init()) -> [(cards: [CardProposal], problem: String?)] {
        var seen = existing
        return notes.map { note, bytes in
            let result = propose(NoteProse.sentences(of: note, bytes: bytes), title: note.title, model: model, statistics: statistics,
                                 existing: seen, tested: CardGenerator.testedTerms(of: note), options: options)
            for card in result.cards { seen.insert(CardGenerator.normalized(card.front)) }
            return result
        }
    }
}
