import QuireArchive
import QuireMarkdown
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
import QuireSupport
import QuireSystem
import QuireYAML
import QuireVault

/// What an Anki package becomes (`quire import anki`): planned in full before anything is written.
///
/// - Each Anki note becomes a Quire note in the folder of its first card's deck (`A::B` → `A/B`,
///   under `--into`), named after its first field, with `title`, `created` (the note's creation),
///   `source` (the package), `anki` (the note's GUID) and `tags` (`::` becomes `/`).
/// - Its cards are written in Quire's syntax from its fields (HTML turned into Markdown): Basic and
///   type-in notes make a basic card (`type: true` for type-in), a note with its reverse card
///   (Basic-and-reversed, or optional-reversed with the reverse present) a reversed pair, Cloze
///   notes a cloze (Back Extra follows as the note's text); any other note type makes a basic card
///   of its first field and the others, and is reported.
/// - Each card's state is Anki's: new, learning, review or relearning, its due date as Anki
///   computes it (review days from the collection's creation), interval, ease, reps, lapses,
///   suspended and buried, and its FSRS memory state when the collection has one (otherwise
///   derived by replaying its answers through Quire's FSRS).
/// - Its answers become `grade` lines of the log, and a `set` line then gives the state above, so
///   that replaying the log gives the note's state exactly (FORMAT.md §6).
/// - Media files the fields use are copied into `assets/` (under `--into`), linked by their path from
///   the vault's top (where Quire looks for an image the note's folder does not hold).
public struct AnkiImport: Sendable {
    /// What the import is told beyond the package.
    public struct Options: Sendable {
        /// The package's file name (`source:`).
        public var source: String
        /// A folder of the vault to put everything under ("" for the top).
        public var folder: String
        /// When the import runs: the time of the `set` lines.
        public var now: Timestamp
        /// When a buried card becomes due again (the next study day's start).
        public var buriedUntil: Timestamp
        /// The settings whose FSRS derives a memory state Anki did not keep.
        public var settings: SchedulerSettings
        /// Whether the vault's logs already hold an event of this card with this `id=` (an
        /// import's events have IDs derived from what they record: see ``eventID(card:_:)``).
        public var logged: @Sendable (_ card: CardID, _ id: String) -> Bool

        /// Options for importing `source`.
        public init(source: String, folder: String = "", now: Timestamp, buriedUntil: Timestamp,
                    settings: SchedulerSettings = SchedulerSettings(),
                    logged: @escaping @Sendable (_ card: CardID, _ id: String) -> Bool = { _, _ in false }) {
            self.source = source
            self.folder = folder
            self.now = now
            self.buriedUntil = buriedUntil
            self.settings = settings
            self.logged = logged
        }
    }

    /// The `id=` of an imported event: 50 bits of SipHash-2-4 over the card's ID and what the event
    /// records (for an answer, Anki's review ID; for a `set`, the state), never the time of the
    /// import — so the same event imported again has the same ID, and an import leaves out the
    /// events the vault's logs already hold (FORMAT.md §6, "Event IDs").
    public static func eventID(card: CardID, _ parts: [String]) -> String {
        var hasher = SipHash24(k0: 0x616e_6b69_2d65_7665, k1: 0x6e74_2d69_6420_7631)
        hasher.combine(card.description)
        for part in parts {
            hasher.combine(byte: 0)
            hasher.combine(part)
        }
        return Base32.encodeTopBits(hasher.finalize(), count: 10)
    }

    /// The events the vault's logs hold, for ``Options/logged``: each card's `id=`s.
    public static func loggedEvents(_ events: [ReviewEvent]) -> @Sendable (_ card: CardID, _ id: String) -> Bool {
        var ids: [CardID: Set<String>] = [:]
        for event in events { if let id = event.field("id") { ids[event.card, default: []].insert(id) } }
        let found = ids
        return { card, id in found[card]?.contains(id) ?? false }
    }

    /// The notes to write.
    public var notes: [PlannedNote] = []
    /// The media to copy: the package entry, and the path in the vault.
    public var media: [(entry: String, path: String)] = []
    /// The log's new lines, in order (without line ends).
    public var logLines: [String] = []
    /// Problems: errors mean nothing may be written.
    public var diagnostics: [Diagnostic] = []
    /// Cards and answers planned.
    public var cardCount = 0, reviewCount = 0
    /// Events left out because the vault's logs already hold them.
    public var alreadyLogged = 0
    /// Notes skipped because their first card is already in its deck (an import run again).
    public var alreadyThere = 0

