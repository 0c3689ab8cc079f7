/// How often a note itself comes up for curation: the highest curation review it was kept in
/// (FORMAT.md §2.2), in this order.
public enum NoteCycle: String, CaseIterable, Sendable, Codable, Comparable {
    case daily, weekly, monthly, yearly

    public static func < (a: NoteCycle, b: NoteCycle) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}

/// One Markdown file of the vault, with what Quire read from it. Two notes are equal when every
/// field is, cards and their scheduling included.
public struct Note: Sendable, Equatable {
    /// Path relative to the vault root, `/`-separated.
    public var path: String
    public var title: String
    public var deck: DeckPath
    /// Front-matter tags first, then inline `#tags`, without duplicates (compared case-insensitively).
    public var tags: [Tag]
    // The plain-valued front-matter keys: each also has its entry in `NoteKey.all`.
    public var created: Timestamp?
    public var cycle: NoteCycle?
    public var archived: Bool
    public var category: String?
    public var source: String?
    public var sourceType: String?
    public var reviewed: Timestamp?
    /// `type: true`: the review screen asks to type each answer and shows how it differs.
    public var typeAnswer: Bool = false
    public var cards: [Card]
    /// Size of the file in bytes when it was read.
    public var byteCount: Int
    /// A 64-bit digest of the file's bytes as parsed (0 when not made from a file): the parse is a
    /// pure function of the bytes and the path, so a file with the same digest parses the same.
    public var contentDigest: UInt64 = 0

    /// Creates a note.
    public init(path: String, title: String, deck: DeckPath, tags: [Tag] = [], created: Timestamp? = nil,
                cycle: NoteCycle? = nil, archived: Bool = false, category: String? = nil,
                source: String? = nil, sourceType: String? = nil, reviewed: Timestamp? = nil,
                cards: [Card] = [], byteCount: Int = 0) {
        self.path = path
        self.title = title
        self.deck = deck
        self.tags = tags
        self.created = created
        self.cycle = cycle
        self.archived = archived
        self.category = category
        self.source = source
        self.sourceType = sourceType
        self.reviewed = reviewed
        self.cards = cards
        self.byteCount = byteCount
    }

    /// Whether the note has a tag equal to `tag` or below it (`a` matches `a` and `a/b`).
    public func hasTag(_ tag: Tag) -> Bool { tags.contains { $0.isSame(as: tag) || $0.isDescendant(of: tag) } }

    /// Whether `other` reads the same in everything the index keeps: equal but for the file's size
    /// and digest (a change the parse does not see, like a trailing space, changes those only).
    public func readsTheSame(as other: Note) -> Bool {
        var copy = self
        copy.byteCount = other.byteCount
        copy.contentDigest = other.contentDigest
        return copy == other
    }
}
