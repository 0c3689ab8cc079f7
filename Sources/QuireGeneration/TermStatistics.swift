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

    /// The content words of `text`, lower-cased, in order: runs of letters (and digits, apostrophes
    /// and hyphens inside), common words and words of one or two letters left out.
    public static func contentWords(_ text: String) -> [String] {
        words(text).filter { $0.count >= 3 && !EnglishWords.common.contains($0) && $0.contains(where: \.isLetter) }
    }

    /// Every word of `text`, lower-cased: a scan of its scalars, ASCII letters lower-cased by
    /// their bits, others by their Unicode lower-case mapping.
    static func words(_ text: String) -> [String] {
        var out: [String] = []
        var current = String.UnicodeScalarView()
        func close() {
            while let last = current.last, last == "'" || last == "-" { current.removeLast() }
            if !current.isEmpty { out.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if (0x61...0x7A).contains(v) || (0x30...0x39).contains(v) {
                    current.append(scalar)
                } else if (0x41...0x5A).contains(v) {
                    current.append(Unicode.Scalar(UInt8(truncatingIfNeeded: v | 0x20)))
                } else if (v == 0x27 || v == 0x2D), !current.isEmpty {
                    current.append(scalar)
                } else if !current.isEmpty {
                    close()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if scalar.properties.isUppercase {
                    current.appendScalars(scalar.properties.lowercaseMapping.unicodeScalars)
                } else {
                    current.append(scalar)
                }
            } else if v == 0x2019, !current.isEmpty {
                current.append("'")
            } else if !current.isEmpty {
                close()
            }
        }
        close()
        return out
    }
}
