import QuireSupport
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
import QuireYAML

/// The Obsidian spaced-repetition plugin's scheduling moved into Quire (`quire import obsidian-sr`),
/// in place: planned for every note before anything is written.
///
/// The plugin keeps a card's schedule in an HTML comment after it, one entry a card of the question
/// (a reversed pair's two, a cloze's deletions): `<!--SR:!2026-01-01,3,250!2026-01-04,5,230-->` —
/// due date, interval in days, ease in percent. Each such card gets Quire's scheduling line
/// (FORMAT.md §5: review state, due at the start of that study day, the interval, the ease, the last
/// review the interval before) and a `set` line in the log, so replay agrees. The comments stay
/// (the plugin keeps working) unless `strip` takes out those whose every schedule moved. Cards are read as the plugin reads them
/// (`card_syntax: obsidian-sr`); a card that already has a Quire line keeps it. The note-level keys
/// the plugin uses to review whole notes (`sr-due`, `sr-interval`, `sr-ease`) are Quire's to keep as
/// they are: reported, not changed.
public struct ObsidianSRImport: Sendable {
    /// A note to rewrite: its bytes as read, and as planned.
    public struct Change: Sendable, Equatable {
        public var path: String
        public var original: [UInt8]
        public var edited: [UInt8]
        public var cards: Int
    }

    public var changes: [Change] = []
    /// The log's new lines (`set` events), in order.
    public var logLines: [String] = []
    public var diagnostics: [Diagnostic] = []
    /// Notes with the plugin's note-review keys.
    public var reviewedNotes = 0
    public var cardCount: Int { changes.reduce(0) { $0 + $1.cards } }
    public var isWritable: Bool { !diagnostics.contains { $0.severity == .error } }

