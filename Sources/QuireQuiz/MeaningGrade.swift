import QuireSupport

/// An answer in the user's own words judged by what it means, not only by the words it shares
/// with the card: right when it is near the card's answer in meaning (the cosine of the two
/// sentences' embeddings) or covers enough of its key terms, unless it says the opposite — a
/// negation the answer does not have (or lacks one it has), or a word whose opposite the answer
/// uses ("increases" for "declines"). The thresholds were calibrated on answers judged by hand
/// (`Tests/QuireQuizTests/Fixtures/judged-answers.tsv`: correct paraphrases, and wrong answers
/// that reuse the right words).
public struct MeaningGrade: Sendable, Equatable {
    /// Whether it counts as right.
    public var right: Bool
    /// The cosine of the two meanings, when the model is there.
    public var similarity: Double?
    /// Whether it says the opposite of the answer.
    public var contradicts: Bool

    /// With the model, right when the cosine plus ``coverageWeight`` times the key terms' share
    /// reaches this (calibrated on the judged answers).
    public static let threshold = 0.5
    /// What the key terms' share adds to the cosine.
    public static let coverageWeight = 0.3
    /// Without the model, a share of key terms at least this high is right.
    public static let coveredEnough = 0.5

    /// Judges `given` against `expected` from the key terms' `coverage` (``Explanation``) and
    /// the `similarity` of their meanings (nil without the search model: coverage alone).
    public init(given: String, expected: String, coverage: Double, similarity: Double?,
                threshold: Double = Self.threshold, coverageWeight: Double = Self.coverageWeight) {
        self.similarity = similarity
        contradicts = Self.contradicts(given, expected)
        if let similarity {
            right = !contradicts && similarity + coverageWeight * coverage >= threshold
        } else {
            right = !contradicts && coverage >= Self.coveredEnough
        }
    }

    /// Words that deny what follows them.
    static let negations: Set<String> = ["not", "no", "never", "none", "nor", "neither", "without", "cannot", "nothing", "prevent",
                                          "prevents", "avoid", "avoids", "lack", "lacks", "isn't", "aren't", "doesn't", "don't", "won't"]

    /// Pairs of words each saying the other's opposite (compared by their first letters, so that
    /// "increases" and "increasing" are one).
    static let opposites: [(String, String)] = [
        ("increas", "decreas"), ("increas", "declin"), ("increas", "reduc"), ("rise", "fall"), ("more", "less"), ("more", "fewer"),
        ("higher", "lower"), ("larger", "smaller"), ("largest", "smallest"), ("bigger", "smaller"), ("before", "after"),
        ("product", "sum"), ("inside", "outside"), ("within", "across"), ("first", "last"), ("closest", "farthest"),
        ("nearest", "farthest"), ("independ", "depend"), ("import", "export"), ("centraliz", "decentraliz"), ("simple", "complex"),
        ("whole", "individual"), ("scarc", "plent"), ("minimum", "maximum"), ("positive", "negative"), ("true", "false"),
        ("add", "remov"), ("always", "never"), ("same", "different"), ("private", "government"), ("home", "abroad"),
    ]

    /// Whether `given` says the opposite of `expected`.
    public static func contradicts(_ given: String, _ expected: String) -> Bool {
        let g = words(given), e = words(expected)
        if g.contains(where: negations.contains) != e.contains(where: negations.contains) { return true }
        func count(_ words: [String], _ stem: String) -> Int { words.filter { $0.hasPrefix(stem) && !(stem == "depend" && $0.hasPrefix("independ")) }.count }
        // One word of a pair said more, its opposite less, than the answer says them.
        for (a, b) in opposites {
            for (x, y) in [(a, b), (b, a)] where count(g, x) > count(e, x) && count(g, y) < count(e, y) { return true }
        }
        return false
    }

    /// Lower-case words, apostrophes kept ("doesn't").
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0 == "'" || $0 == "’") }.map { $0.replacingOccurrences(of: "’", with: "'") }
    }
}
