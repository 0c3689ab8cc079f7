import QuireSupport
import QuireIndex
import QuireModel
import QuireParsing
import QuireReview
import QuireYAML

/// The steps of ``CSVImport/plan(_:path:options:existing:taken:)``: the columns' roles and the
/// table's shape, each row made a card (or a note of its own), then the notes the cards go into.
struct CSVImportPlanner {
    typealias Role = CSVImport.Role
    typealias Shape = CSVImport.Shape

    let table: CSVTable
    let path: String
    let options: CSVImport.Options
    let existing: (_ deck: String, _ front: String) -> String?
    let taken: (String) -> Bool
    /// The deck of a row that names none: the options', the file's `#deck:`, the file's name.
    private let fallbackDeck: String

    var result = CSVImport()
    private var roles: [Role?] = []
    private var shape = Shape.card
    /// Whether the columns are named (a first row or `#columns:`), else taken by position.
    private var named = true
    /// The rows to take: the table's, after its first when that named no column Quire knows
    /// and so was a record (a file with no header row).
    private(set) var rows: [CSVTable.Row] = []
    /// Cards by deck and tag set, in the order the rows bring them.
    private var groups: [(deck: String, tags: [String], cards: [WrittenCard])] = []
    private var groupOf: [String: Int] = [:]
    /// The line of each deck's front seen so far.
    private var seenFronts: [String: Int] = [:]
    /// A cloze group of `quire export csv`'s rows: the variant whose row makes it.
    private var clozeGroups: [String: String] = [:]
    private var noteRows: [(deck: String, body: String, context: String?, tags: [String], line: Int)] = []
    /// A note row's note already planned, by folder, ``CSVImport/noteKey(title:source:)`` and text.
    private var seenNotes: [String: String] = [:]
    /// Paths this import has given a note.
    private var planned = Set<String>()

    init(table: CSVTable, path: String, options: CSVImport.Options, existing: @escaping (String, String) -> String?,
         taken: @escaping (String) -> Bool) {
        self.table = table
        self.path = path
        self.options = options
        self.existing = existing
        self.taken = taken
        fallbackDeck = options.deck ?? table.deck ?? options.name
    }

    private mutating func fail(_ line: Int, _ column: Int? = nil, _ message: String) {
        result.diagnostics.append(Diagnostic(.error, path: path, line: line > 0 ? line : nil, column: column, message: message))
    }

    private mutating func warn(_ line: Int, _ message: String) {
        result.diagnostics.append(Diagnostic(.warning, path: path, line: line, message: message))
    }

    // MARK: - Columns

    /// Gives each column its role and the table its shape; false (with an error) when a column
    /// is unknown or none holds cards.
    mutating func readColumns() -> Bool {
        guard let roles = columnRoles() else { return false }
        self.roles = roles
        let has = Set(roles.compactMap { $0 })
        switch true {
        case has.contains(.note): shape = .note
        case has.contains(.term) && has.contains(.definition): shape = .definition
        case has.contains(.kind): shape = .card
        case has.contains(.text): shape = .cloze
        case has.contains(.front) && has.contains(.back): shape = .card
        default:
            fail(max(table.columnsLine, 1), nil, "no card columns: name them Question and Answer, Front and Back, Term and Definition, "
                  + "Text (a cloze), or Note and Context")
            return false
        }
        if let columns = table.columns {
            let state = zip(columns, roles).filter { $0.1 == .state }.map(\.0)
            if !state.isEmpty {
                warn(max(table.columnsLine, 1),
                     "columns \(state.joined(separator: ", ")) not imported: cards start new (a card's history comes with its review log)")
            }
        }
        return true
    }

