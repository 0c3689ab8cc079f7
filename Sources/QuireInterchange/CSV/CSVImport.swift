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
    ///     `deck` whose front is `front` (trimmed, white space runs made one space), or nil.
    ///   - taken: whether a path in the vault is taken (a file or folder is there).
    public static func plan(_ table: CSVTable, path: String, options: Options,
                            existing: (_ deck: String, _ front: String) -> String?,
                            taken: (String) -> Bool) -> CSVImport {
        var result = CSVImport()
        func fail(_ line: Int, _ column: Int? = nil, _ message: String) {
            result.diagnostics.append(Diagnostic(.error, path: path, line: line > 0 ? line : nil, column: column, message: message))
        }
        // The columns' roles.
        var roles: [Role?] = []
        if let columns = table.columns {
            for (k, name) in columns.enumerated() {
                guard let role = Role(name: name) else {
                    fail(max(table.columnsLine, 1), nil, "unknown column '\(name)' (column \(k + 1)): the columns are Question and Answer, "
                          + "Front and Back, Term and Definition, Text and Back Extra, or Note and Context, with Tags, Deck, Notetype or GUID")
                    return result
                }
                roles.append(role)
            }
        } else {
            let width = table.rows.map(\.fields.count).max() ?? 0
            let cloze = table.notetype.map(Self.isCloze) ?? false
            var fieldRoles: [Role] = cloze ? [.text, .extra] : [.front, .back]
            for k in 0..<width {
                if k == table.deckColumn { roles.append(.deck) } else if k == table.tagsColumn { roles.append(.tags) } else if k == table.notetypeColumn {
                    roles.append(.notetype)
                } else if k == table.guidColumn { roles.append(.guid) } else {
                    roles.append(fieldRoles.isEmpty ? nil : fieldRoles.removeFirst())
                }
            }
        }
        let has = Set(roles.compactMap { $0 })
        let shape: Shape
        switch true {
        case has.contains(.note): shape = .note
        case has.contains(.term) && has.contains(.definition): shape = .definition
        case has.contains(.kind): shape = .card
        case has.contains(.text): shape = .cloze
        case has.contains(.front) && has.contains(.back): shape = .card
        default:
            fail(max(table.columnsLine, 1), nil, "no card columns: name them Question and Answer, Front and Back, Term and Definition, "
                  + "Text (a cloze), or Note and Context")
            return result
        }
        if let columns = table.columns {
            let state = zip(columns, roles).filter { $0.1 == .state }.map(\.0)
            if !state.isEmpty {
                result.diagnostics.append(Diagnostic(.warning, path: path, line: max(table.columnsLine, 1), message:
                    "columns \(state.joined(separator: ", ")) not imported: cards start new (a card's history comes with its review log)"))
            }
        }
        let fallbackDeck = options.deck ?? table.deck ?? options.name
        var groups: [(deck: String, tags: [String], cards: [WrittenCard])] = []
        var groupOf: [String: Int] = [:]
        var seenFronts: [String: Int] = [:]
        var clozeGroups: [String: String] = [:]
        var noteRows: [(deck: String, body: String, context: String?, tags: [String])] = []

        for row in table.rows {
            let f = row.fields
            if f.allSatisfy({ $0.trimmingSpaces().isEmpty }) { continue }
            if table.columns != nil, f.count != roles.count {
                fail(row.line, 1, "this row has \(f.count) field\(f.count == 1 ? "" : "s"); the columns are \(roles.count)")
                continue
            }
            func value(_ role: Role) -> String? {
                guard let k = roles.firstIndex(of: role), k < f.count else { return nil }
                return f[k]
            }
            func field(_ role: Role) -> String {
                let raw = value(role) ?? ""
                return table.html == true ? HTMLToMarkdown.convert(raw, media: { $0 }).markdown : raw
            }
            // The deck: the row's, the options', the file's.
            let deckName = (options.deck ?? value(.deck)).flatMap { $0.trimmingSpaces().isEmpty ? nil : $0 } ?? fallbackDeck
            guard let deck = Self.folder(forDeck: deckName) else {
                fail(row.line, nil, "deck '\(deckName)' cannot be a folder of the vault (an empty, '.', '..' or hidden part, or a control character)")
                continue
            }
            let tags = Array(Set(table.tags + (value(.tags) ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))).sorted()
            if let bad = tags.first(where: { Tag($0) == nil }) {
                fail(row.line, nil, "'\(bad)' is not a tag Quire can keep")
                continue
            }
            let notetype = value(.notetype) ?? table.notetype
            if shape == .note {
                let text = field(.note).trimmingSpaces()
                guard !text.isEmpty else { fail(row.line, nil, "the note is empty"); continue }
                let context = value(.context).map { table.html == true ? HTMLToMarkdown.convert($0, media: { $0 }).markdown : $0 }
                noteRows.append((deck, text, context?.trimmingSpaces().isEmpty == false ? context : nil, tags))
                continue
            }
            let draft: CardDraft
            // `quire export csv`'s rows: the kind says which card; a reversed pair's backward card
            // and a cloze's further numbers come with the row that makes the pair or the group.
            let kind = value(.kind).map { $0.lowercased().trimmingSpaces() } ?? ""
            let variant = value(.variant).map { $0.lowercased().trimmingSpaces() } ?? ""
            if kind == "reversed", variant == "backward" { continue }
            if kind == "cloze" {
                let key = deck + "\n" + Self.frontKey(field(.text))
                if let group = clozeGroups[key], group != variant { continue }
                clozeGroups[key] = variant
            }
            // A row whose note type (Anki's text export names it per row) is a cloze one, and
            // whose text holds a deletion, is a cloze: its first field the text, the next one extra.
            let clozeRow = shape == .card && (notetype.map(Self.isCloze) ?? false) && CardWriter.holdsAnkiDeletion(field(.front))
            let rowShape = kind.isEmpty ? (clozeRow ? .cloze : shape) : kind == "cloze" ? .cloze : kind == "definition" ? .definition : .card
            switch rowShape {
            case .definition:
                draft = roles.contains(.term) ? CardDraft(.definition(term: field(.term), definition: field(.definition)))
                    : CardDraft(.definition(term: field(.front), definition: field(.back)))
            case .cloze:
                var text = roles.contains(.text) ? field(.text) : field(.front)
                let extra = (roles.contains(.text) ? field(.extra) : field(.back)).trimmingSpaces()
                if !extra.isEmpty { text += "\n" + extra }
                draft = CardDraft(.cloze(text))
            default:
                let reversed = kind == "reversed" || (notetype.map { $0.lowercased().contains("reverse") } ?? false)
                draft = reversed ? CardDraft(.reversed(front: field(.front), back: field(.back)))
                    : CardDraft(.basic(question: field(.front), answer: field(.back)))
            }
            if let notetype, !Self.knownNotetype(notetype) {
                result.diagnostics.append(Diagnostic(.warning, path: path, line: row.line, message:
                    "note type '\(notetype)' is not one Quire knows: imported as \(draft.kind.rawValue)"))
            }
            // An empty side (Anki allows empty fields) is written fenced, and said.
            if draft.kind != .cloze, let empty = draft.sides.first(where: { $0.text.trimmingSpaces().isEmpty }) {
                result.diagnostics.append(Diagnostic(.warning, path: path, line: row.line, message:
                    "the \(empty.side.rawValue) is empty; imported as it is"))
            }
            // Duplicates: the same front in the deck.
            let front = Self.frontKey(draft.sides[0].text)
            let key = deck + "\n" + front
            if let earlier = seenFronts[key] {
                result.diagnostics.append(Diagnostic(.warning, path: path, line: row.line, message:
                    "same front as line \(earlier) in deck \(deck); skipped"))
                result.duplicates += 1
                continue
            }
            if let there = existing(deck, front) {
                result.diagnostics.append(Diagnostic(.warning, path: path, line: row.line, message:
                    "same front as the card at \(there) in deck \(deck); skipped"))
                result.duplicates += 1
                continue
            }
            let written: WrittenCard
            do {
                written = try CardWriter.write(draft)
            } catch {
                result.diagnostics.append(Diagnostic(.error, path: path, line: row.line, message: "cannot be written as a card: \(error)"))
                continue
            }
            seenFronts[key] = row.line
            let groupKey = deck + "\n" + tags.joined(separator: " ")
            if let g = groupOf[groupKey] {
                groups[g].cards.append(written)
            } else {
                groupOf[groupKey] = groups.count
                groups.append((deck, tags, [written]))
            }
        }
        // Rows in error make no card; the others are planned (the caller writes them, or with
        // --strict nothing).

        // The notes: names taken in the vault or by this import are skipped.
        var planned = Set<String>()
        func free(_ folder: String, _ name: String) -> String? {
            let path = NoteCreation.freePath(folder: folder, name: name) { planned.contains($0) || taken($0) }
            if let path { planned.insert(path) }
            return path
        }
        var groupsOfDeck: [String: Int] = [:]
        for group in groups { groupsOfDeck[group.deck, default: 0] += 1 }
        for group in groups {
            // A deck's only note is named after the file; with several, each tag set adds its tags.
            var name = NoteCreation.fileName(for: options.name)
            if groupsOfDeck[group.deck, default: 0] > 1, !group.tags.isEmpty {
                name = NoteCreation.fileName(for: options.name + " " + group.tags.joined(separator: " "))
            }
            guard let notePath = free(group.deck, name) else {
                fail(0, nil, "too many notes named '\(name)' in \(group.deck)")
                return result
            }
            let body: String
            do { body = try CardWriter.body(group.cards) } catch {
                fail(0, nil, "\(error)")
                return result
            }
            let fields: [(String, YAMLValue)] = [("title", .scalar(options.name)), ("created", .scalar(options.created.iso8601(milliseconds: false))),
                                                 ("source", .scalar(options.source))]
            guard let bytes = Self.note(fields: fields, tags: group.tags, body: "\n" + body) else {
                fail(0, nil, "cannot write the front matter of \(notePath)")
                return result
            }
            let cards = group.cards.reduce(0) { $0 + $1.variants.count }
            // The whole note read back: every card planned, no warning.
            let (note, problems) = NoteParser.parse(bytes, path: notePath)
            guard let note, note.cards.count == cards, !problems.contains(where: { $0.severity >= .warning }) else {
                fail(0, nil, "\(notePath) would not read back as the \(cards) cards written: " + problems.map(\.message).joined(separator: "; "))
                return result
            }
            result.notes.append(PlannedNote(path: notePath, bytes: bytes, cards: cards))
        }
        for row in noteRows {
            var lines = row.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var title = lines.removeFirst().trimmingSpaces()
            while title.hasPrefix("#") { title.removeFirst() }
            title = title.trimmingSpaces()
            if title.isEmpty { title = "Note" }
            while lines.first?.trimmingSpaces().isEmpty == true { lines.removeFirst() }
            guard let notePath = free(row.deck, NoteCreation.fileName(for: title)) else {
                fail(0, nil, "too many notes named '\(title)' in \(row.deck)")
                return result
            }
            var fields: [(String, YAMLValue)] = [("title", .scalar(title)), ("created", .scalar(options.created.iso8601(milliseconds: false))),
                                                 ("source", .scalar(options.source))]
            if let context = row.context { fields.append(("context", .scalar(context))) }
            let body = lines.isEmpty ? "" : "\n" + lines.joined(separator: "\n") + "\n"
            guard let bytes = Self.note(fields: fields, tags: row.tags, body: body) else {
                fail(0, nil, "cannot write the front matter of \(notePath)")
                return result
            }
            let (note, problems) = NoteParser.parse(bytes, path: notePath)
            result.notes.append(PlannedNote(path: notePath, bytes: bytes, cards: note?.cards.count ?? 0))
            for p in problems where p.severity >= .warning {
                result.diagnostics.append(Diagnostic(.warning, path: notePath, line: p.line, column: p.column, message: p.message))
            }
        }
        return result
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
    public static func fronts(in index: VaultIndex) -> [String: String] {
        var fronts: [String: String] = [:]
        for note in index.notes {
            let deck = note.deck.components.joined(separator: "/")
            for card in note.cards {
                let key = deck + "\n" + frontKey(card.kind == .cloze ? card.identityText : card.front)
                if fronts[key] == nil { fronts[key] = "\(note.path):\(card.lines.lowerBound)" }
            }
        }
        return fronts
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
