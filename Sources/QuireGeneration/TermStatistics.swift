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

    /// Adds another count's notes (statistics counted in parts, side by side, then joined).
    public mutating func merge(_ other: TermStatistics) {
        documents += other.documents
        for (word, n) in other.frequency { frequency[word, default: 0] += n }
    }

    /// The rarity of `word` (lower-cased): log((1 + notes) / (1 + notes using it)) + 1.
    public func idf(_ word: String) -> Double {
        log(Double(1 + documents) / Double(1 + (frequency[word] ?? 0))) + 1
    }

    /// The content words of `text` (``EnglishWords/contentWords(_:)``).
    public static func contentWords(_ text: String) -> [String] { EnglishWords.contentWords(text) }
}
