import Foundation
import QuireArchive
import QuireMarkdown
import QuireModel
import QuireReview
import QuireScheduling
import QuireSupport

/// The steps of ``AnkiExport/write(_:now:media:settings:to:work:)``: an Anki collection database
/// (schema 11) written note by note — each card group's note, its cards with their scheduling, and
/// each card's review log — then the collection's row with its decks and note types.
struct AnkiCollectionWriter {
    typealias MediaSource = (_ target: String, _ note: String) -> (name: String, bytes: [UInt8])?

    private let db: SQLiteWriter
    private let now: Timestamp
    /// Review days count from here: ten years before the export's day, so every due day is positive.
    private let crt: Int64
    private let settings: (ReviewEvent, CardID) -> SchedulerSettings
    private var ids = IDs()
    private var fields: FieldRenderer
    private var deckIDs: [String: Int64] = [:]
    /// A new card's place in the new queue.
    private var position: Int64 = 0
    /// What was written so far.
    private(set) var summary = AnkiExport.Summary()

    /// The media files the fields link, in order, with their names.
    var mediaFiles: [(name: String, bytes: [UInt8])] { fields.files }

    init(path: String, now: Timestamp, media: @escaping MediaSource,
         settings: @escaping (ReviewEvent, CardID) -> SchedulerSettings) throws {
        db = try SQLiteWriter(path: path, name: "collection.anki2")
        for statement in AnkiExport.schema { try db.execute(statement) }
        self.now = now
        crt = now.milliseconds / 1000 / 86_400 * 86_400 - 3650 * 86_400
        self.settings = settings
        fields = FieldRenderer(media: media)
    }

    /// IDs unique in the collection: notes', cards', decks' and review-log entries' share one set,
    /// as Anki's own do not collide.
    private struct IDs {
        var used = Set<Int64>()

        /// An ID made from `seed` (the same seed, the same ID), or the next free one.
        mutating func derived(_ seed: String) -> Int64 {
            var h = SipHash24(k0: 0x5175_6972_6541_6E6B, k1: 0x6578_706F_7274_0001)
            h.combine(seed)
            return free(from: 1_000_000_000_000 + Int64(h.finalize() % 900_000_000_000))
        }

        /// `start`, or the first free ID after it.
        mutating func free(from start: Int64) -> Int64 {
            var id = start
            while !used.insert(id).inserted { id += 1 }
            return id
        }
    }

    // MARK: - Notes

