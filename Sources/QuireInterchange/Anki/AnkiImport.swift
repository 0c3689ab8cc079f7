import QuireArchive
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
import QuireSupport
import QuireYAML

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
        /// Event IDs for the log lines.
        public var eventIDs: @Sendable () -> String

        /// Options for importing `source`.
        public init(source: String, folder: String = "", now: Timestamp, buriedUntil: Timestamp,
                    settings: SchedulerSettings = SchedulerSettings(), eventIDs: @escaping @Sendable () -> String) {
            self.source = source
            self.folder = folder
            self.now = now
            self.buriedUntil = buriedUntil
            self.settings = settings
            self.eventIDs = eventIDs
        }
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
    ///   - taken: whether a path in the vault is taken.
    public static func plan(_ package: AnkiPackage, options: Options, existing: (_ deck: String, _ front: String) -> String? = { _, _ in nil },
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
        var mediaPathOf: [String: String] = [:]
        var mediaPathsTaken = Set<String>()
        for entry in package.media where mediaPathOf[entry.name] == nil {
            guard let safe = Self.mediaFileName(entry.name) else { continue }
            let dot = safe.lastIndex(of: ".").flatMap { $0 == safe.startIndex ? nil : $0 } ?? safe.endIndex
            var candidate = prefix + "assets/" + safe
            var n = 1
            while mediaPathsTaken.contains(candidate) || taken(candidate) {
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
            guard let written = draft.written else { continue }
            if let unknown = draft.unknownNotetype { unknownNotetypes[unknown, default: 0] += 1 }
            if existing(draft.folder, CSVImport.frontKey(written.draft.sides[0].text)) != nil {
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
        // Each note built — states, log lines, front matter, read back — on every core.
        let jobs = accepted
        let built = ResultSlots<Built>(count: jobs.count)
        inParallelChunks(of: jobs.count, chunk: 64, concurrency: nil) { range in
            for k in range {
                built[k] = Self.build(jobs[k].note, jobs[k].draft, path: jobs[k].path, reviews: reviews, dayZero: package.created,
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
            guard let planned = note.note else { continue }
            result.notes.append(planned)
            result.cardCount += planned.cards
            result.logLines += note.logLines
            result.reviewCount += note.reviewCount
            usedMedia.merge(jobs[k].draft.media) { a, _ in a }
        }
        for (notetype, count) in unknownNotetypes.sorted(by: { $0.key < $1.key }) {
            report(.warning, "note type '\(notetype)' (\(count) note\(count == 1 ? "" : "s")) is not one Quire knows: "
                   + "its first field became the front, the others the back")
        }
        // Media: each file the kept notes use, once.
        var entryOf: [String: String] = [:]
        for entry in package.media { entryOf[entry.name] = entry.entry }
        for (file, path) in usedMedia.sorted(by: { $0.key < $1.key }) {
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
        var written: WrittenCard?
        /// A cloze's Back Extra: the note's text after the card.
        var extra = ""
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

    /// Writes a note's card from its fields.
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
        func markdown(_ field: String) -> String {
            // A field Quire exported and Anki left as it was: its Markdown as written.
            let (html, stashed) = MarkdownStash.take(field)
            if let stashed { return stashed }
            return HTMLToMarkdown.convert(html) { file in
                guard let path = media[file] else { return file }
                result.media[file] = path
                return path
            }.markdown
        }
        let fields = note.fields.map { Self.sideText(markdown($0)) }
        func field(_ k: Int) -> String { k < fields.count ? fields[k] : "" }
        let ordinals = Set(cards.map(\.ordinal))
        let draft: CardDraft
        if notetype.isCloze {
            draft = CardDraft(.cloze(field(0)))
            result.extra = field(1)
        } else {
            let reversible = notetype.templates.count >= 2 && ordinals.contains(1)
            // Quire's own export of a definition (its note type named for it, or fields so named).
            let definition = notetype.name.hasPrefix("Quire Definition") || notetype.fields.prefix(2) == ["Term", "Definition"]
            let standard = notetype.name.lowercased().hasPrefix("basic") || definition
            var back = field(1)
            if !standard || notetype.fields.count > 3 || (notetype.fields.count == 3 && notetype.fields[2].lowercased() != "add reverse") {
                let rest = (1..<max(1, fields.count)).map(field).filter { !$0.trimmingSpaces().isEmpty }
                back = rest.joined(separator: "\n")
                result.unknownNotetype = notetype.name
            }
            result.typed = notetype.templates.first.map { $0.question.contains("{{type:") || $0.answer.contains("{{type:") } ?? false
            draft = reversible ? CardDraft(.reversed(front: field(0), back: back))
                : definition ? CardDraft(.definition(term: field(0), definition: back)) : CardDraft(.basic(question: field(0), answer: back))
        }
        result.title = Self.plainTitle(field(0))
        let written: WrittenCard
        do {
            written = try CardWriter.write(draft)
        } catch {
            result.problem = (.error, "note \(note.id) ('\(result.title)'): cannot be written as a card: \(error)")
            return result
        }
        result.written = written
        for variant in written.variants {
            switch variant {
            case .single, .forward: result.ankiCards.append(cards.first { $0.ordinal == 0 })
            case .backward: result.ankiCards.append(cards.first { $0.ordinal == 1 })
            case .cloze(let n): result.ankiCards.append(cards.first { $0.ordinal == n - 1 })
            }
        }
        let matched = Set(result.ankiCards.compactMap { $0?.id })
        for card in cards where !matched.contains(card.id) {
            result.warnings.append("note \(note.id) ('\(result.title)'): card \(card.ordinal + 1) has no Quire card (its template's text is not the note's); not imported")
        }
        return result
    }

    /// A note built at its place.
    struct Built: Sendable {
        var note: PlannedNote?
        var logLines: [String] = []
        var reviewCount = 0
        var problem: String?
    }

    /// Builds a drafted note at `path`: its cards' states, the log lines that give them, its front
    /// matter, read back.
    static func build(_ note: AnkiPackage.Note, _ draft: Drafted, path: String, reviews reviewsOf: [Int64: [AnkiPackage.Review]],
                      dayZero: Int64, options: Options) -> Built {
        var result = Built()
        guard let written = draft.written else { return result }
        let ids = CardWriter.cardIDs(of: [written], path: path).first ?? []
        var states: [SchedulingState?] = []
        for (k, anki) in draft.ankiCards.enumerated() {
            guard let anki, k < ids.count else {
                states.append(nil)
                continue
            }
            let reviews = (reviewsOf[anki.id] ?? []).filter { (1...4).contains($0.ease) && $0.type != 4 && $0.type != 5 }
            var state = Self.state(of: anki, reviews: reviews, dayZero: dayZero, options: options, card: ids[k])
            for review in reviews {
                guard let rating = Rating(rawValue: review.ease) else { continue }
                var fields: [(key: String, value: String)] = [("id", options.eventIDs()), ("sched", "fsrs")]
                if review.time > 0 { fields.append(("ms", String(min(review.time, 3_600_000)))) }
                fields.append(("path", path))
                fields.append(("via", "anki"))
                result.logLines.append(ReviewLog.format(ReviewEvent(time: Timestamp(milliseconds: review.id), card: ids[k],
                                                                    action: .grade(rating), fields: fields)))
                result.reviewCount += 1
            }
            if let s = state {
                let last = reviews.last.map { $0.id + 1 } ?? 0
                let time = Timestamp(milliseconds: max(options.now.milliseconds, last))
                var fields: [(key: String, value: String)] = [("id", options.eventIDs())]
                fields += s.fields.filter { $0.key != "fp" }
                fields.append(("path", path))
                fields.append(("via", "anki"))
                result.logLines.append(ReviewLog.format(ReviewEvent(time: time, card: ids[k], action: .set, fields: fields)))
                state = s.stored
            }
            states.append(state)
        }
        // The note: front matter, then the cards (and a cloze's extra text).
        var body = "\n"
        do { body += try CardWriter.body([written]) } catch {
            result.problem = "note \(note.id): \(error)"
            return result
        }
        if !draft.extra.trimmingSpaces().isEmpty { body += "\n" + draft.extra + "\n" }
        let tags = Array(Set(note.tags.compactMap { Tag($0.replacing("::", with: "/"))?.name })).sorted()
        var bytes: [UInt8]
        do {
            var editor = try FrontMatterEditor(file: [])
            try editor.set("title", to: .scalar(draft.title))
            try editor.set("created", to: .scalar(Timestamp(milliseconds: note.id).iso8601(milliseconds: false)))
            try editor.set("source", to: .scalar(options.source))
            try editor.set("anki", to: .scalar(note.guid))
            if draft.typed { try editor.set("type", to: .raw("true")) }
            if !tags.isEmpty { try editor.set("tags", to: .flowSequence(tags.map { .scalar($0) })) }
            bytes = editor.file + Array(body.utf8)
        } catch {
            result.problem = "note \(note.id): cannot write its front matter: \(error.message)"
            return result
        }
        // Read back: the cards, their IDs as planned; then the states with their fingerprints.
        let (parsed, problems) = NoteParser.parse(bytes, path: path)
        guard let parsed, parsed.cards.map(\.id) == ids, !problems.contains(where: { $0.severity >= .warning }) else {
            result.problem = "note \(note.id): \(path) would not read back as the cards written: " + problems.map(\.message).joined(separator: "; ")
            return result
        }
        do {
            var editor = try FrontMatterEditor(file: bytes)
            for (k, card) in parsed.cards.enumerated() {
                guard var state = states[k] else { continue }
                state.fingerprint = card.fingerprint
                try SchedulingLine.set(state, of: card.id, in: &editor)
            }
            bytes = editor.file
        } catch {
            result.problem = "note \(note.id): cannot write its scheduling lines: \(error.message)"
            return result
        }
        result.note = PlannedNote(path: path, bytes: bytes, cards: parsed.cards.count)
        return result
    }

    /// A card's Quire state from Anki's (nil for a new card neither suspended nor buried).
    static func state(of card: AnkiPackage.Card, reviews: [AnkiPackage.Review], dayZero: Int64, options: Options,
                      card id: CardID) -> SchedulingState? {
        var s = SchedulingState()
        let due = card.originalDeck != 0 && card.originalDue != 0 ? card.originalDue : card.due
        switch card.type {
        case 1, 3:
            s.state = card.type == 1 ? .learning : .relearning
            // Learning cards are due at a time (seconds); day-learning ones on a day.
            s.due = card.queue == 3 ? Timestamp(seconds: dayZero + due * 86_400) : Timestamp(seconds: due)
            s.step = 0
        case 2:
            s.state = .review
            s.due = Timestamp(seconds: dayZero + due * 86_400)
            s.interval = Int(clamping: max(card.interval, 0))
        default:
            s.state = .new
        }
        if s.state != .new {
            s.reps = Int(clamping: card.reps)
            s.lapses = Int(clamping: card.lapses)
            s.lastReview = reviews.last.map { Timestamp(milliseconds: $0.id) }
            if let memory = Self.memory(card.data) {
                // FSRS: the memory state is the card's; Anki's ease is left behind.
                s.stability = memory.stability
                s.difficulty = memory.difficulty
            } else {
                if card.factor > 0 { s.ease = Double(card.factor) / 1000 }
                // No memory state kept: replay the answers through Quire's FSRS for one.
                var replayed: SchedulingState?
                for review in reviews {
                    guard let rating = Rating(rawValue: review.ease) else { continue }
                    replayed = ReviewTransition.apply(.grade(rating), to: replayed, at: Timestamp(milliseconds: review.id),
                                                      card: id, settings: options.settings)
                }
                s.stability = replayed?.stability
                s.difficulty = replayed?.difficulty
            }
        }
        if card.queue == -1 { s.suspended = true }
        if card.queue == -2 || card.queue == -3 { s.buriedUntil = options.buriedUntil }
        return s.state == .new && !s.suspended && s.buriedUntil == nil ? nil : s
    }

    /// The FSRS memory state in a card's data (`{"s": 12.3, "d": 5.1, …}`), when it has one.
    static func memory(_ data: String) -> (stability: Double, difficulty: Double)? {
        guard data.contains("\"s\""), let json = try? JSONValue(parsing: Array(data.utf8)), case .object(let fields) = json else { return nil }
        func number(_ key: String) -> Double? {
            switch fields.first(where: { $0.0 == key })?.1 {
            case .double(let d)?: d
            case .int(let i)?: Double(i)
            default: nil
            }
        }
        guard let s = number("s"), let d = number("d"), s.isFinite, d.isFinite, s > 0 else { return nil }
        return (s, d)
    }

    /// A field's Markdown as one side of a card: a card side is one paragraph, and blocks (lists,
    /// quotes, code, tables) each after one empty line; so an empty line before another paragraph
    /// goes (the two join with a line break), one before a block stays, and code is kept whole.
    static func sideText(_ markdown: String) -> String {
        var lines: [Substring] = []
        var fence: Substring?
        var pendingBlank = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                lines.append(line)
                continue
            }
            if trimmed.isEmpty {
                pendingBlank = !lines.isEmpty
                continue
            }
            let startsFence = trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
            if pendingBlank, startsFence || isBlockStart(line) { lines.append("") }
            pendingBlank = false
            if startsFence { fence = trimmed.prefix { $0 == trimmed.first } }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Whether a line starts a block other than a paragraph: a list item, a quote, a table row,
    /// indented code, a heading or a rule.
    static func isBlockStart(_ line: Substring) -> Bool {
        if line.hasPrefix("    ") || line.hasPrefix("\t") { return true }
        let t = line.drop { $0 == " " }
        if t.hasPrefix("- ") || t.hasPrefix("* ") || t.hasPrefix("+ ") || t.hasPrefix(">") || t.hasPrefix("|") || t.hasPrefix("#") { return true }
        if t == "---" || t == "***" { return true }
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && digits.count <= 9 && (t.dropFirst(digits.count).hasPrefix(". ") || t.dropFirst(digits.count).hasPrefix(") "))
    }

    /// A note's title from its first field: its text without Markdown marks or cloze syntax, on
    /// one line.
    static func plainTitle(_ markdown: String) -> String {
        var line = markdown.split(whereSeparator: { $0 == "\n" }).first.map(String.init) ?? ""
        // `{{c1::answer::hint}}` reads as its answer.
        while let open = line.range(of: "{{c"), let sep = line[open.upperBound...].range(of: "::"),
              line[open.upperBound..<sep.lowerBound].allSatisfy(\.isNumber),
              let close = line[sep.upperBound...].range(of: "}}") {
            let inner = line[sep.upperBound..<close.lowerBound]
            let answer = inner.range(of: "::").map { inner[..<$0.lowerBound] } ?? inner
            line.replaceSubrange(open.lowerBound..<close.upperBound, with: answer)
        }
        let kept = line.unicodeScalars.filter { !"*_`[]()!#<>\\\\$~{}".unicodeScalars.contains($0) }
        let text = String(String.UnicodeScalarView(kept)).trimmingSpaces()
        return text.isEmpty ? "Note" : String(text.prefix(120))
    }

    /// A media file's name as Quire writes it: the name's last part, without control characters,
    /// `/` or `\`, not hidden; nil when nothing is left.
    static func mediaFileName(_ name: String) -> String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var kept = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
        while kept.hasPrefix(".") { kept.removeFirst() }
        kept = kept.trimmingSpaces()
        return kept.isEmpty ? nil : String(kept.prefix(200))
    }
}

extension AnkiImport {
    /// Everything the plan writes, for ``StagedFiles``: the log of the imported answers as a log
    /// file of its own (`.quire/log/LOG.log`, a device that is never written again, so that two
    /// machines' imports never touch one file), the media read from the package when staged, and
    /// the notes.
    public func files(package path: String, name: String, format: AnkiPackage.Format, log: String) throws(InterchangeError) -> [StagedFiles.File] {
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
                    guard let bytes = try AnkiPackage.mediaBytes(zip, entry: entry, current: format == .current, limit: AnkiPackage.entryLimit) else {
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
