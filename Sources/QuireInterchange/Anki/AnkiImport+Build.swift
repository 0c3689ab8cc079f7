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

/// A drafted note built into its file, its cards' states and its log lines.
extension AnkiImport {
    /// A note built at its place.
    struct Built: Sendable {
        var note: PlannedNote?
        var logLines: [String] = []
        var reviewCount = 0
        var alreadyLogged = 0
        var warnings: [String] = []
        var problem: String?
    }

    /// Builds a drafted note at `path`: its cards' states, the log lines that give them, its front
    /// matter, read back.
    static func build(_ note: AnkiPackage.Note, _ draft: Drafted, path: String, reviews reviewsOf: [Int64: [AnkiPackage.Review]],
                      dayZero: Int64, options: Options) -> Built {
        var result = Built()
        let written = draft.written
        guard !written.isEmpty else { return result }
        let ids = CardWriter.cardIDs(of: written, path: path).flatMap { $0 }
        var states: [SchedulingState?] = []
        for (k, anki) in draft.ankiCards.enumerated() {
            guard let anki, k < ids.count else {
                states.append(nil)
                continue
            }
            states.append(Self.logged(anki, card: ids[k], note: note, path: path, reviews: reviewsOf[anki.id] ?? [], dayZero: dayZero,
                                      options: options, into: &result))
        }
        // The note: front matter, then the cards, then the fields no card shows. Those are plain
        // Markdown, or — when their text would be read as cards — each in a fenced block.
        var cardsText: String
        do { cardsText = try CardWriter.body(written) } catch {
            result.problem = "note \(note.id): \(error)"
            return result
        }
        guard let frontMatter = Self.frontMatter(of: note, draft, options: options, into: &result) else { return result }
        let (readBack, problems) = Self.readBack(frontMatter, cards: cardsText, extra: draft.extra, path: path, ids: ids)
        guard let readBack else {
            result.problem = "note \(note.id): \(path) would not read back as the cards written: " + problems.map(\.message).joined(separator: "; ")
            return result
        }
        var bytes = readBack.bytes
        let parsed = readBack.parsed
        do {
            var editor = try FrontMatterEditor(file: bytes)
            var lines: [(card: CardID, state: SchedulingState?)] = []
            for (k, card) in parsed.cards.enumerated() {
                guard var state = states[k] else { continue }
                state.fingerprint = card.fingerprint
                lines.append((card.id, state))
            }
            try SchedulingLine.set(lines, in: &editor)
            bytes = editor.file
        } catch {
            result.problem = "note \(note.id): cannot write its scheduling lines: \(error.message)"
            return result
        }
        result.note = PlannedNote(path: path, bytes: bytes, cards: parsed.cards.count)
        return result
    }

