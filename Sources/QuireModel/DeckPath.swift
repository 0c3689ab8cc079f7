/// A deck's place in the deck tree: `Biology/Cells` is the sub-deck `Cells` of `Biology`.
public struct DeckPath: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The path's parts, outermost first; never empty, no part empty.
    public let components: [String]

    /// The deck of notes at the vault root.
    public static let defaultDeck = DeckPath(unchecked: ["Default"])

    private init(unchecked: [String]) { components = unchecked }

    /// Parses `A/B/C`; empty parts and surrounding spaces are dropped. Returns nil for an empty path.
    public init?(_ text: some StringProtocol) {
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
                for part in text.split(separator: "/") { parts.append(String(part)) }
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

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    public func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
