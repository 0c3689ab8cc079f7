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
            if first { return line.utf8.count >= drop ? Substring(line.utf8.dropFirst(drop)) : line }
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
        let dbPath = work + "/collection.anki2"
        do {
            return try withoutActuallyEscaping(media) { media in
                try withoutActuallyEscaping(settings) { settings in
                    var collection = try AnkiCollectionWriter(path: dbPath, now: now, media: media, settings: settings)
                    for group in groups(items) { try collection.add(group) }
                    try collection.finish()
                    guard let database = try? FileIO().read(dbPath).bytes else {
                        throw InterchangeError.cannotWrite(path: dbPath, reason: "cannot read the database back")
                    }
                    try package(database: database, media: collection.mediaFiles, to: path)
                    return collection.summary
                }
            }
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
    }

    /// The cards of one source (a reversed pair, a cloze group), which make one Anki note, in order.
    static func groups(_ items: [Item]) -> [[Item]] {
        var groups: [[Item]] = []
        var groupOf: [String: Int] = [:]
        for item in items {
            let key = item.note.path + "\n\(item.card.lines.lowerBound)\n\(item.card.column)\n" + item.card.kind.rawValue
            if let g = groupOf[key] { groups[g].append(item) } else {
                groupOf[key] = groups.count
                groups.append([item])
            }
        }
        return groups
    }

    /// The package: the collection, each media file under its number, and the media map that
    /// names them.
    static func package(database: [UInt8], media: [(name: String, bytes: [UInt8])], to path: String) throws {
        var entries: [(name: String, bytes: [UInt8])] = [("collection.anki2", database)]
        var map: [(String, JSONValue)] = []
        for (k, entry) in media.enumerated() {
            entries.append((String(k), entry.bytes))
            map.append((String(k), .string(entry.name)))
        }
        entries.append(("media", Array(JSONValue.object(map).serialized().utf8)))
        try ZipWriter.write(entries, to: path)
    }

    /// A cloze's text with Anki's deletions: `==x==` highlights numbered in order when it has none.
    static func ankiCloze(_ text: String) -> String {
        guard !text.contains("{{c") else { return text }
        var out = ""
        var rest = text[...]
        var n = 0
        while let open = rest.range(ofLiteral: "=="), let close = rest[open.upperBound...].range(ofLiteral: "==") {
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
        while let img = rest.range(ofLiteral: "<img "), let src = rest[img.upperBound...].range(ofLiteral: "src=\""),
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
        while let a = rest.range(ofLiteral: "<a href=\""), let end = rest[a.upperBound...].firstIndex(of: "\""),
              let close = rest[end...].range(ofLiteral: "</a>") {
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

    /// Text escaped for HTML (content and attribute values), every character of it kept.
    static func escape(_ text: String) -> String { HTMLText.escaped(text, keepingControls: true) }

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