    /// Whether the plan may be written.
    public var isWritable: Bool { !diagnostics.contains { $0.severity == .error } }

    /// Plans the import.
    ///
    /// - Parameters:
    ///   - existing: the location of a card already in the vault in deck folder `deck` whose front
    ///     is `front` (``CSVImport/frontKey(_:)``; a cloze: its whole text): a note whose first card
    ///     is already there (an import run again) is skipped and counted.
    ///   - existingNote: the path of the note in the vault imported from the Anki note with this
    ///     GUID (its `anki:` key), if any: such a note is skipped and counted.
    ///   - sameMedia: whether the file at a vault path holds exactly the bytes of a package's
    ///     media entry: then it is that media file's, and not copied again.
    ///   - taken: whether a path in the vault is taken.
    public static func plan(_ package: AnkiPackage, options: Options, existing: (_ deck: String, _ front: String) -> String? = { _, _ in nil },
                            existingNote: (_ guid: String) -> String? = { _ in nil },
                            sameMedia: (_ path: String, _ entry: String) -> Bool = { _, _ in false },
                            taken: (String) -> Bool) -> AnkiImport {
        var result = AnkiImport()
        let name = options.source
        func report(_ severity: Diagnostic.Severity, _ message: String) {
            result.diagnostics.append(Diagnostic(severity, path: name, message: message))
        }
        let prefix = options.folder.isEmpty ? "" : options.folder + "/"
        var cardsOf: [Int64: [AnkiPackage.Card]] = [:]
        for card in package.cards { cardsOf[card.note, default: []].append(card) }
        var reviewsOf: [Int64: [AnkiPackage.Review]] = [:]
        for review in package.reviews { reviewsOf[review.card, default: []].append(review) }
        // Each media file its own name in assets/: a name another file (or the vault) has gets
        // ` 2`, ` 3`, … before its extension. Linked from the vault's top, as Quire finds a
        // note's images (beside the note, then there).
        // A file already there with the same bytes (an import run again) is the file's.
        var mediaPathOf: [String: String] = [:]
        var mediaPathsTaken = Set<String>()
        var mediaInVault = Set<String>()
        for entry in package.media where mediaPathOf[entry.name] == nil {
            guard let safe = Self.mediaFileName(entry.name) else { continue }
            let dot = safe.lastIndex(of: ".").flatMap { $0 == safe.startIndex ? nil : $0 } ?? safe.endIndex
            var candidate = prefix + "assets/" + safe
            var n = 1
            while mediaPathsTaken.contains(candidate) || taken(candidate) {
                if !mediaPathsTaken.contains(candidate), sameMedia(candidate, entry.entry) {
                    mediaInVault.insert(candidate)
                    break
                }
                n += 1
                candidate = prefix + "assets/" + safe[..<dot] + " \(n)" + safe[dot...]
            }
            mediaPathsTaken.insert(candidate)
            mediaPathOf[entry.name] = candidate
        }
        let media = mediaPathOf, cards = cardsOf, reviews = reviewsOf

        // Each note's cards written, on every core.
        let notes = package.notes
        let drafted = ResultSlots<Drafted>(count: notes.count)
        inParallelChunks(of: notes.count, chunk: 64, concurrency: nil) { range in
            for k in range { drafted[k] = Self.draft(notes[k], package: package, cards: cards[notes[k].id] ?? [], prefix: prefix, media: media) }
            return true
        }
        // In order: what is already there, and where each note goes.
        var planned = Set<String>()
        var accepted: [(note: AnkiPackage.Note, draft: Drafted, path: String)] = []
        var unknownNotetypes: [String: Int] = [:]
        for (k, note) in notes.enumerated() {
            guard let draft = drafted.take(k) else { continue }
            if let problem = draft.problem {
                report(problem.severity, problem.message)
                continue
            }
            guard let written = draft.written.first else { continue }
            if let unknown = draft.unknownNotetype { unknownNotetypes[unknown, default: 0] += 1 }
            if existingNote(note.guid) != nil || existing(draft.folder, CSVImport.frontKey(written.draft.sides[0].text)) != nil {
                result.alreadyThere += 1
                continue
            }
            for warning in draft.warnings { report(.warning, warning) }
            guard let path = NoteCreation.freePath(folder: draft.folder, name: NoteCreation.fileName(for: draft.title),
                                                   taken: { planned.contains($0) || taken($0) }) else {
                report(.error, "too many notes named '\(draft.title)' in \(draft.folder)")
                continue
            }
            planned.insert(path)
            accepted.append((note, draft, path))
        }
        // Review days count from the collection's creation (seconds); out of range, from today.
        let dayZero = (0...(timeRange.upperBound / 1000)).contains(package.created) ? package.created
            : options.now.milliseconds / 86_400_000 * 86_400
        if dayZero != package.created {
            report(.warning, "the collection's creation time (\(package.created)) is out of range; due days counted from today")
        }
        // Each note built — states, log lines, front matter, read back — on every core.
        let jobs = accepted
        let built = ResultSlots<Built>(count: jobs.count)
        inParallelChunks(of: jobs.count, chunk: 64, concurrency: nil) { range in
            for k in range {
                built[k] = Self.build(jobs[k].note, jobs[k].draft, path: jobs[k].path, reviews: reviews, dayZero: dayZero,
                                      options: options)
            }
            return true
        }
        var usedMedia: [String: String] = [:]
        for k in jobs.indices {
            guard let note = built.take(k) else { continue }
            if let problem = note.problem {
                report(.error, problem)
                continue
            }
            for warning in note.warnings { report(.warning, warning) }
            guard let planned = note.note else { continue }
            result.notes.append(planned)
            result.cardCount += planned.cards
            result.logLines += note.logLines
            result.reviewCount += note.reviewCount
            result.alreadyLogged += note.alreadyLogged
            usedMedia.merge(jobs[k].draft.media) { a, _ in a }
        }
        for (notetype, count) in unknownNotetypes.sorted(by: { $0.key < $1.key }) {
            report(.warning, "note type '\(notetype)' (\(Plural.counted(count, "note"))) is not one Quire knows: "
                   + "each card's fields as its template shows them")
        }
        // Media: each file the kept notes use, once.
        var entryOf: [String: String] = [:]
        for entry in package.media { entryOf[entry.name] = entry.entry }
        for (file, path) in usedMedia.sorted(by: { $0.key < $1.key }) where !mediaInVault.contains(path) {
            guard let entry = entryOf[file] else { continue }
            result.media.append((entry, path))
        }
        for note in package.notes where cardsOf[note.id] == nil {
            report(.warning, "note \(note.id) ('\(Self.plainTitle(note.fields.first ?? ""))') has no cards; not imported")
        }
        return result
    }