    /// One Anki card's answers as `grade` lines of the log, then a `reset` (answered, then new
    /// again) or a `set` line giving its state, added to `result` (an event the vault's logs
    /// already hold counted instead). Returns the card's state as stored (nil for a new card).
    private static func logged(_ anki: AnkiPackage.Card, card: CardID, note: AnkiPackage.Note, path: String,
                               reviews all: [AnkiPackage.Review], dayZero: Int64, options: Options,
                               into result: inout Built) -> SchedulingState? {
        let answers = all.filter { (1...4).contains($0.ease) && $0.type != 4 && $0.type != 5 }
        // An answer at a time no log line can hold (before 1970, after 9999) is left out.
        let reviews = answers.filter { Self.timeRange.contains($0.id) }
        if reviews.count < answers.count {
            result.warnings.append("note \(note.id): card \(anki.id): \(answers.count - reviews.count) answer(s) "
                                   + "at a time before 1970 or after 9999 not imported")
        }
        let (found, problems) = Self.state(of: anki, reviews: reviews, dayZero: dayZero, options: options, card: card)
        var state = found
        result.warnings += problems.map { "note \(note.id): card \(anki.id): " + $0 }
        // An event the vault's logs already hold (a note imported again after it was
        // removed) is not logged twice.
        func id(_ parts: [String]) -> String? {
            let id = eventID(card: card, parts)
            if options.logged(card, id) {
                result.alreadyLogged += 1
                return nil
            }
            return id
        }
        for review in reviews {
            guard let rating = Rating(rawValue: review.ease), let eventID = id(["grade", String(review.id)]) else { continue }
            var fields: [(key: String, value: String)] = [("id", eventID), ("sched", "fsrs")]
            if review.time > 0 { fields.append(("ms", String(min(review.time, 3_600_000)))) }
            fields.append(("path", path))
            fields.append(("via", "anki"))
            result.logLines.append(ReviewLog.format(ReviewEvent(time: Timestamp(milliseconds: review.id), card: card,
                                                                action: .grade(rating), fields: fields)))
            result.reviewCount += 1
        }
        let last = reviews.last.map { $0.id + 1 } ?? 0
        if state == nil, !reviews.isEmpty, let eventID = id(["reset", String(last)]) {
            // Answered, then forgotten in Anki (new again): the history no longer counts.
            let time = Timestamp(milliseconds: max(options.now.milliseconds, last))
            result.logLines.append(ReviewLog.format(ReviewEvent(time: time, card: card, action: .reset,
                                                                fields: [("id", eventID), ("path", path), ("via", "anki")])))
        }
        let stateFields = state.map { $0.fields.filter { $0.key != "fp" } } ?? []
        if let s = state {
            if let eventID = id(["set", String(last)] + stateFields.map { $0.key + "=" + $0.value }) {
                let time = Timestamp(milliseconds: max(options.now.milliseconds, last))
                let fields = [("id", eventID)] + stateFields + [("path", path), ("via", "anki")]
                result.logLines.append(ReviewLog.format(ReviewEvent(time: time, card: card, action: .set, fields: fields)))
            }
            state = s.stored
        }
        return state
    }

    /// The note's front matter: `title`, `created` (its creation time, or the import's when its ID
    /// is not one: a warning in `result`), `source`, `anki`, `type` and `tags`. Nil, with the
    /// problem in `result`, when it cannot be written.
    private static func frontMatter(of note: AnkiPackage.Note, _ draft: Drafted, options: Options, into result: inout Built) -> [UInt8]? {
        let tags = Array(Set(note.tags.compactMap { Tag($0.replacing("::", with: "/"))?.name })).sorted()
        // A note's ID is its creation time (milliseconds); one out of range is said, and the
        // import's time stands for it.
        var created = note.id
        if !Self.timeRange.contains(created) || created > options.now.milliseconds + 86_400_000 {
            result.warnings.append("note \(note.id): its ID is not a creation time (1970 to now); created: the import's time")
            created = options.now.milliseconds
        }
        do {
            var editor = try FrontMatterEditor(file: [])
            try editor.set("title", to: .scalar(draft.title))
            try editor.set("created", to: .scalar(Timestamp(milliseconds: created).iso8601(milliseconds: false)))
            try editor.set("source", to: .scalar(options.source))
            try editor.set("anki", to: .scalar(note.guid))
            if draft.typed { try editor.set("type", to: .raw("true")) }
            if !tags.isEmpty { try editor.set("tags", to: .flowSequence(tags.map { .scalar($0) })) }
            return editor.file
        } catch {
            result.problem = "note \(note.id): cannot write its front matter: \(error.message)"
            return nil
        }
    }

    /// The note's bytes — front matter, cards, then the `extra` fields, plain or (when plain they
    /// would be read as cards) each fenced — and the note they read back as, when that has the
    /// cards `ids` and no warning; otherwise nil, with the last reading's problems.
    private static func readBack(_ frontMatter: [UInt8], cards cardsText: String, extra: [(name: String, text: String)], path: String,
                                 ids: [CardID]) -> (note: (bytes: [UInt8], parsed: Note)?, problems: [Diagnostic]) {
        var problems: [Diagnostic] = []
        for fenced in [false, true] {
            var body = "\n" + cardsText
            for (name, text) in extra {
                body += "\n" + (fenced ? Self.labelled(name, Self.fenced(text)) : Self.labelled(name, text)) + "\n"
            }
            let bytes = frontMatter + Array(body.utf8)
            // Read back: the cards, their IDs as planned.
            let (parsed, found) = NoteParser.parse(bytes, path: path)
            problems = found
            if let parsed, parsed.cards.map(\.id) == ids, !found.contains(where: { $0.severity >= .warning }) { return ((bytes, parsed), problems) }
        }
        return (nil, problems)
    }

