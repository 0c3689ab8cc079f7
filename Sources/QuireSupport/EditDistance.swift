/// How far apart two words are, for typed answers and for "did you mean" suggestions.
public enum EditDistance {
    /// The edit distance of `a` and `b` with adjacent transpositions (Damerau–Levenshtein, the
    /// optimal-string-alignment form), stopping early past `limit` (then `limit + 1`).
    public static func between(_ a: String, _ b: String, limit: Int = .max) -> Int {
        let x = Array(a), y = Array(b)
        if abs(x.count - y.count) > limit { return limit + 1 }
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var best = current[0]
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
                best = min(best, current[j])
            }
            if best > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[y.count]
    }

    /// The name of `names` nearest `word` when one is near enough to be what was meant (at most
    /// two edits, or a third of the word's length for longer words; a hyphen for an underscore
    /// counts as no edit); the first of equally near ones, nil when none is near or `word` is one
    /// of them.
    public static func suggestion(for word: String, among names: [String]) -> String? {
        guard !names.contains(word), word.count <= 200 else { return nil }
        let limit = max(2, word.count / 3)
        func folded(_ s: String) -> String { String(s.lowercased().map { $0 == "-" ? "_" : $0 }) }
        let typed = folded(word)
        var best: (name: String, distance: Int)?
        for name in names {
            let d = between(typed, folded(name), limit: limit)
            if d <= limit, d < best?.distance ?? .max { best = (name, d) }
        }
        return best?.name
    }
}