    /// A note's cards written, before it has a place.
    struct Drafted: Sendable {
        var folder = ""
        /// The note's cards, in order.
        var written: [WrittenCard] = []
        /// Fields no card shows (and a cloze's Back Extra): the note's text after the cards, each
        /// labelled with its field's name.
        var extra: [(name: String, text: String)] = []
        var typed = false
        var title = ""
        /// The Anki card each Quire card stands for.
        var ankiCards: [AnkiPackage.Card?] = []
        /// The media the fields use: name → path in the vault.
        var media: [String: String] = [:]
        var unknownNotetype: String?
        var warnings: [String] = []
        var problem: (severity: Diagnostic.Severity, message: String)?
    }

    /// Writes a note's cards from its fields, as its note type's templates show them.
    ///
    /// - Cloze: the cloze field is one cloze group (one Quire card per number, Anki's card
    ///   `ord` = number − 1); the other fields its template shows follow as the note's text.
    /// - Basic-shaped (every card's question shows the first field and its answer the second):
    ///   a basic card (a definition for Quire's own), or a reversed pair when the note has both
    ///   Anki cards of a front/back and back/front pair.
    /// - Any other note type: one basic card per Anki card, its front the fields its template's
    ///   question shows and its back those its answer adds, each labelled with its field's name
    ///   when a side shows several; fields no card shows follow as the note's text, labelled.
    static func draft(_ note: AnkiPackage.Note, package: AnkiPackage, cards unsorted: [AnkiPackage.Card], prefix: String,
                      media: [String: String]) -> Drafted {
        var result = Drafted()
        guard let notetype = package.notetypes[note.notetype] else {
            result.problem = (.error, "note \(note.id): its note type (\(note.notetype)) is not in the collection")
            return result
        }
        let cards = unsorted.sorted { $0.ordinal < $1.ordinal }
        guard let first = cards.first else { return result }
        let deckID = first.originalDeck != 0 ? first.originalDeck : first.deck
        let deckName = package.decks[deckID] ?? "Default"
        guard let deckFolder = CSVImport.folder(forDeck: deckName) else {
            result.problem = (.error, "note \(note.id): deck '\(deckName)' cannot be a folder of the vault")
            return result
        }
        result.folder = prefix + deckFolder
        let decks = Set(cards.map { $0.originalDeck != 0 ? $0.originalDeck : $0.deck })
        if decks.count > 1 {
            let names = decks.compactMap { package.decks[$0] }.filter { $0 != deckName }.sorted()
            result.warnings.append("note \(note.id): its cards are in several decks (\(([deckName] + names).joined(separator: ", "))); "
                                   + "the note goes to its first card's, \(deckName)")
        }
        let templates = notetype.templates.map { AnkiTemplate(question: $0.question, answer: $0.answer, fields: notetype.fields) }
        let latex = templates.reduce(into: Set<Int>()) { $0.formUnion($1.latex) }
        func markdown(_ field: String, latex: Bool) -> String {
            // A field Quire exported and Anki left as it was: its Markdown as written.
            let (html, stashed) = MarkdownStash.take(field)
            if let stashed {
                return MarkdownStash.relinked(stashed) { name in
                    guard let path = media[name] else { return nil }
                    result.media[name] = path
                    return path
                }
            }
            func convert(_ html: String) -> String {
                HTMLToMarkdown.convert(html) { file in
                    guard let path = media[file] else { return file }
                    result.media[file] = path
                    return path
                }.markdown
            }
            // LaTeX source the template typesets: its text as it is (not escaped), its `$…$`
            // math Markdown's math.
            if latex, !html.contains("[/latex]") { return Self.latexSource(convert("[latex]" + html + "[/latex]")) }
            return convert(html)
        }
        let fields = note.fields.enumerated().map { markdown($1, latex: latex.contains($0)).trimmingSpaces() }
        func field(_ k: Int) -> String { k < fields.count ? fields[k] : "" }
        func name(_ k: Int) -> String { k < notetype.fields.count ? notetype.fields[k] : "Field \(k + 1)" }
        /// The fields as one side: a lone field (or the only one not empty) as it is, several each
        /// labelled with its name (empty ones left out).
        func side(_ indices: [Int]) -> String {
            let filled = indices.filter { !field($0).isEmpty }
            if filled.count <= 1 { return filled.first.map(field) ?? "" }
            return filled.map { Self.labelled(name($0), field($0)) }.joined(separator: "\n\n")
        }
        func template(_ card: AnkiPackage.Card) -> AnkiTemplate? {
            notetype.isCloze ? templates.first : (card.ordinal < templates.count ? templates[card.ordinal] : nil)
        }
        result.typed = cards.contains { template($0)?.typed ?? false }
        var shown = Set<Int>()
        var drafts: [(draft: CardDraft, anki: [AnkiPackage.Card?])] = []
        if notetype.isCloze {
            let clozeField = notetype.templates.first.map { Self.clozeField($0.question, fields: notetype.fields) } ?? 0
            // The other fields the question shows (an image occlusion's image and header) are part
            // of the card's text, in the template's order; those only the answer shows follow it.
            let question = templates.first?.question ?? [clozeField]
            let rest = (templates.first?.answer ?? [1]).filter { $0 != clozeField }
            shown = Set([clozeField] + question + rest)
            let clozeText = field(clozeField)
            let text = (question.contains(clozeField) ? question : [clozeField] + question)
                .filter { $0 == clozeField || !field($0).isEmpty }.map(field).joined(separator: "\n\n")
            if CardWriter.holdsAnkiDeletion(clozeText) {
                drafts = [(CardDraft(.cloze(text)), [])]
                result.extra = rest.filter { !field($0).isEmpty }.map { (name($0), field($0)) }
            } else {
                // Anki makes a card of a cloze note without a deletion; so does Quire, a basic one.
                result.warnings.append("note \(note.id): its cloze text has no deletion ('{{c1::…}}'); imported as a basic card")
                drafts = [(CardDraft(.basic(question: text, answer: side(rest))), [first])]
                result.extra = []
            }
        } else {
            let definition = notetype.name.hasPrefix("Quire Definition") || notetype.fields.prefix(2) == ["Term", "Definition"]
            let shapes = cards.map { card -> Int? in
                guard let t = template(card) else { return nil }
                if t.question == [0] && t.answer == [1] { return 0 }
                if t.question == [1] && t.answer == [0] { return 1 }
                return nil
            }
            if shapes == [0] {
                let content: CardDraft.Content = definition ? .definition(term: field(0), definition: field(1))
                    : .basic(question: field(0), answer: field(1))
                drafts = [(CardDraft(content), [first])]
                shown = [0, 1]
            } else if shapes == [0, 1] {
                drafts = [(CardDraft(.reversed(front: field(0), back: field(1))), [cards[0], cards[1]])]
                shown = [0, 1]
            } else {
                if templates.count > 2 || notetype.fields.count > 3 || shapes.contains(where: { $0 == nil }) {
                    result.unknownNotetype = notetype.name
                }
                for card in cards {
                    guard let t = template(card), !t.question.isEmpty else {
                        // No template to read: the first field asks, the others answer.
                        let others = Array(1..<max(1, fields.count))
                        drafts.append((CardDraft(.basic(question: field(0), answer: side(others))), [card]))
                        shown.formUnion([0] + others)
                        continue
                    }
                    drafts.append((CardDraft(.basic(question: side(t.question), answer: side(t.answer))), [card]))
                    shown.formUnion(t.question + t.answer)
                }
            }
            let unshown = fields.indices.filter { !shown.contains($0) && !field($0).isEmpty }
            result.extra = unshown.map { (name($0), field($0)) }
        }
        let titleField = template(first)?.question.first ?? 0
        result.title = Self.plainTitle(field(notetype.isCloze ? (templates.first?.question.first ?? 0) : titleField))
        for (draft, anki) in drafts {
            let written: WrittenCard
            do {
                written = try CardWriter.write(draft)
            } catch {
                result.problem = (.error, "note \(note.id) ('\(result.title)'): cannot be written as a card: \(error)")
                return result
            }
            for (side, text) in written.draft.sides where text.isEmpty {
                result.warnings.append("note \(note.id) ('\(result.title)'): the \(side.rawValue) is empty; imported as it is")
            }
            result.written.append(written)
            for variant in written.variants {
                switch variant {
                case .single: result.ankiCards.append(anki.first ?? nil)
                case .forward: result.ankiCards.append(anki.first ?? nil)
                case .backward: result.ankiCards.append(anki.count > 1 ? anki[1] : nil)
                case .cloze(let n): result.ankiCards.append(cards.first { $0.ordinal == n - 1 })
                }
            }
        }
        let matched = Set(result.ankiCards.compactMap { $0?.id })
        for card in cards where !matched.contains(card.id) {
            result.warnings.append("note \(note.id) ('\(result.title)'): card \(card.ordinal + 1) is for cloze number "
                                   + "\(card.ordinal + 1), which the text no longer has (Anki shows it empty; its Empty Cards "
                                   + "tool removes it); not imported")
        }
        return result
    }

