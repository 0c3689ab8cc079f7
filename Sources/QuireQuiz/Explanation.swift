import QuireSupport
import Foundation

/// An explanation in the user's own words scored against the card: which key terms of its answer
/// (each weighing its rarity) and of its source passage (the rarest few, weighing half) it covers —
/// a word counts when it shares its stem with the term (`mitochondria`/`mitochondrion`,
/// `phosphorylation`/`phosphorylated`). Offline and deterministic.
public struct Explanation: Sendable, Equatable {
    /// The weighted share of the key terms covered, 0 to 1.
    public var coverage: Double
    public var covered: [String]
    /// The key terms not covered, the weightiest first.
    public var missing: [String]

    /// At most this many terms are taken from the passage beyond the answer's.
    static let passageTerms = 8

    /// Scores `explanation` against `answer` and `passage`; `rarity` weighs a word (1 for all by default).
    public init(explanation: String, answer: String, passage: String = "", rarity: (String) -> Double = { _ in 1 }) {
        var terms: [(word: String, stem: String, weight: Double)] = []
        var stems: Set<String> = []
        for word in EnglishWords.contentWords(AnswerText.plainText(answer)) {
            let stem = Self.stem(word)
            if stems.insert(stem).inserted { terms.append((word, stem, rarity(word))) }
        }
        let fromPassage = EnglishWords.contentWords(AnswerText.plainText(passage))
            .filter { !stems.contains(Self.stem($0)) }
        var seen: Set<String> = []
        let ranked = fromPassage.filter { seen.insert(Self.stem($0)).inserted }
            .enumerated().sorted { (rarity($0.element), -$0.offset) > (rarity($1.element), -$1.offset) }.prefix(Self.passageTerms)
        for (_, word) in ranked { terms.append((word, Self.stem(word), rarity(word) / 2)) }
        let said = Set(EnglishWords.contentWords(AnswerText.plainText(explanation)).map(Self.stem))
        func covers(_ stem: String) -> Bool {
            said.contains(stem) || said.contains { $0.count >= 5 && stem.count >= 5 && ($0.hasPrefix(stem) || stem.hasPrefix($0)) }
        }
        var total = 0.0, got = 0.0
        var covered: [String] = [], missing: [(String, Double)] = []
        for term in terms {
            total += term.weight
            if covers(term.stem) {
                got += term.weight
                covered.append(term.word)
            } else {
                missing.append((term.word, term.weight))
            }
        }
        coverage = total > 0 ? got / total : 0
        self.covered = covered
        self.missing = missing.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element.0)
    }

    /// A word's stem: accents folded, a common English ending taken off (what is left keeps four letters).
    static func stem(_ word: String) -> String {
        var w = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        for (ending, replacement) in [("ations", ""), ("ation", ""), ("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("ly", ""), ("s", ""),
                                      ("on", ""), ("a", ""), ("e", "")]
        where w.hasSuffix(ending) && w.count - ending.count >= 4 && !(ending == "s" && w.hasSuffix("ss")) {
            w = String(w.dropLast(ending.count)) + replacement
            break
        }
        return w
    }
}