    /// The roles named by the columns, or (no names: an Anki text export, or a first row that
    /// names no column Quire knows, which is then a record) by position.
    private mutating func columnRoles() -> [Role?]? {
        rows = table.rows
        guard let columns = table.columns else { return positionalRoles() }
        if table.columnsLine > 0, !columns.contains(where: { Role(name: $0) != nil }) {
            let saved = rows
            rows.insert(CSVTable.Row(fields: columns, line: table.columnsLine), at: 0)
            let roles = positionalRoles()
            let cloze = roles.contains(.text)
            if roles.contains(cloze ? .text : .back) {
                let spare = roles.indices.filter { roles[$0] == nil }.map { String($0 + 1) }
                let sides = cloze ? "the cloze text and its extra" : "the front and the back"
                warn(table.columnsLine, "the first row names no column, so it is a record: the first two columns are \(sides)"
                     + (spare.isEmpty ? "" : ", column\(spare.count == 1 ? "" : "s") \(spare.joined(separator: ", ")) added to the "
                        + (cloze ? "extra" : "back") + " line by line")
                     + "; a first row naming the columns (Front,Back,…) chooses otherwise")
                return roles
            }
            // One column: no card to make of it; said as an unknown column.
            rows = saved
            named = true
        }
        var roles: [Role?] = []
        for (k, name) in columns.enumerated() {
            guard let role = Role(name: name) else {
                fail(max(table.columnsLine, 1), nil, "unknown column '\(name)' (column \(k + 1)): the columns are Question and Answer, "
                      + "Front and Back, Term and Definition, Text and Back Extra, or Note and Context, with Tags, Deck, Notetype or GUID")
                return nil
            }
            roles.append(role)
        }
        return roles
    }

    /// Roles by position: Anki's header lines' deck, tags, note type and ID columns, the first
    /// two others the card's sides (a cloze note type's text and extra); any further column has
    /// none, and a row's field there is added to the back (or extra).
    private mutating func positionalRoles() -> [Role?] {
        named = false
        let width = rows.map(\.fields.count).max() ?? 0
        let cloze = table.notetype.map(CSVImport.isCloze) ?? false
        var fieldRoles: [Role] = cloze ? [.text, .extra] : [.front, .back]
        return (0..<width).map { k -> Role? in
            switch k {
            case table.deckColumn: .deck
            case table.tagsColumn: .tags
            case table.notetypeColumn: .notetype
            case table.guidColumn: .guid
            default: fieldRoles.isEmpty ? nil : fieldRoles.removeFirst()
            }
        }
    }

    // MARK: - Rows

    /// One row: the field of each role, as Markdown.
    private struct Row {
        let fields: [String]
        let roles: [Role?]
        let html: Bool

        func value(_ role: Role) -> String? {
            guard let k = roles.firstIndex(of: role), k < fields.count else { return nil }
            return fields[k]
        }

        /// The fields of columns with no role (a file without column names), as Markdown, the
        /// empty ones left out.
        var spare: [String] {
            fields.indices.filter { $0 >= roles.count || roles[$0] == nil }.map { html ? HTMLToMarkdown.convert(fields[$0], media: { $0 }).markdown : fields[$0] }
                .filter { !$0.trimmingSpaces().isEmpty }
        }

        /// The role's field as Markdown (HTML converted), or nil when no column has the role.
        func markdown(_ role: Role) -> String? {
            value(role).map { html ? HTMLToMarkdown.convert($0, media: { $0 }).markdown : $0 }
        }

        /// The role's field as Markdown; empty when no column has the role.
        func field(_ role: Role) -> String { markdown(role) ?? "" }
    }

