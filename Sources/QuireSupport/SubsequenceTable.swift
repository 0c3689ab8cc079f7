/// The lengths of the longest common subsequences of two sequences' suffixes — the table a diff
/// walks to say which elements are the same, missing or extra (a typed answer against the card's,
/// word by word or character by character). Quadratic in time and memory: callers bound the sizes.
public struct SubsequenceTable: Sendable {
    @usableFromInline let width: Int
    @usableFromInline var lengths: [Int]

    /// The table of `a` against `b`.
    @inlinable
    public init<T: Equatable>(_ a: [T], _ b: [T]) {
        width = b.count + 1
        lengths = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i * width + j] = a[i] == b[j] ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
    }

    /// The length of the longest common subsequence of `a[i...]` and `b[j...]`.
    @inlinable
    public subscript(i: Int, j: Int) -> Int { lengths[i * width + j] }
}
