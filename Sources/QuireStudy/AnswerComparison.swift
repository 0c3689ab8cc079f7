import QuireSupport
/// A typed answer compared character by character with the expected one (type-in-the-answer
/// cards, as Anki's): the longest common subsequence of the two, and around it what was typed
/// wrongly and what is missing.
public struct AnswerComparison: Sendable, Equatable {
    /// A run of characters in the comparison.
    public enum Segment: Sendable, Equatable {
        /// Typed as expected.
        case same(String)
        /// Typed, but not in the expected answer.
        case wrong(String)
        /// In the expected answer, not typed.
        case missing(String)
    }

    /// The runs, in order.
    public var segments: [Segment]

    /// Whether the typed answer is the expected one (spaces around and between words aside).
    public var isCorrect: Bool { segments.allSatisfy { if case .same = $0 { true } else { false } } }

    /// Longer answers are compared as a whole (the comparison is quadratic).
    public static let maximumCharacters = 500

    /// Compares `typed` with `expected`, each with its white space collapsed and trimmed.
    public init(typed: String, expected: String) {
        let a = Array(Self.normalized(typed)), b = Array(Self.normalized(expected))
        guard a != b else {
            segments = a.isEmpty ? [] : [.same(String(a))]
            return
        }
        guard a.count <= Self.maximumCharacters, b.count <= Self.maximumCharacters else {
            segments = (a.isEmpty ? [] : [.wrong(String(a))]) + (b.isEmpty ? [] : [.missing(String(b))])
            return
        }
        // lengths[i, j]: the longest common subsequence of a[i...] and b[j...].
        let lengths = SubsequenceTable(a, b)
        var out: [Segment] = []
        func add(_ segment: Segment) {
            switch (out.last, segment) {
            case (.same(let x)?, .same(let y)): out[out.count - 1] = .same(x + y)
            case (.wrong(let x)?, .wrong(let y)): out[out.count - 1] = .wrong(x + y)
            case (.missing(let x)?, .missing(let y)): out[out.count - 1] = .missing(x + y)
            default: out.append(segment)
            }
        }
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                add(.same(String(a[i])))
                i += 1
                j += 1
            } else if j < b.count, i == a.count || lengths[i, j + 1] >= lengths[i + 1, j] {
                add(.missing(String(b[j])))
                j += 1
            } else {
                add(.wrong(String(a[i])))
                i += 1
            }
        }
        segments = out
    }

    private static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
