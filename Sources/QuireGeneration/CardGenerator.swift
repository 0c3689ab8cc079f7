import Foundation
import QuireModel
import QuireSupport

/// Proposes cards from a note's prose by rules: definitions, questions (why, enumerations,
/// causes, a heading's first sentence) and cloze deletions of key terms. It over-generates, then
/// ranks and filters: the answer must be in the source, the question must stand without the note,
/// no trivial deletion, nothing twice, nothing the vault already has. Pure and deterministic.
public enum CardGenerator {
    /// What to generate.
    public struct Options: Sendable, Equatable {
        public var formats: Set<CardProposal.Format> = Set(CardProposal.Format.allCases)
        /// The most cards of each format per note; nil: one per 100 words of the note's prose, and
        /// at least ``minimumPerNote``.
        public var maximum: Int?
        public init(formats: Set<CardProposal.Format> = Set(CardProposal.Format.allCases), maximum: Int? = nil) {
            self.formats = formats
            self.maximum = maximum
        }
    }

    /// The proposals for one note, in the note's order: `existing` is the normalised text of the
    /// vault's cards (``normalized(_:)`` of each side, and of a cloze's text with its deletions
    /// shown), `statistics` the vault's word rarity.
    /// `tested`: the terms the note's own cards already test (``testedTerms(of:)``), not tested again.
    /// `additional`: cards from elsewhere (a language model's), ranked and filtered with the rules'.
    public static func propose(_ sentences: [SourceSentence], statistics: TermStatistics, existing: Set<String> = [],
                               tested: Set<String> = [], options: Options = Options(), additional: [CardProposal] = []) -> [CardProposal] {
        let context = Context(sentences: sentences, statistics: statistics)
        var candidates: [CardProposal] = additional
        // A section of references cites works: nothing in it is a card.
        for sentence in sentences where !sentence.headingPath.contains(where: { referenceHeadings.contains($0.lowercased()) }) {
            candidates += definitions(sentence, context)
            candidates += questions(sentence, context)
            candidates += clozes(sentence, context)
        }
        candidates += keyTermClozes(context)
        // Filters, then the best first; one card per fact (a sentence's answer), per text.
        let maximum = options.maximum ?? max(minimumPerNote, sentences.reduce(0) { $0 + EnglishWords.words($1.text).count } / 100)
        var kept: [CardProposal] = []
        var seen = existing
        var facts: Set<String> = []
        for card in candidates.filter({ options.formats.contains($0.format) && passesHardRules($0) })
            .sorted(by: { $0.score != $1.score ? $0.score > $1.score : ($0.line, $0.rule, $0.front) < ($1.line, $1.rule, $1.front) }) {
            let text = normalized(card.format == .cloze ? CardProposal.clozeShown(card.front) : card.front + " " + card.back)
            let fact = "\(card.line) " + normalized(card.term)
            guard !seen.contains(text), !seen.contains(normalized(card.front)), !facts.contains(fact),
                  !tested.contains(normalized(card.term)) else { continue }
            guard kept.filter({ $0.format == card.format }).count < maximum else { continue }
            seen.insert(text)
            if card.format != .cloze { seen.insert(normalized(card.front)) }
            facts.insert(fact)
            kept.append(card)
        }
        return kept.sorted { ($0.line, $0.format, $0.front) < ($1.line, $1.format, $1.front) }
    }

    /// The most cards of each format a note of under a thousand words of prose is given by default.
    public static let minimumPerNote = 10

    /// Symbols of formulas.
    static let mathSymbols: Set<Character> = ["=", "∈", "∼", "×", "∑", "∏", "∫", "→", "−", "≤", "≥", "⩽", "⩾", "∀", "∂", "√", "|", "∇", "←"]

    /// Headings of sections that list the works cited.
    static let referenceHeadings: Set<String> = ["references", "bibliography", "sources", "works cited", "further reading", "citations", "notes and references"]

