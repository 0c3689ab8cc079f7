/// A wikilink as written in a note: `[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]`,
/// `[[Note#Heading|label]]` or `[[#Heading]]`.
///
/// The parts are the text between the brackets, split at the first `|` (the label) and then at
/// the first `#` (the heading), each without the spaces and tabs around it.
public struct MarkdownWikilink: Hashable, Sendable {
    /// The note linked to; empty for a link to a heading of the same note (`[[#Heading]]`).
    public var note: String
    /// The heading linked to, if any.
    public var heading: String?
    /// The text shown: the label after `|`, or else the target as written (`Note#Heading`).
    public var label: String

    /// Creates a wikilink from its parts.
    public init(note: String, heading: String? = nil, label: String) {
        self.note = note
        self.heading = heading
        self.label = label
    }

    /// Reads the text between `[[` and `]]`; nil when it names neither a note nor a heading.
    init?(between content: some Collection<UInt8>) {
        let bytes = Array(content)
        let bar = bytes.firstIndex(of: UInt8(ascii: "|"))
        let target = bytes[..<(bar ?? bytes.endIndex)]
        let hash = target.firstIndex(of: UInt8(ascii: "#"))
        let note = Self.trimmed(target[..<(hash ?? target.endIndex)])
        let heading = hash.map { Self.trimmed(target[(target.index(after: $0))...]) }
        guard !note.isEmpty || !(heading ?? "").isEmpty else { return nil }
        let label = bar.map { Self.trimmed(bytes[(bytes.index(after: $0))...]) } ?? ""
        self.note = note
        self.heading = heading.flatMap { $0.isEmpty ? nil : $0 }
        self.label = label.isEmpty ? Self.trimmed(target) : label
    }

    /// Reads an embed's content, the text between `![[` and `]]`; nil when it names nothing.
    public init?(embed content: some StringProtocol) {
        self.init(between: Array(content.utf8))
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice.removeFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice.removeLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