    /// Makes one row a card in its deck and tag set's group (or a note of its own), or reports
    /// why not.
    mutating func take(_ line: CSVTable.Row) {
        let f = line.fields
        if f.allSatisfy({ $0.trimmingSpaces().isEmpty }) { return }
        if named, f.count != roles.count {
            fail(line.line, 1, "this row has \(Plural.counted(f.count, "field")); the columns are \(roles.count)")
            return
        }
        // `quire export csv`'s own file (it has Kind): its cells' leading `'` against formulas off.
        let fields = roles.contains(.kind) ? f.map(CSVWriter.readingSpreadsheetSafe) : f
        let row = Row(fields: fields, roles: roles, html: table.html == true)
        // The deck: the row's, the options', the file's.
        let deckName = (options.deck ?? row.value(.deck)).flatMap { $0.trimmingSpaces().isEmpty ? nil : $0 } ?? fallbackDeck
        guard let deck = CSVImport.folder(forDeck: deckName) else {
            fail(line.line, nil, "deck '\(deckName)' cannot be a folder of the vault (an empty, '.', '..' or hidden part, or a control character)")
            return
        }
        let tags = Array(Set(table.tags + (row.value(.tags) ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init))).sorted()
        if let bad = tags.first(where: { Tag($0) == nil }) {
            fail(line.line, nil, "'\(bad)' is not a tag Quire can keep")
            return
        }
        if shape == .note {
            let text = row.field(.note).trimmingSpaces()
            guard !text.isEmpty else { return fail(line.line, nil, "the note is empty") }
            let context = row.markdown(.context)
            noteRows.append((deck, text, context?.trimmingSpaces().isEmpty == false ? context : nil, tags, line.line))
            return
        }
        guard let draft = draft(of: row, deck: deck, line: line.line) else { return }
        guard isNew(draft, deck: deck, line: line.line) else { return }
        let written: WrittenCard
        do {
            written = try CardWriter.write(draft)
        } catch {
            result.diagnostics.append(Diagnostic(.error, path: path, line: line.line, message: "cannot be written as a card: \(error)"))
            return
        }
        seenFronts[deck + "\n" + CSVImport.frontKey(draft.sides[0].text)] = line.line
        let groupKey = deck + "\n" + tags.joined(separator: " ")
        if let g = groupOf[groupKey] {
            groups[g].cards.append(written)
        } else {
            groupOf[groupKey] = groups.count
            groups.append((deck, tags, [written]))
        }
    }

