/// A set for the few elements a note usually has (its tags, its cards' derived hashes): a linear
/// search while it is small, which beats hashing each element, and a hash set once it grows past
/// ``limit``, so that a huge note stays linear.
struct SmallSet<Element: Hashable> {
    static var limit: Int { 32 }
    private var small: [Element] = []
    private var large: Set<Element>?

    init(expected count: Int = 0) {
        if count > Self.limit { large = Set(minimumCapacity: count) } else { small.reserveCapacity(count) }
    }

    /// Adds `element`; returns false when it was there already.
    mutating func insert(_ element: Element) -> Bool {
        if large != nil { return large?.insert(element).inserted ?? false }
        if small.contains(element) { return false }
        if small.count == Self.limit {
            large = Set(small)
            small = []
            return large?.insert(element).inserted ?? false
        }
        small.append(element)
        return true
    }
}
