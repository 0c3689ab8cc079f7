import Foundation
import QuireArchive
import QuireMarkdown
import QuireModel
import QuireReview
import QuireScheduling
import QuireSupport
import QuireSystem

/// Cards written as an Anki package (`quire export anki OUT.apkg`): the legacy package format
/// (`collection.anki2`, schema 11), which every Anki since 2.1 imports.
///
/// - One Anki note per Quire card group: a basic card is a "Basic" note (front, back), a definition
///   a "Quire Definition" note (term, definition: Basic's shape, so that an import back knows it),
///   a reversed pair a "Basic (and reversed card)" note, a cloze group a "Cloze" note (highlights
///   `==x==` become `{{cN::x}}`). Sides are rendered from Markdown to HTML.
/// - Decks from the notes' decks (`A/B` → `A::B`), tags from their tags (`/` → `::`).
/// - Each card's scheduling: new (in order), learning or relearning (due at its time), review
///   (due on its day), interval, ease, reps, lapses, suspended, buried, and its FSRS memory state
///   (stability and difficulty in the card's data, which Anki's FSRS reads).
/// - The review history: each answer of the log (undone ones out) as a review-log entry with its
///   duration and the card's state before it.
/// - Images the sides embed, found as Quire finds them, copied as the package's media.
public enum AnkiExport {
    /// A card to export, with its note and its answers in order.
    public struct Item: Sendable {
        public var card: Card
        public var note: Note
        /// The card's remaining log events, in order.
        public var events: [ReviewEvent]
        /// A cloze card's text as written (``clozeText(of:in:)``): its paragraphs and line breaks,
        /// which the card's identity text runs together.
        public var clozeText: String?

        /// A card to export.
        public init(card: Card, note: Note, events: [ReviewEvent], clozeText: String? = nil) {
            self.card = card
            self.note = note
            self.events = events
            self.clozeText = clozeText
        }
    }

    /// A cloze card's text as written in its note's bytes, line breaks and paragraphs kept: a
    /// fenced cloze's lines between its fences (FORMAT.md §3.10), or a cloze group's lines, the
    /// container's prefix (quote markers, list indentation) and an explicit ID removed; nil for
    /// any other card, or when the lines are not there.
    public static func clozeText(of card: Card, in bytes: [UInt8]) -> String? {
        guard card.kind == .cloze else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let first = card.lines.lowerBound - 1, last = card.lines.upperBound - 1
        guard first >= 0, last < lines.count, last >= first else { return nil }
        let drop = max(0, card.column - 1)
        func content(_ line: Substring, first: Bool) -> Substring {
            var line = line
            if line.hasSuffix("\r") { line = line.dropLast() }
            if first { return line.utf8.count >= drop ? Substring(line.utf8.dropFirst(drop)) ?? line : line }
            var dropped = 0
            while dropped < drop, let c = line.first, c == " " || c == ">" || c == "\t" {
                line = line.dropFirst()
                dropped += 1
            }
            return line
        }
        let opening = content(lines[first], first: true).drop { $0 == " " }
        let fence = opening.prefix { $0 == "`" || $0 == "~" }
        if fence.count >= 3, opening.dropFirst(fence.count).lowercased().hasPrefix("cloze") {
            guard last - first >= 1 else { return nil }
            return lines[(first + 1)..<last].map { content($0, first: false) }.joined(separator: "\n").trimmingSpaces()
        }
        var text = (first...last).map { content(lines[$0], first: $0 == first) }.joined(separator: "\n").trimmingSpaces()
        // The explicit ID (` ^id`) on the last line is the card's, not its text's.
        if card.hasExplicitID, let caret = text.range(of: " ^", options: .backwards),
           !text[caret.upperBound...].contains(where: { $0 == " " || $0 == "\n" }) {
            text = String(text[..<caret.lowerBound]).trimmingSpaces()
        }
        return text
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        /// Notes, cards, review-log entries and media files written.
        public var notes = 0, cards = 0, reviews = 0, media = 0
    }