    /// The proposals for several notes (`notes`: each note and its file), in order; a card proposed
    /// for one note is not proposed again for a later one. The notes are read side by side, one
    /// per core; the repeats across notes are then taken out in the notes' order.
    public static func propose(notes: [(note: Note, bytes: [UInt8])], statistics: TermStatistics, existing: Set<String> = [],
                               options: Options = Options()) -> [[CardProposal]] {
        let slots = ResultSlots<[CardProposal]>(count: notes.count)
        inParallelChunks(of: notes.count, chunk: 8, concurrency: nil) { range in
            for k in range {
                let (note, bytes) = notes[k]
                slots[k] = propose(NoteProse.sentences(of: note, bytes: bytes), statistics: statistics, existing: existing,
                                   tested: testedTerms(of: note), options: options)
            }
            return true
        }
        var seen: Set<String> = []
        return notes.indices.map { k in
            let cards = (slots.take(k) ?? []).filter { !seen.contains(normalized($0.front)) }
            for card in cards { seen.insert(normalized(card.front)) }
            return cards
        }
    }

    /// What a note's cards test: a definition's term (its other name left off), a question, a
    /// cloze's deletions — normalised.
    public static func testedTerms(of note: Note) -> Set<String> {
        var out: Set<String> = []
        for card in note.cards {
            switch card.kind {
            case .cloze:
                var rest = Substring(card.identityText)
                while let open = rest.range(ofLiteral: "{{c"), let sep = rest[open.upperBound...].range(ofLiteral: "::"),
                      let close = rest[sep.upperBound...].range(ofLiteral: "}}") {
                    let inside = rest[sep.upperBound..<close.lowerBound]
                    out.insert(normalized(String(inside.components(separatedBy: "::").first ?? String(inside))))
                    rest = rest[close.upperBound...]
                }
            default:
                out.insert(normalized(String(card.front.prefix { $0 != "(" })))
            }
        }
        return out
    }

    /// The normalised texts of cards a vault has (their fronts, and a cloze's text), which are
    /// not proposed again.
    public static func existingTexts(of notes: some Sequence<Note>) -> Set<String> {
        var out: Set<String> = []
        for note in notes {
            for card in note.cards {
                out.insert(normalized(card.front))
                if card.kind == .cloze { out.insert(normalized(card.back)) }
            }
        }
        return out
    }

    /// Text compared for duplicates: lower-cased words, one space apart.
    public static func normalized(_ text: String) -> String { EnglishWords.words(text).joined(separator: " ") }

    /// What the rules share about a note.
    struct Context {
        var sentences: [SourceSentence]
        var statistics: TermStatistics
        /// Words the note writes capitalised inside a sentence (names), lower-cased.
        var names: Set<String> = []
        /// The first block under each heading path (a section's opening sentence is asked by its heading).
        var firstBlock: [[String]: Int] = [:]

        init(sentences: [SourceSentence], statistics: TermStatistics) {
            self.sentences = sentences
            self.statistics = statistics
            for s in sentences {
                if firstBlock[s.headingPath].map({ s.block < $0 }) ?? true { firstBlock[s.headingPath] = s.block }
                for word in s.text.split(separator: " ").dropFirst() {
                    let w = word.filter { $0.isLetter || $0 == "-" }
                    if let first = w.first, first.isUppercase { names.insert(w.lowercased()) }
                }
            }
        }

