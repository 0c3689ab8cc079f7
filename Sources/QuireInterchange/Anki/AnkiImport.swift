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
        let prefix = options.folder.isEmpty ? "" : options.folder + "/"
        var cardsOf: [Int64: [AnkiPackage.Card]] = [:]
        for card in package.cards { cardsOf[card.note, default: []].append(card) }
        var reviewsOf: [Int64: [AnkiPackage.Review]] = [:]
        for review in package.reviews { reviewsOf[review.card, default: []].append(review) }
        let (media, mediaInVault) = Self.mediaPaths(package, prefix: prefix, sameMedia: sameMedia, taken: taken)
        let cards = cardsOf, reviews = reviewsOf

        // Each note's cards written, on every core.
        let notes = package.notes
        let drafted = ResultSlots<Drafted>(count: notes.count)
        inParallelChunks(of: notes.count, chunk: 64, concurrency: nil) { range in
            for k in range { drafted[k] = Self.draft(notes[k], package: package, cards: cards[notes[k].id] ?? [], prefix: prefix, media: media) }
            return true
        }
        let (accepted, unknownNotetypes) = result.place(notes, drafted: drafted, source: name, existing: existing,
                                                        existingNote: existingNote, taken: taken)
        // Review days count from the collection's creation (seconds); out of range, from today.
        let dayZero = (0...(timeRange.upperBound / 1000)).contains(package.created) ? package.created
            : options.now.milliseconds / 86_400_000 * 86_400
        if dayZero != package.created {
            result.report(.warning, "the collection's creation time (\(package.created)) is out of range; due days counted from today", in: name)
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
        let usedMedia = result.add(built, drafts: jobs.map(\.draft), source: name)
        for (notetype, count) in unknownNotetypes.sorted(by: { $0.key < $1.key }) {
            result.report(.warning, "note type '\(notetype)' (\(Plural.counted(count, "note"))) is not one Quire knows: "
                          + "each card's fields as its template shows them", in: name)
        }
        // Media: each file the kept notes use, once.
        var entryOf: [String: String] = [:]
        for entry in package.media { entryOf[entry.name] = entry.entry }
        for (file, path) in usedMedia.sorted(by: { $0.key < $1.key }) where !mediaInVault.contains(path) {
            guard let entry = entryOf[file] else { continue }
            result.media.append((entry, path))
        }
        for note in package.notes where cardsOf[note.id] == nil {
            result.report(.warning, "note \(note.id) ('\(Self.plainTitle(note.fields.first ?? ""))') has no cards; not imported", in: name)
        }
        return result
    }

    /// Adds a diagnostic about the package (`source`, its file name).
    private mutating func report(_ severity: Diagnostic.Severity, _ message: String, in source: String) {
        diagnostics.append(Diagnostic(severity, path: source, message: message))
    }

    /// Each media file's path in the vault, its own name in `assets/` (under `prefix`): a name
    /// another file (or the vault) has gets ` 2`, ` 3`, … before its extension. Linked from the
    /// vault's top, as Quire finds a note's images (beside the note, then there). A file already
    /// there with the same bytes (an import run again) is the file's: those paths are `inVault`.
    private static func mediaPaths(_ package: AnkiPackage, prefix: String, sameMedia: (_ path: String, _ entry: String) -> Bool,
                                   taken: (String) -> Bool) -> (pathOf: [String: String], inVault: Set<String>) {
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
        return (mediaPathOf, mediaInVault)
    }

    /// The drafted notes in order, each given its path: a note that could not be drafted is
    /// reported, one already in the vault (an import run again) skipped and counted. Returns the
    /// notes placed, and how many notes each note type Quire does not know has among them.
    private mutating func place(_ notes: [AnkiPackage.Note], drafted: ResultSlots<Drafted>, source: String,
                                existing: (_ deck: String, _ front: String) -> String?, existingNote: (_ guid: String) -> String?,
                                taken: (String) -> Bool)
        -> (placed: [(note: AnkiPackage.Note, draft: Drafted, path: String)], unknownNotetypes: [String: Int]) {
        var planned = Set<String>()
        var accepted: [(note: AnkiPackage.Note, draft: Drafted, path: String)] = []
        var unknownNotetypes: [String: Int] = [:]
        for (k, note) in notes.enumerated() {
            guard let draft = drafted.take(k) else { continue }
            if let problem = draft.problem {
                report(problem.severity, problem.message, in: source)
                continue
            }
            guard let written = draft.written.first else { continue }
            if let unknown = draft.unknownNotetype { unknownNotetypes[unknown, default: 0] += 1 }
            if existingNote(note.guid) != nil || existing(draft.folder, CSVImport.frontKey(written.draft.sides[0].text)) != nil {
                alreadyThere += 1
                continue
            }
            for warning in draft.warnings { report(.warning, warning, in: source) }
            guard let path = NoteCreation.freePath(folder: draft.folder, name: NoteCreation.fileName(for: draft.title),
                                                   taken: { planned.contains($0) || taken($0) }) else {
                report(.error, "too many notes named '\(draft.title)' in \(draft.folder)", in: source)
                continue
            }
            planned.insert(path)
            accepted.append((note, draft, path))
        }
        return (accepted, unknownNotetypes)
    }

    /// Adds the built notes (`drafts`, their drafts), in order: their problems and warnings, notes,
    /// log lines and counts. Returns the media the notes kept use: name → path in the vault.
    private mutating func add(_ built: ResultSlots<Built>, drafts: [Drafted], source: String) -> [String: String] {
        var usedMedia: [String: String] = [:]
        for k in drafts.indices {
            guard let note = built.take(k) else { continue }
            if let problem = note.problem {
                report(.error, problem, in: source)
                continue
            }
            for warning in note.warnings { report(.warning, warning, in: source) }
            guard let planned = note.note else { continue }
            notes.append(planned)
            cardCount += planned.cards
            logLines += note.logLines
            reviewCount += note.reviewCount
            alreadyLogged += note.alreadyLogged
            usedMedia.merge(drafts[k].media) { a, _ in a }
        }
        return usedMedia
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