    /// The text of display math the converter made of a `[latex]` field (`$$…$$`): its LaTeX.
    static func latexSource(_ markdown: String) -> String {
        var text = markdown.trimmingSpaces()
        guard text.hasPrefix("$$"), text.hasSuffix("$$"), text.count >= 4 else { return text }
        text = String(text.dropFirst(2).dropLast(2))
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A field as part of a side or of the note's text: its name in bold, then its text (on the
    /// same line when that is one line of prose).
    static func labelled(_ name: String, _ text: String) -> String {
        let label = "**" + String(String.UnicodeScalarView(name.unicodeScalars.filter {
            $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && !"*_`[]<>\\".unicodeScalars.contains($0)
        })).trimmingSpaces() + ":**"
        if text.isEmpty { return label }
        if !text.contains("\n"), !isBlockStart(Substring(text)), !text.hasPrefix("```"), !text.hasPrefix("~~~") {
            return label + " " + text
        }
        return label + "\n\n" + text
    }

    /// Milliseconds since 1970 that a time read from a package may be: years 1970 to 9999.
    static let timeRange: ClosedRange<Int64> = 0...253_402_300_799_999

    /// Text in a fenced block (of backticks longer than any run that starts one of its lines), so
    /// that nothing in it is read as a card.
    static func fenced(_ text: String) -> String {
        let fence = CardWriter.fence(around: text)
        return fence + "markdown\n" + text + "\n" + fence
    }

    /// The field a cloze template's question deletes from (`{{cloze:Text}}`); the first by default.
    static func clozeField(_ format: String, fields: [String]) -> Int {
        guard let range = format.range(ofLiteral: "{{cloze:"), let close = format[range.upperBound...].range(ofLiteral: "}}") else { return 0 }
        let name = format[range.upperBound..<close.lowerBound].split(separator: ":").last.map(String.init)?.trimmingSpaces() ?? ""
        return fields.firstIndex(of: name) ?? 0
    }
}

extension AnkiImport {
    /// The GUIDs of the Anki notes already imported into the vault (each note's `anki:` key), with
    /// their notes' paths. Only notes that name a `source` are read.
    public static func importedNotes(_ notes: [Note], vault: Vault) -> [String: String] {
        var found: [String: String] = [:]
        for note in notes where note.source != nil {
            guard let full = try? vault.notePath(note.path), let bytes = try? vault.io.read(full).bytes,
                  let guid = (try? FrontMatter(file: bytes))?.root?["anki"]?.scalar?.value, !guid.isEmpty else { continue }
            found[guid] = note.path
        }
        return found
    }

