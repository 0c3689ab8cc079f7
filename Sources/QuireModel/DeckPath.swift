/// A deck's place in the deck tree: `Biology/Cells` is the sub-deck `Cells` of `Biology`.
public struct DeckPath: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The path's parts, outermost first; never empty, no part empty.
    public let components: [String]

    /// The deck of notes at the vault root.
    public static let defaultDeck = DeckPath(unchecked: ["Default"])

    private init(unchecked: [String]) { components = unchecked }

    /// Parses `A/B/C`; empty parts and surrounding spaces are dropped. Returns nil for an empty path.
    public init?(_ text: String) { self.init(parts: text[...]) }

    /// Parses `A/B/C` from a substring.
    public init?(_ text: Substring) { self.init(parts: text) }

    // Not generic on purpose: a generic initializer called from another module runs unspecialized
    // (no specialization crosses the module boundary), on the index's hottest path.
    private init?(parts text: Substring) {
        // Fast path: no spaces or tabs to trim and no empty parts.
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.reversed().first, first != 47, last != 47,
           !utf8.contains(where: { $0 == 32 || $0 == 9 }) {
            var parts: [String] = []
            var previousSlash = false
            var clean = true
            for b in utf8 {
                if b == 47 {
                    if previousSlash { clean = false; break }
                    previousSlash = true
                } else {
                    previousSlash = false
                }
            }
            if clean {
                // Split on the bytes: `/` is ASCII, and splitting the characters would look for
                // grapheme boundaries all along.
                var start = utf8.startIndex
                var i = start
                while i < utf8.endIndex {
                    if utf8[i] == 47 {
                        parts.append(String(Substring(utf8[start..<i])))
                        start = utf8.index(after: i)
                    }
                    i = utf8.index(after: i)
                }
                parts.append(String(Substring(utf8[start..<utf8.endIndex])))
                components = parts
                return
            }
        }
        let parts = text.split(separator: "/").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        components = parts
    }

    /// Builds a path from parts; returns nil when none is left after dropping empty ones.
    public init?(components parts: [String]) {
        let kept = parts.filter { !$0.isEmpty }
        guard !kept.isEmpty else { return nil }
        components = kept
    }

    public var description: String { components.joined(separator: "/") }

    /// The last part (`Cells`).
    public var name: String { components.last ?? "" }

    /// The parent deck, or nil for a top-level deck.
    public var parent: DeckPath? { components.count > 1 ? DeckPath(unchecked: Array(components.dropLast())) : nil }

    /// This deck and all its ancestors, outermost first.
    public var lineage: [DeckPath] {
        (1...components.count).map { DeckPath(unchecked: Array(components.prefix($0))) }
    }

    /// Whether this is `other` or lies below it (compared case-insensitively).
    public func isWithin(_ other: DeckPath) -> Bool {
        guard components.count >= other.components.count else { return false }
        return zip(components, other.components).allSatisfy { $0.lowercased() == $1.lowercased() }
    }

    public static func < (a: DeckPath, b: DeckPath) -> Bool {
        a.components.lexicographicallyPrecedes(b.components) { $0.lowercased() < $1.lowercased() }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = DeckPath(text) ?? .defaultDeck
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String { self[...].trimmingSpaces() }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String {
        let utf8 = self.utf8
        var lo = utf8.startIndex, hi = utf8.endIndex
        while lo < hi, utf8[lo] == 32 || utf8[lo] == 9 { lo = utf8.index(after: lo) }
        while hi > lo {
            let before = utf8.index(before: hi)
            guard utf8[before] == 32 || utf8[before] == 9 else { break }
            hi = before
        }
        return String(self[lo..<hi])
    }
}