    /// Plans the migration of `notes` (paths and bytes).
    ///
    /// - Parameters:
    ///   - day: the start of the study day a plugin date (`YYYY-MM-DD`) names.
    ///   - eventIDs: IDs for the log lines.
    public static func plan(_ notes: [(path: String, bytes: [UInt8])], settings: ObsidianSRSettings, strip: Bool, now: Timestamp,
                            day: (_ year: Int, _ month: Int, _ day: Int) -> Timestamp, eventIDs: () -> String) -> ObsidianSRImport {
        var result = ObsidianSRImport()
        for (path, bytes) in notes {
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("\nsr-due:") || text.hasPrefix("---\nsr-due:") { result.reviewedNotes += 1 }
            guard text.contains("<!--SR:") else { continue }
            let (parsed, problems) = NoteParser.parse(bytes, path: path, syntax: .obsidianSR(settings))
            guard let note = parsed else {
                result.diagnostics += problems.filter { $0.severity == .error }
                continue
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let (states, strippable) = result.schedules(of: note, lines: lines, path: path, day: day)
            guard !states.isEmpty || (strip && !strippable.isEmpty) else { continue }
            var edited = strip ? Self.stripped(bytes, lines: strippable) : bytes
            do {
                var editor = try FrontMatterEditor(file: edited)
                try SchedulingLine.set(states.map { ($0.0, $0.1) }, in: &editor)
                edited = editor.file
            } catch {
                result.diagnostics.append(Diagnostic(.error, path: path, message: "cannot write its scheduling lines: \(error.message)"))
                continue
            }
            // Read back: the same cards, now with their schedules.
            let (after, _) = NoteParser.parse(edited, path: path, syntax: .obsidianSR(settings))
            let read = Dictionary((after?.cards ?? []).map { ($0.id, $0.schedule) }, uniquingKeysWith: { first, _ in first })
            guard let after, after.cards.map(\.id) == note.cards.map(\.id),
                  states.allSatisfy({ id, s in read[id]??.sameSchedule(as: s.stored) == true }) else {
                result.diagnostics.append(Diagnostic(.error, path: path, message: "would not read back with the same cards and schedules; not migrated"))
                continue
            }
            for (id, state) in states {
                var fields: [(key: String, value: String)] = [("id", eventIDs())]
                fields += state.fields.filter { $0.key != "fp" }
                fields += [("path", path), ("via", "obsidian-sr")]
                result.logLines.append(ReviewLog.format(ReviewEvent(time: now, card: id, action: .set, fields: fields)))
            }
            result.changes.append(Change(path: path, original: bytes, edited: edited, cards: states.count))
        }
        return result
    }

    /// The states the plugin's comments give a note's cards (those without a Quire line yet),
    /// and the lines (1-based) whose comment has moved in full, which `strip` may take out; a
    /// schedule that cannot be read, or a comment with more or fewer schedules than cards, is
    /// reported.
    private mutating func schedules(of note: Note, lines: [Substring], path: String, day: (_ year: Int, _ month: Int, _ day: Int) -> Timestamp)
        -> (states: [(CardID, SchedulingState)], strippable: Set<Int>) {
        // The cards of one question share its lines, in order.
        var states: [(CardID, SchedulingState)] = []
        var strippable = Set<Int>()
        var k = 0
        while k < note.cards.count {
            let group = note.cards[k...].prefix { $0.lines == note.cards[k].lines }
            k += group.count
            guard let first = group.first,
                  let line = first.lines.first(where: { $0 - 1 < lines.count && Self.comment(in: lines[$0 - 1]) != nil }),
                  let comment = Self.comment(in: lines[line - 1]) else { continue }
            // Cards with Quire lines already (an earlier migration) keep them; their comment
            // moved then, and --strip takes it out now.
            if group.allSatisfy({ $0.schedule != nil }) {
                strippable.insert(line)
                continue
            }
            guard group.allSatisfy({ $0.schedule == nil }) else { continue }
            let entries = comment.split(separator: "!").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            var all = entries.count == group.count
            for (card, entry) in zip(group, entries) {
                guard entry.count == 3, let interval = Int(entry[1]), interval >= 0, let ease = Int(entry[2]), ease > 0,
                      let due = Self.date(entry[0], day) else {
                    diagnostics.append(Diagnostic(.warning, path: path, line: card.lines.lowerBound, message:
                        "the plugin's schedule '\(entry.joined(separator: ","))' cannot be read; card \(card.id) not migrated"))
                    all = false
                    continue
                }
                var s = SchedulingState()
                s.state = .review
                s.due = due
                s.lastReview = Timestamp(milliseconds: due.milliseconds - Int64(interval) * 86_400_000)
                s.interval = interval
                s.ease = Double(ease) / 100
                s.reps = 1
                s.fingerprint = card.fingerprint
                states.append((card.id, s))
            }
            // Only a comment whose every schedule moved is taken out.
            if all { strippable.insert(line) }
            if entries.count != group.count {
                diagnostics.append(Diagnostic(.warning, path: path, line: group.first?.lines.lowerBound, message:
                    "the plugin's comment holds \(Plural.counted(entries.count, "schedule")) for \(Plural.counted(group.count, "card")); the first ones matched in order"))
            }
        }
        return (states, strippable)
    }

    /// The plugin's schedule in a line: what is between `<!--SR:` and the line's last `-->`,
    /// without the leading `!`.
    static func comment(in line: Substring) -> Substring? {
        guard let open = line.range(of: "<!--SR:"), let close = line.range(of: "-->", options: .backwards),
              close.lowerBound > open.upperBound else { return nil }
        var body = line[open.upperBound..<close.lowerBound]
        while body.first == "!" { body = body.dropFirst() }
        return body
    }

    /// A plugin date, `YYYY-MM-DD`.
    static func date(_ text: Substring, _ day: (Int, Int, Int) -> Timestamp) -> Timestamp? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d), (1...9999).contains(y) else { return nil }
        return day(y, m, d)
    }

    /// The file without the plugin's comments on `lines` (1-based): each `<!--SR:…-->` taken out of
    /// its line, and a line left empty by that taken out whole.
    static func stripped(_ bytes: [UInt8], lines: Set<Int>) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        var out: [Substring] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard lines.contains(k + 1), let open = line.range(of: "<!--SR:"), let close = line.range(of: "-->", options: .backwards),
                  close.lowerBound > open.upperBound else {
                out.append(line)
                continue
            }
            var kept = String(line[..<open.lowerBound]) + String(line[close.upperBound...])
            let cr = kept.hasSuffix("\r")
            if cr { kept.removeLast() }
            while kept.hasSuffix(" ") { kept.removeLast() }
            if kept.isEmpty { continue }
            out.append(Substring(kept + (cr ? "\r" : "")))
        }
        return Array(out.joined(separator: "\n").utf8)
    }
}
