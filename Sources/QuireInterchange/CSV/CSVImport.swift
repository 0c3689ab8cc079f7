import QuireIndex
import QuireModel
import QuireParsing
import QuireReview
import QuireYAML

/// The notes a CSV table becomes (`quire import csv`): planned in full before anything is written,
/// so that one bad row leaves the vault untouched.
///
/// Columns are named by the first row or `#columns:` (case does not matter):
/// - `Question`, `Answer` (or `Front`, `Back`, or `Q`, `A`): basic cards — reversed pairs when the
///   note type is Anki's "Basic (and reversed card)";
/// - `Term`, `Definition`: definition cards;
/// - `Text` (and `Back Extra`): cloze cards, the text holding Anki deletions (`{{c1::…}}`);
/// - `Note`, `Context`: each row a note of its own (its first line the title, the context kept
///   under `context:`);
/// - `Tags` (space-separated), `Deck` (`A::B` or `A/B`), `Notetype` and `GUID` with any of these.
/// A file without column names (an Anki text export without `#columns:`) is read by position:
/// front and back, or text and extra for a cloze note type.
///
/// Cards go into one note per deck and tag set, in the deck's folder, named after the file
/// (` 2`, ` 3`, … when taken); when a deck gets several notes, each tag set adds its tags to the
/// name. Each card
/// is written by ``CardWriter`` in Quire's syntax and each note read back whole before it is
/// planned. A card whose front is already in its deck (in the vault or earlier in the file) is
/// reported and skipped. Fields are Markdown, or HTML turned into Markdown when the file says
/// `#html:true`.
public struct CSVImport: Sendable {
    /// What the import is told beyond the table.
    public struct Options: Sendable {
        /// The deck for rows that name none, as `A::B` or `A/B`; nil: the file's name.
        public var deck: String?
        /// The file's name without its folder and extension: the notes' names and `source:`.
        public var name: String
        /// The time written as the notes' `created:`.
        public var created: Timestamp
        /// What the notes' `source:` says: the file's name.
        public var source: String

        /// Options for the file `source`, its name without extension `name`.
        public init(name: String, source: String, deck: String? = nil, created: Timestamp) {
            self.name = name
            self.source = source
            self.deck = deck
            self.created = created
        }
    }

    /// The notes, in order.
    public var notes: [PlannedNote] = []
    /// Problems, located in the file: errors mean nothing may be written.
    public var diagnostics: [Diagnostic] = []
    /// Rows skipped as duplicates.
    public var duplicates = 0

    /// The number of cards planned.
    public var cardCount: Int { notes.reduce(0) { $0 + $1.cards } }
    /// Whether the plan may be written: no error.
    public var isWritable: Bool { !diagnostics.contains { $0.severity == .error } }

    /// What the rows of a table become.
    enum Shape { case note, definition, cloze, card }

    /// What a column holds.
    enum Role: Equatable {
        case front, back, term, definition, text, extra, note, context, tags, deck, notetype, guid
        /// `quire export csv`'s: the card's kind and variant (which make the card), and its state
        /// (which an import does not bring: the review log does).
        case kind, variant, state

        init?(name: String) {
            switch name.lowercased().trimmingSpaces() {
            case "question", "front", "q": self = .front
            case "answer", "back", "a": self = .back
            case "term": self = .term
            case "definition": self = .definition
            case "text", "cloze": self = .text
            case "back extra", "extra": self = .extra
            case "note": self = .note
            case "context": self = .context
            case "tags", "tag": self = .tags
            case "deck": self = .deck
            case "notetype", "note type": self = .notetype
            case "guid", "id": self = .guid
            case "kind": self = .kind
            case "variant": self = .variant
            case "state", "due", "interval", "stability", "difficulty", "reps", "lapses", "suspended", "path", "line": self = .state
            default: return nil
            }
        }
    }

    /// Plans the import of `table`, read from the file `path`.
    ///
    /// - Parameters:
    ///   - existing: the location (`path:line`) of a card already in the vault in deck folder
    ///     `deck` whose front is `front` (trimmed, white space runs made one space), or of a note
    ///     there whose ``noteKey(title:source:)`` is `front`; or nil.
    ///   - taken: whether a path in the vault is taken (a file or folder is there).
    public static func plan(_ table: CSVTable, path: String, options: Options,
                            existing: (_ deck: String, _ front: String) -> String?,
                            taken: (String) -> Bool) -> CSVImport {
        withoutActuallyEscaping(existing) { existing in
            withoutActuallyEscaping(taken) { taken in
                var planner = CSVImportPlanner(table: table, path: path, options: options, existing: existing, taken: taken)
                planner.result.diagnostics = table.problems
                guard planner.readColumns() else { return planner.result }
                for row in planner.rows { planner.take(row) }
                // Rows in error make no card; the others are planned (the caller writes them, or
                // with --strict nothing).
                guard planner.planCardNotes() else { return planner.result }
                planner.planOwnNotes()
                return planner.result
            }
        }
    }

    /// A note's bytes: front matter with `fields` and `tags`, then `body`.
    static func note(fields: [(String, YAMLValue)], tags: [String], body: String) -> [UInt8]? {
        do {
            var editor = try FrontMatterEditor(file: [])
            for (key, value) in fields { try editor.set(key, to: value) }
            if !tags.isEmpty { try editor.set("tags", to: .flowSequence(tags.map { .scalar($0) })) }
            return editor.file + Array(body.utf8)
        } catch {
            return nil
        }
    }

    /// The folder of a deck named `A::B` or `A/B`; nil when a part is empty, `.`, `..`, hidden or
    /// holds a control character.
    public static func folder(forDeck name: String) -> String? {
        let parts = name.replacing("::", with: "/").split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        for part in parts {
            guard !part.isEmpty, !part.hasPrefix("."), !part.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            else { return nil }
        }
        return parts.joined(separator: "/")
    }

    /// Where each card of the vault is, by deck folder and front (``frontKey(_:)``; a cloze by its
    /// whole text, since its front hides the deletions): `existing` for ``plan(_:path:options:existing:taken:)``.
    /// The key is `deck + "\n" + front`; the value `path:line`.
    /// A note row's notes are found there too, by their folder and ``noteKey(title:source:)``.
    public static func fronts(in index: VaultIndex) -> [String: String] {
        var fronts: [String: String] = [:]
        for note in index.notes {
            if let source = note.source {
                let folder = note.path.contains("/") ? String(note.path[..<(note.path.lastIndex(of: "/") ?? note.path.endIndex)]) : ""
                let key = folder + "\n" + noteKey(title: note.title, source: source)
                if fronts[key] == nil { fronts[key] = "\(note.path):1" }
            }
            let deck = note.deck.components.joined(separator: "/")
            for card in note.cards {
                let key = deck + "\n" + frontKey(card.kind == .cloze ? card.identityText : card.front)
                if fronts[key] == nil { fronts[key] = "\(note.path):\(card.lines.lowerBound)" }
            }
        }
        return fronts
    }

    /// What finds a note a `Note` row made, imported again: its title and the file it came from
    /// (`source:`), never a card's front (it begins with a NUL).
    public static func noteKey(title: String, source: String) -> String {
        "\u{0}note\u{0}" + frontKey(title) + "\u{0}" + source
    }

    /// A front as duplicates are found by: trimmed, each run of white space one space.
    public static func frontKey(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }

    static func isCloze(_ notetype: String) -> Bool { notetype.lowercased().contains("cloze") }

    static func knownNotetype(_ notetype: String) -> Bool {
        let n = notetype.lowercased()
        return n.hasPrefix("basic") || n.contains("cloze")
    }
}
