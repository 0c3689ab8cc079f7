/// The first place a run of bytes occurs in another: the one loop behind the literal searches of the
/// Markdown converter, the Obsidian cloze patterns and `range(ofLiteral:)`.
public enum ByteSearch {
    /// The offset (from `haystack`'s start) of the first occurrence of `needle` that starts at or
    /// after `from` and ends at or before `end` (the haystack's end when nil); nil when there is none
    /// or `needle` is empty. Costs the length searched, times the needle's length at worst.
    @inlinable
    public static func firstOffset<Haystack: RandomAccessCollection<UInt8>>(
        of needle: [UInt8], in haystack: Haystack, from: Int = 0, before end: Int? = nil
    ) -> Int? where Haystack.Index == Int {
        let base = haystack.startIndex
        let limit = min(end ?? haystack.count, haystack.count)
        guard let head = needle.first, from >= 0, limit - from >= needle.count else { return nil }
        var position = from
        while position + needle.count <= limit {
            if haystack[base + position] == head {
                var matched = 1
                while matched < needle.count, haystack[base + position + matched] == needle[matched] {
                    matched += 1
                }
                if matched == needle.count { return position }
            }
            position += 1
        }
        return nil
    }
}