    /// Writes one group's note, then its cards.
    mutating func add(_ group: [AnkiExport.Item]) throws {
        guard let first = group.first else { return }
        let note = first.note
        let deckID = deck(of: note)
        let (notetype, values) = noteFields(group, first: first)
        // A note's ID is its creation time in milliseconds, as in Anki (the next free one).
        let noteID = ids.free(from: note.created?.milliseconds ?? now.milliseconds)
        let tags = note.tags.map { $0.name.replacing("/", with: "::") }
        let tagText = tags.isEmpty ? "" : " " + tags.joined(separator: " ") + " "
        let sortField = AnkiExport.plain(MarkdownStash.take(values[0]).html)
        try db.execute("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
            .int(noteID), .text(first.card.id.rawValue), .int(notetype), .int(now.milliseconds / 1000), .int(-1), .text(tagText),
            .text(values.joined(separator: "\u{1F}")), .text(sortField), .int(0), .int(0), .text(""),
        ])
        summary.notes += 1
        for item in group {
            let cardID = try addCard(item, note: noteID, deck: deckID)
            try addReviews(of: item, card: cardID)
        }
    }

    /// The deck's ID, numbered on first use (`A/B` is Anki's `A::B`; no deck is Anki's Default).
    private mutating func deck(of note: Note) -> Int64 {
        let name = note.deck.components.isEmpty ? "Default" : note.deck.components.joined(separator: "::")
        if let known = deckIDs[name] { return known }
        let id = name == "Default" ? 1 : ids.derived("deck\n" + name)
        deckIDs[name] = id
        return id
    }

    /// The note type and the fields' HTML of a group's note.
    private mutating func noteFields(_ group: [AnkiExport.Item], first: AnkiExport.Item) -> (Int64, [String]) {
        let note = first.note
        switch first.card.kind {
        case .cloze:
            return (AnkiExport.clozeID, [fields.html(AnkiExport.ankiCloze(first.clozeText ?? first.card.identityText), note: note), ""])
        case .reversed:
            let forward = group.first { $0.card.variant == .forward }?.card ?? first.card
            return (AnkiExport.reversedID, [fields.html(forward.front, note: note), fields.html(forward.back, note: note)])
        case .definition:
            return (AnkiExport.definitionID, [fields.html(first.card.front, note: note), fields.html(first.card.back, note: note)])
        case .basic:
            return (AnkiExport.basicID, [fields.html(first.card.front, note: note), fields.html(first.card.back, note: note)])
        }
    }

    // MARK: - Cards

    /// Writes a card with its scheduling as Anki keeps it; returns its ID.
    private mutating func addCard(_ item: AnkiExport.Item, note noteID: Int64, deck deckID: Int64) throws -> Int64 {
        let ord: Int64 = switch item.card.variant {
        case .backward: 1
        case .cloze(let n): Int64(n - 1)
        default: 0
        }
        let cardID = ids.derived("card\n" + item.card.id.rawValue)
        let s = item.card.schedule
        position += 1
        var type: Int64 = 0, queue: Int64 = 0, due: Int64 = position, ivl: Int64 = 0
        switch s?.state ?? .new {
        case .new: break
        case .learning, .relearning:
            type = s?.state == .learning ? 1 : 3
            queue = 1
            due = (s?.due?.milliseconds ?? now.milliseconds) / 1000
        case .review:
            type = 2
            queue = 2
            let dueSeconds = (s?.due?.milliseconds ?? now.milliseconds) / 1000
            due = (dueSeconds - crt) / 86_400
            ivl = Int64(s?.interval ?? max(1, Int(((s?.due?.milliseconds ?? 0) - (s?.lastReview?.milliseconds ?? 0)) / 86_400_000)))
        }
        if s?.suspended == true { queue = -1 }
        if let b = s?.buriedUntil, b > now { queue = -3 }
        var data = "{}"
        if let st = s?.stability, let d = s?.difficulty {
            data = JSONValue.object([("s", .double(st)), ("d", .double(d))]).serialized()
        }
        try db.execute("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
            .int(cardID), .int(noteID), .int(deckID), .int(ord), .int(now.milliseconds / 1000), .int(-1), .int(type), .int(queue),
            .int(due), .int(ivl), .int(Int64((s?.ease ?? 2.5) * 1000)), .int(Int64(s?.reps ?? 0)), .int(Int64(s?.lapses ?? 0)),
            .int(0), .int(0), .int(0), .int(0), .text(data),
        ])
        summary.cards += 1
        return cardID
    }

    /// The review log: each answer with the state before it, replayed from the card's events.
    private mutating func addReviews(of item: AnkiExport.Item, card cardID: Int64) throws {
        var state: SchedulingState?
        var lastInterval: Int64 = 0
        for event in item.events {
            let before = state
            state = ReviewTransition.apply(event.action, to: state, at: event.time, card: item.card.id,
                                           settings: settings(event, item.card.id), set: event.setState)
            guard case .grade(let rating) = event.action else { continue }
            let kind: Int64 = switch before?.state ?? .new {
            case .new, .learning: 0
            case .review: 1
            case .relearning: 2
            }
            let interval = Int64(state?.interval ?? 0)
            let id = ids.free(from: event.time.milliseconds)
            let ms = event.field("ms").flatMap { Int64($0) }.map { max(0, min($0, 3_600_000)) } ?? 0
            try db.execute("INSERT INTO revlog VALUES (?,?,?,?,?,?,?,?,?)", [
                .int(id), .int(cardID), .int(-1), .int(Int64(rating.rawValue)), .int(interval), .int(lastInterval),
                .int(Int64((state?.ease ?? 2.5) * 1000)), .int(ms), .int(kind),
            ])
            lastInterval = interval
            summary.reviews += 1
        }
    }

    // MARK: - The collection

    /// Writes the collection's row (decks, note types, settings) and closes the database.
    mutating func finish() throws {
        let decks = deckIDs.sorted { $0.value < $1.value }.map { name, id in (String(id), AnkiExport.deckJSON(id: id, name: name)) }
        let allDecks = deckIDs["Default"] == nil ? [("1", AnkiExport.deckJSON(id: 1, name: "Default"))] + decks : decks
        try db.execute("INSERT INTO col VALUES (1,?,?,?,11,0,0,0,?,?,?,?,?)", [
            .int(crt), .int(now.milliseconds), .int(now.milliseconds), .text(AnkiExport.configJSON),
            .text(JSONValue.object([(String(AnkiExport.basicID), AnkiExport.basicNotetype), (String(AnkiExport.reversedID), AnkiExport.reversedNotetype),
                                    (String(AnkiExport.clozeID), AnkiExport.clozeNotetype),
                                    (String(AnkiExport.definitionID), AnkiExport.definitionNotetype)]).serialized()),
            .text(JSONValue.object(allDecks).serialized()), .text(AnkiExport.deckConfigJSON), .text("{}"),
        ])
        try db.finish()
        summary.media = fields.files.count
    }

    // MARK: - Fields

    /// A side's Markdown as an Anki field's HTML, with the media it links gathered once each.
    private struct FieldRenderer {
        let media: MediaSource
        /// A side's line breaks are Anki's `<br>`, as the side shows them.
        let renderer = MarkdownHTMLRenderer(lineBreaks: true)
        /// The package's media files, in order, with their names.
        private(set) var files: [(name: String, bytes: [UInt8])] = []
        private var names = Set<String>()
        /// A file's name in the package by its name and content hash.
        private var nameOfContent: [String: String] = [:]
        /// A file's name in the package by note path and link target.
        private var nameOfLink: [String: String] = [:]

        init(media: @escaping MediaSource) { self.media = media }

        mutating func html(_ markdown: String, note: Note) -> String {
            // Math as Anki renders it, every backslash kept: cut out before rendering.
            let (protected, spans) = MathSpans.protect(markdown)
            var out = (try? renderer.render(protected)) ?? AnkiExport.escape(protected)
            while out.hasSuffix("\n") { out.removeLast() }
            if out.hasPrefix("<p>"), out.hasSuffix("</p>"), !out.dropFirst(3).dropLast(4).contains("<p>") {
                out = String(out.dropFirst(3).dropLast(4))
            }
            out = MathSpans.restore(out, spans) { span in
                // As Anki's MathJax reads it.
                (span.display ? "\\[" : "\\(") + AnkiExport.escape(span.tex) + (span.display ? "\\]" : "\\)")
            }
            // Images and sounds: each file the package's media, named by its own name; which
            // link became which file goes into the stash, for the way back.
            var used: [MarkdownStash.Media] = []
            let rendered = AnkiExport.replaceSoundLinks(AnkiExport.replaceImageSources(out) { mediaName($0, note: note, used: &used) }) {
                mediaName($0, note: note, used: &used)
            }
            return MarkdownStash.stash(markdown, in: rendered, media: used)
        }

        /// The package's name for the file a link in `note` points to, or nil when there is none.
        private mutating func mediaName(_ src: String, note: Note, used: inout [MarkdownStash.Media]) -> String? {
            let target = src.removingPercentEncoding ?? src
            let key = note.path + "\n" + target
            if let known = nameOfLink[key] {
                used.append(MarkdownStash.Media(target: target, name: known))
                return known
            }
            guard let file = media(target, note.path) ?? (target == src ? nil : media(src, note.path)) else { return nil }
            // One file linked from several notes is one media file: the same name and bytes.
            var h = SipHash24(k0: 0x6D65_6469_6100_0001, k1: UInt64(file.bytes.count))
            h.combine(file.bytes)
            let content = file.name + "\n" + String(h.finalize(), radix: 16)
            var name = nameOfContent[content] ?? file.name
            if nameOfContent[content] == nil {
                var n = 1
                while names.contains(name) {
                    n += 1
                    name = "\(n)-" + file.name
                }
                names.insert(name)
                files.append((name, file.bytes))
                nameOfContent[content] = name
            }
            nameOfLink[key] = name
            used.append(MarkdownStash.Media(target: target, name: name))
            return name
        }
    }
}
