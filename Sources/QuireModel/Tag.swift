/// A tag, as the user wrote it, compared case-insensitively; `a/b` is a child of `a`.
public struct Tag: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The tag as written, without a leading `#`.
    public let name: String
    /// The lower-cased name used for comparison.
    public let key: String

    /// Creates a tag, dropping a leading `#` and surrounding spaces; nil when nothing is left or the
    /// name contains white space or a comma.
    public init?(_ text: String) { self.init(parsing: text[...]) }

    /// Creates a tag from a substring, as ``init(_:)-(String)``.
    public init?(_ text: Substring) { self.init(parsing: text) }

    // Not generic on purpose: a generic initializer called from another module runs unspecialized.
    private init?(parsing text: Substring) {
        // Fast path: plain ASCII words need no trimming and lower-case cheaply.
        let utf8 = text.utf8
        if let first = utf8.first, first != UInt8(ascii: "#"),
           utf8.allSatisfy({ $0 > 32 && $0 < 0x80 && $0 != UInt8(ascii: ",") }) {
            name = String(text)
            key = utf8.contains(where: { $0 >= 65 && $0 <= 90 }) ? name.lowercased() : name
            return
        }
        var t = text.trimmingSpaces()
        if t.hasPrefix("#") { t.removeFirst() }
        guard !t.isEmpty, !t.contains(where: { $0.isWhitespace || $0 == "," }) else { return nil }
        name = t
        key = t.lowercased()
    }

    public var description: String { name }
    public static func == (a: Tag, b: Tag) -> Bool { a.key == b.key }
    public func hash(into h: inout Hasher) { h.combine(key) }
    public static func < (a: Tag, b: Tag) -> Bool { a.key < b.key }

    /// Same tag ignoring case.
    public func isSame(as other: Tag) -> Bool { key == other.key }

    /// Whether this tag lies below `other` (`a/b/c` below `a` and `a/b`).
    public func isDescendant(of other: Tag) -> Bool { key.hasPrefix(other.key + "/") }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let t = Tag(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad tag"))
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(name)
    }
}
