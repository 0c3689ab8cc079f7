/// A front-matter key whose value a ``Note`` keeps as it is: a date, a text, a flag or one word of
/// a fixed list (FORMAT.md §2.1).
///
/// ``NoteKey/all`` is the one definition of these keys. The parser reads each from the front matter
/// with the warnings its kind gives, the index cache stores it, `--json` prints it, `quire set`
/// checks a new value of it, and two notes compare by it (``Note`` is `Equatable`) — all by walking
/// this table. Adding such a key means adding its property to ``Note`` and one entry here. Keys with
/// rules of their own (`title`, `deck` and `tags`, which have fallbacks and inline forms, and the
/// `quire:` scheduling block) are read by the parser itself.
public struct NoteKey: Sendable {
    /// The kind of value a key holds, which decides how it is read, stored and printed.
    public enum Kind: Sendable, Equatable {
        /// A date or date-time (`2026-11-22`, `2026-11-22T09:14:03Z`), kept as a ``Timestamp``.
        case date
        /// Any single value, kept as its text.
        case text
        /// `true` or `false`; a note without the key has `false`.
        case flag
        /// One of these words (read case-insensitively from a note).
        case choice([String])
    }

    /// A key's value in a note.
    public enum Value: Sendable, Equatable {
        case date(Timestamp)
        case text(String)
        case flag(Bool)
        /// One of the key's ``Kind/choice(_:)`` words, as listed there.
        case choice(String)
    }

    /// The front-matter key, as written in a note.
    public let name: String
    /// What the key holds.
    public let kind: Kind
    private let read: @Sendable (Note) -> Value?
    private let write: @Sendable (inout Note, Value?) -> Void

    /// The key's value in `note`: nil when the note does not have it (a flag always has a value).
    public func value(in note: Note) -> Value? { read(note) }

    /// Sets the key's value in `note`; nil removes it (a flag becomes `false`). A value of another
    /// kind than the key's removes it too.
    public func set(_ value: Value?, in note: inout Note) { write(&note, value) }

    /// What a value of this key must look like, for messages: "a date like 2026-11-22".
    public var expectation: String {
        switch kind {
        case .date: "a date like 2026-11-22"
        case .text: "a single value"
        case .flag: "true or false"
        case .choice(let words): words.dropLast().joined(separator: ", ") + (words.count > 1 ? " or " : "") + (words.last ?? "")
        }
    }

    /// The value a command-line text gives this key (`quire set KEY=VALUE`), or nil when the text is
    /// not a value of its kind. Stricter than reading a note: flags only `true`/`false`, choices as
    /// listed.
    public func value(fromArgument text: String) -> Value? {
        switch kind {
        case .date: Timestamp(iso8601: text).map(Value.date)
        case .text: .text(text)
        case .flag: text == "true" ? .flag(true) : text == "false" ? .flag(false) : nil
        case .choice(let words): words.contains(text) ? .choice(text) : nil
        }
    }

    /// The key named `name`, if it is one of ``all``.
    public static func named(_ name: String) -> NoteKey? { all.first { $0.name == name } }

    /// Every such key, in the order the cache stores them and `--json` prints them.
    public static let all: [NoteKey] = [
        date("created", get: { $0.created }, set: { $0.created = $1 }),
        NoteKey(name: "cycle", kind: .choice(NoteCycle.allCases.map(\.rawValue)),
                read: { note in note.cycle.map { .choice($0.rawValue) } },
                write: { note, value in
                    if case .choice(let word) = value { note.cycle = NoteCycle(rawValue: word) } else { note.cycle = nil }
                }),
        NoteKey(name: "archived", kind: .flag,
                read: { .flag($0.archived) },
                write: { note, value in
                    if case .flag(let on) = value { note.archived = on } else { note.archived = false }
                }),
        text("category", get: { $0.category }, set: { $0.category = $1 }),
        text("source", get: { $0.source }, set: { $0.source = $1 }),
        text("source_type", get: { $0.sourceType }, set: { $0.sourceType = $1 }),
        date("reviewed", get: { $0.reviewed }, set: { $0.reviewed = $1 }),
        NoteKey(name: "type", kind: .flag,
                read: { .flag($0.typeAnswer) },
                write: { note, value in
                    if case .flag(let on) = value { note.typeAnswer = on } else { note.typeAnswer = false }
                }),
    ]

    private static func date(_ name: String, get: @escaping @Sendable (Note) -> Timestamp?,
                             set: @escaping @Sendable (inout Note, Timestamp?) -> Void) -> NoteKey {
        NoteKey(name: name, kind: .date, read: { get($0).map(Value.date) }, write: { note, value in
            if case .date(let t) = value { set(&note, t) } else { set(&note, nil) }
        })
    }

    private static func text(_ name: String, get: @escaping @Sendable (Note) -> String?,
                             set: @escaping @Sendable (inout Note, String?) -> Void) -> NoteKey {
        NoteKey(name: name, kind: .text, read: { get($0).map(Value.text) }, write: { note, value in
            if case .text(let s) = value { set(&note, s) } else { set(&note, nil) }
        })
    }
}
