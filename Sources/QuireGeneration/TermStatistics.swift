import Foundation
import QuireSupport

/// How many of a vault's notes use each content word: the rarity (inverse document frequency)
/// that tells a note's key terms from words every note uses.
public struct TermStatistics: Sendable, Equatable {
    public private(set) var documents = 0
    var frequency: [String: Int] = [:]

    public init() {}

    /// Statistics over `texts`, one a note.
    public init(texts: some Sequence<String>) {
        for text in texts { add(text) }
    }

    /// Counts one more note's text.
    public mutating func add(_ text: String) {
        documents += 1
        for word in Set(Self.contentWords(text)) { frequency[word, default: 0] += 1 }
    }

    /// The rarity of `word` (lower-cased): log((1 + notes) / (1 + notes using it)) + 1.
    public func idf(_ word: String) -> Double {
        log(Double(1 + documents) / Double(1 + (frequency[word] ?? 0))) + 1
    }

    /// The content words of `text`, lower-cased, in order: runs of letters (and digits, apostrophes
    /// and hyphens inside), common words and words of one or two letters left out.
    public static func contentWords(_ text: String) -> [String] {
        words(text).filter { $0.count >= 3 && !EnglishWords.common.contains($0) && $0.contains(where: \.isLetter) }
    }

    /// Every word of `text`, lower-cased.
    static func words(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        for c in text.lowercased() {
            if c.isLetter || c.isNumber || ((c == "'" || c == "-" || c == "’") && !current.isEmpty) {
                current.append(c == "’" ? "'" : c)
            } else if !current.isEmpty {
                while current.last == "'" || current.last == "-" { current.removeLast() }
                if !current.isEmpty { out.append(current) }
                current = ""
            }
        }
        while current.last == "'" || current.last == "-" { current.removeLast() }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
