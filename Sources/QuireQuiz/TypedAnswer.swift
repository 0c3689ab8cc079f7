import QuireSupport

/// A typed answer graded against the card's: the same once normalised (``AnswerText``: case,
/// accents, punctuation, articles, how numbers are written), or within a small typo (edit distance
/// 1 for answers of 5 to 8 letters, then 1 more for every 8) when every number in it is right; with
/// a word-by-word diff to show.
public struct TypedAnswer: Sendable, Equatable {
    public enum Verdict: String, Sendable, Equatable {
        case correct
        /// Right but for a small typo.
        case typo
        case wrong
    }

    /// A word of the diff.
    public enum Word: Sendable, Equatable {
        /// Typed as expected.
        case same(String)
        /// Typed, not expected.
        case wrong(String)
        /// Expected, not typed.
        case missing(String)
    }

    public var verdict: Verdict
    public var diff: [Word]

    /// Whether the answer counts as right (a typo does).
    public var isRight: Bool { verdict != .wrong }

    /// Answers longer than this many words are compared as a whole (the diff is quadratic).
    static let longestDiff = 400

    public init(typed: String, expected: String) {
        let a = AnswerText.normalized(typed), b = AnswerText.normalized(expected)
        if a == b, !b.isEmpty || typed.allSatisfy(\.isWhitespace) {
            verdict = .correct
        } else {
            let numbers: (String) -> [String] = { $0.split(separator: " ").filter { $0.first?.isNumber == true }.map(String.init) }
            let letters = b.filter { !$0.isWhitespace }.count
            let allowed = letters < 5 ? 0 : 1 + (letters - 5) / 8
            // The edit distance is quadratic: a long answer must be exact.
            if allowed > 0, a.count <= 600, b.count <= 600, numbers(a) == numbers(b), EditDistance.between(a, b, limit: allowed) <= allowed {
                verdict = .typo
            } else {
                verdict = .wrong
            }
        }
        diff = Self.diff(typed: typed, expected: expected)
    }

    /// The words typed against those expected, each compared normalised (the longest common
    /// subsequence); articles and punctuation alone count as the same.
    static func diff(typed: String, expected: String) -> [Word] {
        let a = typed.split(whereSeparator: \.isWhitespace).map(String.init)
        let b = expected.split(whereSeparator: \.isWhitespace).map(String.init)
        guard a.count <= longestDiff, b.count <= longestDiff else { return a.map(Word.wrong) + b.map(Word.missing) }
        let ka = a.map(AnswerText.normalized), kb = b.map(AnswerText.normalized)
        let lengths = SubsequenceTable(ka, kb)
        var out: [Word] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, ka[i] == kb[j] {
                out.append(.same(b[j]))
                i += 1
                j += 1
            } else if i < a.count, ka[i].isEmpty {
                i += 1
            } else if j < b.count, kb[j].isEmpty {
                out.append(.same(b[j]))
                j += 1
            } else if j < b.count, i == a.count || lengths[i, j + 1] >= lengths[i + 1, j] {
                out.append(.missing(b[j]))
                j += 1
            } else {
                out.append(.wrong(a[i]))
                i += 1
            }
        }
        return out
    }
}