    /// The card a row makes, with a warning for an unknown note type or an empty side; nil for
    /// a row that another row's card already stands for.
    private mutating func draft(of row: Row, deck: String, line: Int) -> CardDraft? {
        let notetype = row.value(.notetype) ?? table.notetype
        // `quire export csv`'s rows: the kind says which card; a reversed pair's backward card
        // and a cloze's further numbers come with the row that makes the pair or the group.
        let kind = row.value(.kind).map { $0.lowercased().trimmingSpaces() } ?? ""
        let variant = row.value(.variant).map { $0.lowercased().trimmingSpaces() } ?? ""
        if kind == "reversed", variant == "backward" { return nil }
        if kind == "cloze" {
            let key = deck + "\n" + CSVImport.frontKey(row.field(.text))
            if let group = clozeGroups[key], group != variant { return nil }
            clozeGroups[key] = variant
        }
        // A row whose note type (Anki's text export names it per row) is a cloze one, and whose
        // text holds a deletion, is a cloze: its first field the text, the next one extra.
        let clozeRow = shape == .card && (notetype.map(CSVImport.isCloze) ?? false) && CardWriter.holdsAnkiDeletion(row.field(.front))
        let rowShape = kind.isEmpty ? (clozeRow ? .cloze : shape) : kind == "cloze" ? .cloze : kind == "definition" ? .definition : .card
        let draft: CardDraft
        switch rowShape {
        case .definition:
            draft = roles.contains(.term) ? CardDraft(.definition(term: row.field(.term), definition: row.field(.definition)))
                : CardDraft(.definition(term: row.field(.front), definition: row.field(.back)))
        case .cloze:
            var text = roles.contains(.text) ? row.field(.text) : row.field(.front)
            let extra = ([roles.contains(.text) ? row.field(.extra) : row.field(.back)] + row.spare)
                .map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: "\n")
            if !extra.isEmpty { text += "\n" + extra }
            draft = CardDraft(.cloze(text))
        default:
            let reversed = kind == "reversed" || (notetype.map { $0.lowercased().contains("reverse") } ?? false)
            let back = ([row.field(.back)] + row.spare).filter { !$0.trimmingSpaces().isEmpty }.joined(separator: "\n")
            draft = reversed ? CardDraft(.reversed(front: row.field(.front), back: back))
                : CardDraft(.basic(question: row.field(.front), answer: back))
        }
        if let notetype, !CSVImport.knownNotetype(notetype) {
            warn(line, "note type '\(notetype)' is not one Quire knows: imported as \(draft.kind.rawValue)")
        }
        // An empty side (Anki allows empty fields) is written fenced, and said.
        if draft.kind != .cloze, let empty = draft.sides.first(where: { $0.text.trimmingSpaces().isEmpty }) {
            warn(line, "the \(empty.side.rawValue) is empty; imported as it is")
        }
        return draft
    }

    /// Whether the card's front is new to its deck (this file's earlier rows and the vault);
    /// a duplicate is reported and counted.
    private mutating func isNew(_ draft: CardDraft, deck: String, line: Int) -> Bool {
        let front = CSVImport.frontKey(draft.sides[0].text)
        if let earlier = seenFronts[deck + "\n" + front] {
            warn(line, "same front as line \(earlier) in deck \(deck); skipped")
        } else if let there = existing(deck, front) {
            warn(line, "same front as the card at \(there) in deck \(deck); skipped")
        } else {
            return true
        }
        result.duplicates += 1
        return false
    }

    // MARK: - Notes

    /// A free path for a note named `name` in `folder`: not taken in the vault nor by this import.
    private mutating func free(_ folder: String, _ name: String) -> String? {
        let planned = self.planned, taken = self.taken
        let path = NoteCreation.freePath(folder: folder, name: name) { planned.contains($0) || taken($0) }
        if let path { self.planned.insert(path) }
        return path
    }

    /// The notes the cards go into, one per deck and tag set, each read back whole; false (with
    /// an error) when one cannot be made.
    mutating func planCardNotes() -> Bool {
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
                return false
            }
            let body: String
            do { body = try CardWriter.body(group.cards) } catch {
                fail(0, nil, "\(error)")
                return false
            }
            guard let bytes = CSVImport.note(fields: noteFields(title: options.name), tags: group.tags, body: "\n" + body) else {
                fail(0, nil, "cannot write the front matter of \(notePath)")
                return false
            }
            let cards = group.cards.reduce(0) { $0 + $1.variants.count }
            // The whole note read back: every card planned, no warning.
            let (note, problems) = NoteParser.parse(bytes, path: notePath)
            guard let note, note.cards.count == cards, !problems.contains(where: { $0.severity >= .warning }) else {
                fail(0, nil, "\(notePath) would not read back as the \(cards) cards written: " + problems.map(\.message).joined(separator: "; "))
                return false
            }
            result.notes.append(PlannedNote(path: notePath, bytes: bytes, cards: cards))
        }
        return true
    }

    /// The rows that are notes of their own (`Note` and `Context` columns): titled by their first
    /// line, each note's own warnings reported at it.
    mutating func planOwnNotes() {
        for row in noteRows {
            var lines = row.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var title = lines.removeFirst().trimmingSpaces()
            while title.hasPrefix("#") { title.removeFirst() }
            title = title.trimmingSpaces()
            if title.isEmpty { title = "Note" }
            lines.removeFirst(lines.prefix { $0.trimmingSpaces().isEmpty }.count)
            // The same file imported again: its notes are there already.
            let key = CSVImport.noteKey(title: title, source: options.source)
            // In this file, only the same text again is the same note.
            let inFile = row.deck + "\n" + key + "\u{0}" + row.body
            if let there = existing(row.deck, key) ?? seenNotes[inFile] {
                result.diagnostics.append(Diagnostic(.warning, path: path, line: row.line, message:
                    "same note as \(there) (title '\(title)', from \(options.source)); skipped"))
                result.duplicates += 1
                continue
            }
            guard let notePath = free(row.deck, NoteCreation.fileName(for: title)) else {
                return fail(0, nil, "too many notes named '\(title)' in \(row.deck)")
            }
            var fields = noteFields(title: title)
            if let context = row.context { fields.append(("context", .scalar(context))) }
            let body = lines.isEmpty ? "" : "\n" + lines.joined(separator: "\n") + "\n"
            guard let bytes = CSVImport.note(fields: fields, tags: row.tags, body: body) else {
                return fail(0, nil, "cannot write the front matter of \(notePath)")
            }
            let (note, problems) = NoteParser.parse(bytes, path: notePath)
            result.notes.append(PlannedNote(path: notePath, bytes: bytes, cards: note?.cards.count ?? 0))
            seenNotes[inFile] = "line \(row.line)"
            for p in problems where p.severity >= .warning {
                result.diagnostics.append(Diagnostic(.warning, path: notePath, line: p.line, column: p.column, message: p.message))
            }
        }
    }

    /// A note's first keys: title, created, source.
    private func noteFields(title: String) -> [(String, YAMLValue)] {
        [("title", .scalar(title)), ("created", .scalar(options.created.iso8601(milliseconds: false))), ("source", .scalar(options.source))]
    }
}