    /// Whether a vault file holds exactly a media entry's bytes (``plan(_:options:existing:existingNote:sameMedia:taken:)``).
    public static func sameMedia(package path: String, name: String, format: AnkiPackage.Format, vault: Vault) -> (String, String) -> Bool {
        let zip = try? ZipArchive(path: path, name: name)
        return { target, entry in
            guard let zip, let full = try? vault.filePath(target), let stamp = vault.io.stamp(full), stamp.isRegularFile,
                  let bytes = try? AnkiPackage.mediaBytes(zip, entry: entry, current: format == .current, limit: AnkiPackage.entryLimit),
                  bytes.count == Int(stamp.size) else { return false }
            return (try? vault.io.read(full).bytes) == bytes
        }
    }

    /// Everything the plan writes, for ``StagedFiles``: the log of the imported answers as a log
    /// file of its own (`.quire/log/LOG.log`, a device that is never written again, so that two
    /// machines' imports never touch one file), the media read from the package when staged, and
    /// the notes.
    ///
    /// - Parameter budget: the most bytes one media file is read to (the import's budget).
    public func files(package path: String, name: String, format: AnkiPackage.Format, log: String,
                      budget: Int = AnkiPackage.entryLimit) throws(InterchangeError) -> [StagedFiles.File] {
        let limit = min(budget, AnkiPackage.entryLimit)
        var files: [StagedFiles.File] = []
        if !logLines.isEmpty {
            let text = ReviewLog.header + "\n" + logLines.joined(separator: "\n") + "\n"
            files.append(StagedFiles.File(".quire/log/" + log + ".log", .quire) { Array(text.utf8) })
        }
        if !media.isEmpty {
            let zip: ZipArchive
            do { zip = try ZipArchive(path: path, name: name) } catch { throw .invalid(.init(.error, path: name, message: error.description)) }
            for (entry, target) in media {
                files.append(StagedFiles.File(target, .file) {
                    guard let bytes = try AnkiPackage.mediaBytes(zip, entry: entry, current: format == .current, limit: limit) else {
                        throw InterchangeError.invalid(.init(.error, path: name, message: "media entry \(entry) is missing"))
                    }
                    return bytes
                })
            }
        }
        files += notes.map { StagedFiles.File.note($0.path, $0.bytes) }
        return files
    }
}

/// A note an import writes: its path in the vault, its bytes, and how many cards it makes.
public struct PlannedNote: Sendable, Equatable {
    /// Its path in the vault.
    public var path: String
    /// Its bytes.
    public var bytes: [UInt8]
    /// The cards it makes.
    public var cards: Int

    /// A planned note.
    public init(path: String, bytes: [UInt8], cards: Int) {
        self.path = path
        self.bytes = bytes
        self.cards = cards
    }
}
