import QuireModel

/// Tags proposed for a note from the vault's own tags: a tag whose words (its last part's:
/// `biology/cell-biology` → *cell biology*) are among the note's key words — its content words
/// ranked by frequency in it and rarity in the vault — or are its title's. Only tags the vault
/// already uses are proposed, never one the note has. Pure and deterministic.
public enum TagSuggester {
    /// A proposed tag and why.
    public struct Suggestion: Sendable, Equatable {
        public var tag: Tag
        /// The note's words that matched, with how often it uses them.
        public var evidence: String
        public var score: Double
    }

    /// How many of a note's words count as its key words.
    static let keyWords = 15

    /// Up to `limit` tags for the note with `title` and `text` (its whole file), best first.
    public static func suggest(title: String, text: String, tags noteTags: [Tag], vaultTags: [Tag], statistics: TermStatistics,
                               limit: Int = 5) -> [Suggestion] {
        var counts: [String: Int] = [:]
        for word in TermStatistics.contentWords(text) { counts[stem(word), default: 0] += 1 }
        let ranked = counts.map { ($0.key, Double($0.value) * statistics.idf($0.key)) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        let key = Dictionary(ranked.prefix(keyWords).map { ($0.0, $0.1) }) { a, _ in a }
        let titleWords = Set(TermStatistics.contentWords(title).map(stem))
        var out: [Suggestion] = []
        for tag in Set(vaultTags) where !noteTags.contains(where: { $0.isSame(as: tag) || $0.isDescendant(of: tag) }) {
            let leaf = tag.name.split(separator: "/").last.map(String.init) ?? tag.name
            let words = TermStatistics.contentWords(leaf.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")).map(stem)
            guard !words.isEmpty else { continue }
            let inKey = words.allSatisfy { key[$0] != nil }
            let inTitle = words.allSatisfy { titleWords.contains($0) }
            guard inKey || inTitle else { continue }
            let score = words.reduce(0) { $0 + (key[$1] ?? 0) } + (inTitle ? 5 : 0)
            let evidence = words.map { "\($0) ×\(counts[$0] ?? 0)" }.joined(separator: ", ") + (inTitle ? " (in the title)" : "")
            out.append(Suggestion(tag: tag, evidence: evidence, score: score))
        }
        return Array(out.sorted { $0.score != $1.score ? $0.score > $1.score : $0.tag < $1.tag }.prefix(limit))
    }

    /// A word without a plural's `s` (`cells` → `cell`, `glass` stays).
    static func stem(_ word: String) -> String {
        if word.count > 4, word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), !word.hasSuffix("is") { return String(word.dropLast()) }
        return word
    }
}