        /// `text` with its first letter lower-cased unless it begins a name (or an acronym).
        func lowerFirst(_ text: String) -> String {
            guard let first = text.split(separator: " ").first else { return text }
            let w = first.filter { $0.isLetter || $0 == "-" }
            if names.contains(w.lowercased()) || (w.count > 1 && w.allSatisfy(\.isUppercase)) { return text }
            // A heading in title case (`Support Vector Machines`) is lower-cased whole.
            let words = text.split(separator: " ")
            if words.count > 1, words.allSatisfy({ $0.first?.isUppercase == true }), !words.contains(where: { $0.dropFirst().contains(where: \.isUppercase) }) {
                return words.map { $0.lowercased() }.joined(separator: " ")
            }
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    // MARK: - Hard rules

    /// Words that make a question lean on text around it.
    static let dangling: Set<String> = ["it", "this", "these", "those", "they", "them", "he", "she", "his", "her", "its", "their",
                                        "such", "that", "we", "our", "you", "here", "above", "below", "latter", "former", "let"]
    static let danglingPhrases = ["the above", "the following", "figure", "table ", "as shown", "this chapter", "this section", "[link]",
                                  "next section", "previous section", "the previous", "see ", "shown in", "listed below", "example below"]

    /// Whether `text` leans on the note around it: it starts with a pronoun or points at a figure
    /// or a passage.
    static func leansOnContext(_ text: String) -> Bool {
        let lower = text.lowercased()
        let first = EnglishWords.words(lower).first ?? ""
        if dangling.contains(first) { return true }
        if danglingPhrases.contains(where: { lower.contains($0) }) { return true }
        if lower.contains(" these ") || lower.contains(" those ") { return true }
        return false
    }

    /// The rules no card may break: an answer, a question that differs from it and stands alone,
    /// lengths within limits, no card syntax inside, a deletion that is no common word.
    static func passesHardRules(_ card: CardProposal) -> Bool {
        let front = card.format == .cloze ? CardProposal.clozeShown(card.front) : card.front
        let frontWords = EnglishWords.words(front).count, backWords = EnglishWords.words(card.back).count
        guard backWords >= 1, frontWords >= 1, normalized(front) != normalized(card.back) else { return false }
        guard !leansOnContext(front) else { return false }
        // A back that is mostly a formula from a PDF's text layer (stacked limits and fractions read
        // as a line) is no answer a student can read.
        guard card.format == .cloze || card.back.filter({ mathSymbols.contains($0) }).count < 4 else { return false }
        if card.format == .qa {
            // A pronoun in the question (after its first words) names something only the note shows.
            var asked = front
            if asked.hasPrefix("Why is it that ") { asked = String(asked.dropFirst(15)) }
            let words = EnglishWords.words(asked)
            if words.dropFirst(asked == front ? 1 : 0).contains(where: { ["it", "this", "these", "those", "they", "them", "he", "she", "its", "their", "his", "her"].contains($0) }) {
                return false
            }
        }
        for text in [card.front, card.back] where text.contains("==") || text.contains(" ::") || text.contains(":: ") || text.contains("{{") && card.format != .cloze {
            return false
        }
        if card.back.contains("{{") || card.back.contains("}}") { return false }
        switch card.format {
        case .cloze:
            guard frontWords <= 45, backWords <= 6, card.back.contains(where: \.isLetter) || card.back.contains(where: \.isNumber),
                  !EnglishWords.common.contains(card.back.lowercased()), card.back.count >= 2 else { return false }
        case .qa:
            guard frontWords <= 30, backWords <= 45, card.front.hasSuffix("?") else { return false }
        case .definition:
            guard frontWords <= 8, backWords >= 3, backWords <= 45, !card.front.hasSuffix("?") else { return false }
        }
        // An answer that points elsewhere or breaks off.
        if card.format != .cloze, card.back.hasSuffix(":") || danglingPhrases.contains(where: { card.back.lowercased().contains($0) }) { return false }
        return true
    }
}

extension CardGenerator {
    /// The text of a cloze's first deletion (`{{c1::x}}` or `{{c1::x::hint}}` → `x`), or nil.
    static func clozeDeletion(_ text: String) -> String? {
        guard let open = text.range(ofLiteral: "{{c"), let sep = text[open.upperBound...].range(ofLiteral: "::"),
              let close = text[sep.upperBound...].range(ofLiteral: "}}") else { return nil }
        return text[sep.upperBound..<close.lowerBound].components(separatedBy: "::").first
    }
}

extension CardProposal {
    /// A cloze's text with its deletions shown (`{{c1::x}}` → `x`).
    public static func shownText(_ text: String) -> String { clozeShown(text) }

    /// What the card tests, for telling two cards of one fact apart: a definition's term (its
    /// other name left out), a cloze's deletion, a question.
    var term: String {
        switch format {
        case .definition: String(front.prefix { $0 != "(" })
        case .cloze: back
        case .qa: front
        }
    }

    /// A cloze's text with its deletions shown (`{{c1::x}}` → `x`).
    static func clozeShown(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(ofLiteral: "{{c") {
            out += rest[..<open.lowerBound]
            guard let sep = rest[open.upperBound...].range(ofLiteral: "::"), let close = rest[sep.upperBound...].range(ofLiteral: "}}") else {
                out += rest[open.lowerBound...]
                return out
            }
            out += rest[sep.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}
