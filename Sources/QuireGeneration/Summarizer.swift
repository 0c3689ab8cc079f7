import QuireSupport
import Foundation

/// An extractive summary of a note: its most central sentences by TextRank — sentences as
/// vectors of their content words weighted by rarity, joined by their cosine similarity, ranked
/// by PageRank over that graph — given in the note's order. Pure and deterministic.
public enum Summarizer {
    /// The most sentences ranked (a longer note's later sentences are left out, so that the graph
    /// stays small: its cost grows with the square of this).
    public static let maximumSentences = 600

    /// The `count` most central sentences of `sentences`, in their order in the note (list items,
    /// sentences of fewer than six words, sentences leaning on others — `these examples` — and
    /// asides — `Remark: …` — left out).
    public static func summarize(_ sentences: [SourceSentence], statistics: TermStatistics, count: Int = 3) -> [SourceSentence] {
        let candidates = Array(sentences.filter {
            !$0.isListItem && EnglishWords.words($0.text).count >= 6 && !$0.text.hasSuffix(":") && !CardGenerator.leansOnContext($0.text)
                && !isAside($0.text)
        }.prefix(maximumSentences))
        guard candidates.count > count else { return candidates }
        // Rarity-weighted word vectors, unit length.
        let vectors: [[String: Double]] = candidates.map { sentence in
            var v: [String: Double] = [:]
            for word in TermStatistics.contentWords(sentence.text) { v[word, default: 0] += statistics.idf(word) }
            let norm = v.values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return norm > 0 ? v.mapValues { $0 / norm } : v
        }
        let n = candidates.count
        var weights = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n {
            for j in (i + 1)..<n {
                let (small, large) = vectors[i].count <= vectors[j].count ? (vectors[i], vectors[j]) : (vectors[j], vectors[i])
                var dot = 0.0
                for (word, x) in small { if let y = large[word] { dot += x * y } }
                weights[i][j] = dot
                weights[j][i] = dot
            }
        }
        let outgoing = weights.map { $0.reduce(0, +) }
        var rank = [Double](repeating: 1 / Double(n), count: n)
        for _ in 0..<40 {
            var next = [Double](repeating: 0.15 / Double(n), count: n)
            for j in 0..<n where outgoing[j] > 0 {
                let share = 0.85 * rank[j] / outgoing[j]
                for i in 0..<n where weights[j][i] > 0 { next[i] += share * weights[j][i] }
            }
            rank = next
        }
        let chosen = (0..<n).sorted { rank[$0] != rank[$1] ? rank[$0] > rank[$1] : $0 < $1 }.prefix(count).sorted()
        return chosen.map { candidates[$0] }
    }

    /// Words that open an aside, not the note's point (`Remark: we will often have T(y) = y.`).
    static let asides: Set<String> = ["remark", "note", "notes", "example", "examples", "e.g", "for example", "tip", "hint", "aside", "nb", "n.b", "ps", "see also"]

    /// Whether `text` opens with an aside's word and a colon (`Remark:`, `Example —`).
    static func isAside(_ text: String) -> Bool {
        let head = text.prefix(16).lowercased()
        guard let mark = head.firstIndex(where: { $0 == ":" || $0 == "—" || $0 == "–" }) else { return false }
        let word = head[..<mark].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "*_"))
        return asides.contains(word)
    }
}