    /// A card's Quire state from Anki's (nil for a new card neither suspended nor buried), and what
    /// was out of range in it. Every number is checked: a value out of range is said and replaced
    /// by a sane one, never trusted into arithmetic that could overflow.
    static func state(of card: AnkiPackage.Card, reviews: [AnkiPackage.Review], dayZero: Int64, options: Options,
                      card id: CardID) -> (SchedulingState?, [String]) {
        var s = SchedulingState()
        var problems: [String] = []
        let due = card.originalDeck != 0 && card.originalDue != 0 ? card.originalDue : card.due
        let latest = options.now.milliseconds + Self.maximumDays * 86_400_000
        /// The time `milliseconds`, or now when it is outside 1970 to the maximum interval from now.
        func time(_ milliseconds: Int64?, _ what: String) -> Timestamp {
            if let milliseconds, Self.timeRange.contains(milliseconds), milliseconds <= latest { return Timestamp(milliseconds: milliseconds) }
            problems.append("\(what) \(due) is out of range; due now")
            return options.now
        }
        /// The start of day `days` after the collection's creation.
        func day(_ days: Int64) -> Int64? {
            guard (-Self.maximumDays * 100...Self.maximumDays * 100).contains(days) else { return nil }
            return (dayZero + days * 86_400) * 1000
        }
        switch card.type {
        case 1, 3:
            s.state = card.type == 1 ? .learning : .relearning
            // Learning cards are due at a time (seconds); day-learning ones on a day.
            s.due = card.queue == 3 ? time(day(due), "due day")
                : time(Self.timeRange.contains(due) && due <= Self.timeRange.upperBound / 1000 ? due * 1000 : nil, "due time")
            s.step = 0
        case 2:
            s.state = .review
            s.due = time(day(due), "due day")
            if (0...Self.maximumDays).contains(card.interval) {
                s.interval = Int(card.interval)
            } else {
                problems.append("interval \(card.interval) is out of range (0 to \(Self.maximumDays) days); left out")
            }
        default:
            s.state = .new
        }
        if s.state != .new {
            for (value, name) in [(card.reps, "reps"), (card.lapses, "lapses")] where !(0...10_000_000).contains(value) {
                problems.append("\(name) \(value) is out of range; 0 instead")
            }
            s.reps = (0...10_000_000).contains(card.reps) ? Int(card.reps) : 0
            s.lapses = (0...10_000_000).contains(card.lapses) ? Int(card.lapses) : 0
            s.lastReview = reviews.last.map { Timestamp(milliseconds: $0.id) }
            let memory = Self.memory(card.data)
            if let memory, memory.stability <= Double(Self.maximumDays) * 100, (1...10).contains(memory.difficulty) {
                // FSRS: the memory state is the card's; Anki's ease is left behind.
                s.stability = memory.stability
                s.difficulty = memory.difficulty
            } else {
                if let memory {
                    problems.append("FSRS memory (stability \(memory.stability), difficulty \(memory.difficulty)) is out of range; "
                                    + "derived from the answers instead")
                }
                if (1300...100_000).contains(card.factor) {
                    s.ease = Double(card.factor) / 1000
                } else if card.factor != 0 {
                    problems.append("ease \(card.factor) ‰ is out of range (1300 to 100000); left out")
                }
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
        return (s.state == .new && !s.suspended && s.buriedUntil == nil ? nil : s, problems)
    }

    /// The longest interval Quire keeps, in days (100 years, FORMAT.md §7's `maximum_interval`).
    static let maximumDays: Int64 = 36_500

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
}