    /// Fixed IDs for the four note types (Anki matches an imported note type by ID and fields).
    static let basicID: Int64 = 1_700_000_000_001, reversedID: Int64 = 1_700_000_000_002, clozeID: Int64 = 1_700_000_000_003
    static let definitionID: Int64 = 1_700_000_000_004

    /// Writes the package.
    ///
    /// - Parameters:
    ///   - items: the cards, in order.
    ///   - now: the export's time (the collection's creation and modification).
    ///   - media: the bytes of an image a note embeds (`target` as written, `note` its path), or nil.
    ///   - settings: the settings of an event on a card (for the states the review log records).
    ///   - path: the package to write (must not exist); `work` a scratch folder for the database.
    public static func write(_ items: [Item], now: Timestamp, media: (_ target: String, _ note: String) -> (name: String, bytes: [UInt8])?,
                             settings: (ReviewEvent, CardID) -> SchedulerSettings, to path: String, work: String) throws(InterchangeError) -> Summary {
        var summary = Summary()
        let dbPath = work + "/collection.anki2"
        let dayStart = now.milliseconds / 1000 / 86_400 * 86_400
        // Review days count from here: ten years back, so every due day is positive.
        let crt = dayStart - 3650 * 86_400
        var usedIDs = Set<Int64>()
        func uniqueID(_ seed: String) -> Int64 {
            var h = SipHash24(k0: 0x5175_6972_6541_6E6B, k1: 0x6578_706F_7274_0001)
            h.combine(seed)
            var id = 1_000_000_000_000 + Int64(h.finalize() % 900_000_000_000)
            while !usedIDs.insert(id).inserted { id += 1 }
            return id
        }
        var mediaEntries: [(name: String, bytes: [UInt8])] = []
        var mediaNames = Set<String>()
        var mediaNameOfContent: [String: String] = [:]
        var mediaNameOf: [String: String] = [:]
        let renderer = MarkdownHTMLRenderer()
        func html(_ markdown: String, note: Note) -> String {
            // Math as Anki renders it, every backslash kept: cut out before rendering.
            let (protected, spans) = MathSpans.protect(markdown)
            var out = (try? renderer.render(protected)) ?? Self.escape(protected)
            while out.hasSuffix("\n") { out.removeLast() }
            if out.hasPrefix("<p>"), out.hasSuffix("</p>"), !out.dropFirst(3).dropLast(4).contains("<p>") {
                out = String(out.dropFirst(3).dropLast(4))
            }
            out = MathSpans.restore(out, spans) { span in
                // As Anki's MathJax reads it.
                (span.display ? "\\[" : "\\(") + Self.escape(span.tex) + (span.display ? "\\]" : "\\)")
            }
            // Images and sounds: each file the package's media, named by its own name; which
            // link became which file goes into the stash, for the way back.
            var used: [MarkdownStash.Media] = []
            func mediaName(_ src: String) -> String? {
                let target = src.removingPercentEncoding ?? src
                let key = note.path + "\n" + target
                if let known = mediaNameOf[key] {
                    used.append(MarkdownStash.Media(target: target, name: known))
                    return known
                }
                guard let file = media(target, note.path) ?? (target == src ? nil : media(src, note.path)) else { return nil }
                // One file linked from several notes is one media file: the same name and bytes.
                var h = SipHash24(k0: 0x6D65_6469_6100_0001, k1: UInt64(file.bytes.count))
                h.combine(file.bytes)
                let content = file.name + "\n" + String(h.finalize(), radix: 16)
                var name = mediaNameOfContent[content] ?? file.name
                if mediaNameOfContent[content] == nil {
                    var n = 1
                    while mediaNames.contains(name) {
                        n += 1
                        name = "\(n)-" + file.name
                    }
                    mediaNames.insert(name)
                    mediaEntries.append((name, file.bytes))
                    mediaNameOfContent[content] = name
                }
                mediaNameOf[key] = name
                used.append(MarkdownStash.Media(target: target, name: name))
                return name
            }
            let rendered = replaceSoundLinks(replaceImageSources(out, mediaName), mediaName)
            return MarkdownStash.stash(markdown, in: rendered, media: used)
        }

        do {
            let db = try SQLiteWriter(path: dbPath, name: "collection.anki2")
            for statement in schema { try db.execute(statement) }
            // Groups: the cards of one source (a reversed pair, a cloze group) make one note.
            var groups: [(key: String, items: [Item])] = []
            var groupOf: [String: Int] = [:]
            for item in items {
                let key = item.note.path + "\n\(item.card.lines.lowerBound)\n\(item.card.column)\n" + item.card.kind.rawValue
                if let g = groupOf[key] { groups[g].items.append(item) } else {
                    groupOf[key] = groups.count
                    groups.append((key, [item]))
                }
            }
            var deckIDs: [String: Int64] = [:]
            var position: Int64 = 0
            for group in groups {
                guard let first = group.items.first else { continue }
                let note = first.note
                let deckName = note.deck.components.isEmpty ? "Default" : note.deck.components.joined(separator: "::")
                let deckID: Int64
                if let known = deckIDs[deckName] { deckID = known } else {
                    deckID = deckName == "Default" ? 1 : uniqueID("deck\n" + deckName)
                    deckIDs[deckName] = deckID
                }
                let notetype: Int64
                var fields: [String]
                switch first.card.kind {
                case .cloze:
                    notetype = clozeID
                    fields = [html(Self.ankiCloze(first.clozeText ?? first.card.identityText), note: note), ""]
                case .reversed:
                    notetype = reversedID
                    let forward = group.items.first { $0.card.variant == .forward }?.card ?? first.card
                    fields = [html(forward.front, note: note), html(forward.back, note: note)]
                case .definition:
                    notetype = definitionID
                    fields = [html(first.card.front, note: note), html(first.card.back, note: note)]
                case .basic:
                    notetype = basicID
                    fields = [html(first.card.front, note: note), html(first.card.back, note: note)]
                }
                // A note's ID is its creation time in milliseconds, as in Anki (the next free one).
                var noteID = note.created?.milliseconds ?? now.milliseconds
                while !usedIDs.insert(noteID).inserted { noteID += 1 }
                let tags = note.tags.map { $0.name.replacing("/", with: "::") }
                let tagText = tags.isEmpty ? "" : " " + tags.joined(separator: " ") + " "
                let sortField = Self.plain(MarkdownStash.take(fields[0]).html)
                try db.execute("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
                    .int(noteID), .text(first.card.id.rawValue), .int(notetype), .int(now.milliseconds / 1000), .int(-1), .text(tagText),
                    .text(fields.joined(separator: "\u{1F}")), .text(sortField), .int(0), .int(0), .text(""),
                ])
                summary.notes += 1
                for item in group.items {
                    let ord: Int64 = switch item.card.variant {
                    case .backward: 1
                    case .cloze(let n): Int64(n - 1)
                    default: 0
                    }
                    let cardID = uniqueID("card\n" + item.card.id.rawValue)
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
                    // The review log: each answer with the state before it.
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
                        var id = event.time.milliseconds
                        while !usedIDs.insert(id).inserted { id += 1 }
                        let ms = event.field("ms").flatMap { Int64($0) }.map { max(0, min($0, 3_600_000)) } ?? 0
                        try db.execute("INSERT INTO revlog VALUES (?,?,?,?,?,?,?,?,?)", [
                            .int(id), .int(cardID), .int(-1), .int(Int64(rating.rawValue)), .int(interval), .int(lastInterval),
                            .int(Int64((state?.ease ?? 2.5) * 1000)), .int(ms), .int(kind),
                        ])
                        lastInterval = interval
                        summary.reviews += 1
                    }
                }
            }
            let decks = deckIDs.sorted { $0.value < $1.value }.map { name, id in (String(id), deckJSON(id: id, name: name)) }
            let allDecks = deckIDs["Default"] == nil ? [("1", deckJSON(id: 1, name: "Default"))] + decks : decks
            try db.execute("INSERT INTO col VALUES (1,?,?,?,11,0,0,0,?,?,?,?,?)", [
                .int(crt), .int(now.milliseconds), .int(now.milliseconds), .text(configJSON),
                .text(JSONValue.object([(String(basicID), basicNotetype), (String(reversedID), reversedNotetype),
                                        (String(clozeID), clozeNotetype), (String(definitionID), definitionNotetype)]).serialized()),
                .text(JSONValue.object(allDecks).serialized()), .text(deckConfigJSON), .text("{}"),
            ])
            try db.finish()
            guard let collection = try? FileIO().read(dbPath).bytes else {
                throw InterchangeError.cannotWrite(path: dbPath, reason: "cannot read the database back")
            }
            var entries: [(name: String, bytes: [UInt8])] = [("collection.anki2", collection)]
            var map: [(String, JSONValue)] = []
            for (k, entry) in mediaEntries.enumerated() {
                entries.append((String(k), entry.bytes))
                map.append((String(k), .string(entry.name)))
            }
            entries.append(("media", Array(JSONValue.object(map).serialized().utf8)))
            summary.media = mediaEntries.count
            try ZipWriter.write(entries, to: path)
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
        return summary
    }

    /// A cloze's text with Anki's deletions: `==x==` highlights numbered in order when it has none.
    static func ankiCloze(_ text: String) -> String {
        guard !text.contains("{{c") else { return text }
        var out = ""
        var rest = text[...]
        var n = 0
        while let open = rest.range(of: "=="), let close = rest[open.upperBound...].range(of: "==") {
            n += 1
            out += rest[..<open.lowerBound] + "{{c\(n)::" + rest[open.upperBound..<close.lowerBound] + "}}"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// `src="…"` of each `<img>` replaced by what `rename` gives (left as is when nil).
    static func replaceImageSources(_ html: String, _ rename: (String) -> String?) -> String {
        var out = ""
        var rest = html[...]
        while let img = rest.range(of: "<img "), let src = rest[img.upperBound...].range(of: "src=\""),
              let end = rest[src.upperBound...].firstIndex(of: "\"") {
            out += rest[..<src.upperBound]
            let target = unescape(String(rest[src.upperBound..<end]))
            out += rename(target).map(escape) ?? String(rest[src.upperBound..<end])
            rest = rest[end...]
        }
        return out + rest
    }

    /// The extensions of the sound files a link to which becomes Anki's `[sound:NAME]`.
    static let soundExtensions: Set<String> = ["mp3", "ogg", "oga", "wav", "m4a", "opus", "flac", "aac", "spx"]

    /// Each `<a href="…">…</a>` to a sound file that `rename` names replaced by `[sound:NAME]`,
    /// which Anki plays.
    static func replaceSoundLinks(_ html: String, _ rename: (String) -> String?) -> String {
        var out = ""
        var rest = html[...]
        while let a = rest.range(of: "<a href=\""), let end = rest[a.upperBound...].firstIndex(of: "\""),
              let close = rest[end...].range(of: "</a>") {
            let target = unescape(String(rest[a.upperBound..<end]))
            let ext = target.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard soundExtensions.contains(ext), !target.contains("://"), let name = rename(target) else {
                out += rest[..<close.upperBound]
                rest = rest[close.upperBound...]
                continue
            }
            out += rest[..<a.lowerBound] + "[sound:" + escape(name) + "]"
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// Text escaped for HTML (content and attribute values).
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The entities cmark writes in attribute values, decoded.
    static func unescape(_ text: String) -> String { HTMLText.attributeValue(text) }

    /// HTML's text without its tags (a note's sort field).
    static func plain(_ html: String) -> String {
        var out = ""
        var inTag = false
        for c in html {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        return unescape(out)
    }
}
