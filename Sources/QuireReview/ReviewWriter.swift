import QuireModel
import Synchronization
import QuireScheduling
import QuireYAML
import QuireSystem
import QuireIndex
import QuireParsing
import QuireVault

/// Records reviews and other card events: the review log first, then the note's scheduling line
/// (FORMAT.md §5–§6).
///
/// For each call on one note, holding the vault's write lock (``FileLock``), so no other Quire
/// writer runs in between:
/// 1. the note is read and parsed fresh, and the cards' new states are computed with
///    ``ReviewTransition`` (the function replay uses);
/// 2. the events are appended to this device's log and fsynced, each with its own `id=`;
/// 3. the note is replaced atomically (temporary file, fsync, swapped in), only if it still
///    holds the bytes read in step 1 (``FileIO/replace(_:with:expected:)``). If it changed on disk
///    (another program wrote it), or the write fails, an `undo` naming each event by its `id=` is
///    appended to the log, so the refused review does not count, and nothing is written to the
///    note.
///
/// The note is therefore always either the old or the new file, and the log never holds a review
/// that the note does not show after `quire replay`.
public struct ReviewWriter: Sendable {
    /// One event to record on a card.
    public struct Request: Sendable {
        public var card: CardID
        public var action: ReviewAction
        /// How long the user took to answer, for `grade` (logged as `ms=`).
        public var answerMilliseconds: Int?
        /// Refuse a grade timed before the card's last review (a time given by hand, `grade --at`:
        /// it would move `last` backwards). A live grade behind another device's clock goes on.
        public var followsLastReview: Bool
        /// For `grade`, an answer typed that was not the card's (logged as `typed=`, at most
        /// ``ReviewWriter/typedLimit`` characters): quizzes offer it again as a wrong option.
        public var typedWrongly: String?

        /// A request.
        public init(card: CardID, action: ReviewAction, answerMilliseconds: Int? = nil, followsLastReview: Bool = false,
                    typedWrongly: String? = nil) {
            self.card = card
            self.action = action
            self.answerMilliseconds = answerMilliseconds
            self.followsLastReview = followsLastReview
            self.typedWrongly = typedWrongly
        }
    }

    /// What a call changed.
    public struct Outcome: Sendable {
        /// The note's path.
        public var path: String
        /// The note as it was read, before the change.
        public var note: Note
        /// The note as the written file parses (the same as `note` when nothing was written):
        /// pass it as `known` to the next call on this note to skip parsing it again.
        public var noteAfter: Note
        /// The events appended to the log.
        public var events: [ReviewEvent]
        /// Each requested card's state before and after (nil: no scheduling line).
        public var changes: [(card: CardID, before: SchedulingState?, after: SchedulingState?)]
        /// False when nothing changed (e.g. suspending a suspended card), or in a dry run: nothing
        /// was logged or written.
        public var wrote: Bool
        /// In a dry run, the change the call would make, as a unified diff.
        public var diff: String? = nil
        /// Cards this call made leeches (marked `leech: true` in their lines; suspended, as configured).
        public var leeches: [CardID] = []
    }

    /// The vault.
    public let vault: Vault
    /// Its settings.
    public let config: VaultConfig
    /// This machine's device ID (names the log file).
    public let device: String
    /// Makes each new event's `id=` (FORMAT.md §6).
    public let eventIDs: @Sendable () -> String
    /// Settings snapshots already on disk, by settings.
    private let snapshots = SnapshotCache()
    /// The card syntax notes are read with (the index's, so that card IDs agree).
    public let syntax: CardSyntax

    /// A writer for a vault, its settings and this machine's device ID; `eventIDs` makes the
    /// events' IDs (by default 10 random base32 characters).
    public init(vault: Vault, config: VaultConfig, device: String,
                eventIDs: @escaping @Sendable () -> String = ReviewWriter.randomEventID) {
        self.vault = vault
        self.config = config
        self.device = device
        self.eventIDs = eventIDs
        syntax = vault.cardSyntax().syntax
    }

    /// 10 base32 characters (50 bits) from the system's random numbers.
    public static func randomEventID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next()
        return String((0..<10).map { Base32.alphabet[Int((bits >> (UInt64($0) * 5)) & 31)] })
    }

    /// The longest typed answer logged (longer ones are cut).
    public static let typedLimit = 200

    /// Grades one card of a note (see ``record(_:inNote:at:dryRun:known:)``).
    public func grade(_ card: CardID, _ rating: Rating, inNote path: String, at now: Timestamp,
                      answerMilliseconds: Int? = nil, known: Note? = nil,
                      followsLastReview: Bool = false, typedWrongly: String? = nil) throws(ReviewError) -> Outcome {
        try record([Request(card: card, action: .grade(rating), answerMilliseconds: answerMilliseconds,
                            followsLastReview: followsLastReview, typedWrongly: typedWrongly)],
                   inNote: path, at: now, known: known)
    }

    /// Records events on cards of one note, all at `now` (see the type's documentation).
    ///
    /// - Parameters:
    ///   - dryRun: compute the change and return its diff, but log and write nothing.
    ///   - known: the note as parsed earlier (from the index, or a previous ``Outcome/noteAfter``);
    ///     used instead of parsing the file again when the file's bytes still have its
    ///     ``Note/contentDigest``.
    /// - Throws: ``ReviewError``; the note is then unchanged and the log holds nothing that counts.
    public func record(_ requests: [Request], inNote path: String, at now: Timestamp,
                       dryRun: Bool = false, known: Note? = nil) throws(ReviewError) -> Outcome {
        let full: String
        do { full = try vault.notePath(path) } catch { throw .io(error) }
        guard !dryRun else { return try record(requests, path: path, full: full, at: now, dryRun: true, known: known) }
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .io(error) }
        defer { lock.release() }
        return try record(requests, path: path, full: full, at: now, dryRun: false, known: known)
    }

    /// ``record(_:inNote:at:dryRun:known:)`` with the path checked and, unless a dry run, the lock held.
    private func record(_ requests: [Request], path: String, full: String, at asked: Timestamp,
                        dryRun: Bool, known: Note?) throws(ReviewError) -> Outcome {
        let (bytes, note, frontMatter) = try read(full, path: path, known: known)
        let now = Self.time(asked, after: requests, in: note)
        let settings = config.settings(for: note.deck)
        let recording = try applied(requests, to: note, settings: settings, path: path, at: now, dryRun: dryRun)
        let (states, order, changes, events, leeches) = (recording.states, recording.order, recording.changes, recording.events,
                                                          recording.leeches)
        var editor: FrontMatterEditor
        let oldBodyStart: Int
        do {
            editor = FrontMatterEditor(file: bytes, frontMatter: frontMatter)
            oldBodyStart = editor.frontMatter.bodyRange.lowerBound
            try SchedulingLine.set(order.map { ($0, states[$0] ?? nil) }, in: &editor)
        } catch {
            throw .edit(path: path, line: error.mark.line, column: error.mark.column, message: error.message)
        }
        let edited = editor.file
        guard edited != bytes else {
            return Outcome(path: path, note: note, noteAfter: note, events: [],
                           changes: changes.map { ($0.0, $0.1, $0.2) }, wrote: false)
        }
        if dryRun {
            return Outcome(path: path, note: note, noteAfter: note, events: events,
                           changes: changes.map { ($0.0, $0.1, $0.2) },
                           wrote: false, diff: UnifiedDiff.make(old: bytes, new: edited, path: path))
        }
        try appendToLog(events)
        do {
            try vault.io.replace(full, with: edited, expected: bytes)
        } catch {
            let undos = events.map {
                ReviewEvent(time: now, card: $0.card, action: .undo(of: now),
                            fields: [("of-id", $0.field("id") ?? ""), ("why", "note-not-written")])
            }
            do { try appendToLog(undos) } catch { throw .logAheadOfNote(path: path, cause: error.cause) }
            throw .io(error)
        }
        let grades = events.filter { if case .grade = $0.action { true } else { false } }
        if !grades.isEmpty {
            let before = String(decoding: bytes[..<oldBodyStart], as: UTF8.self)
            let after = UndoJournal.digest(edited[..<editor.frontMatter.bodyRange.lowerBound])
            vault.appendToJournal(grades.map {
                UndoJournal.Entry(time: now, card: $0.card, path: path, before: before, after: after)
            })
        }
        let after = Self.note(note, after: states, bodyShift: editor.frontMatter.bodyStartLine - frontMatter.bodyStartLine, bytes: edited)
        return Outcome(path: path, note: note, noteAfter: after, events: events,
                       changes: changes.map { ($0.0, $0.1, $0.2) }, wrote: true, leeches: leeches)
    }

    /// How far a live answer's time may move to come after the card's last review.
    static let reorderWindow: Int64 = 3_600_000

    /// The time to record `requests` at: `asked`, or the second after one of their cards' last
    /// review when `asked` is not past it (read under the lock, the note holds every answer
    /// applied so far; `last:` is written to the second, so the second after it is the first
    /// time surely after that review's). Two grades of one card at once read the clock before
    /// the lock: the one applied second may hold the earlier time, and the log, which `replay`
    /// orders by time, would then say another order than the note's. Moving it past the other
    /// makes the order applied and the order logged one. A time given by hand
    /// (``Request/followsLastReview``) is kept (and refused when before the last review); a last
    /// review more than an hour ahead (another device's clock far off, a hand edit) moves nothing.
    static func time(_ asked: Timestamp, after requests: [Request], in note: Note) -> Timestamp {
        var now = asked
        for request in requests where !request.followsLastReview {
            guard let last = note.cards.first(where: { $0.id == request.card })?.schedule?.lastReview else { continue }
            let after = last.milliseconds / 1000 * 1000 + 1000
            if now.milliseconds < after, after - asked.milliseconds <= reorderWindow { now = Timestamp(milliseconds: after) }
        }
        return now
    }

    /// The note's bytes, and the note with its front matter: `known` when the bytes are still
    /// its, otherwise parsed again.
    private func read(_ full: String, path: String, known: Note?) throws(ReviewError) -> (bytes: [UInt8], note: Note, frontMatter: FrontMatter) {
        let bytes: [UInt8]
        do { bytes = try vault.io.read(full).bytes } catch { throw .io(error) }
        let note: Note, frontMatter: FrontMatter
        if let known, known.path == path, known.byteCount == bytes.count,
           known.contentDigest == NoteParser.contentDigest(bytes) {
            note = known
            do { frontMatter = try FrontMatter(file: bytes) } catch {
                throw .edit(path: path, line: error.mark.line, column: error.mark.column, message: error.message)
            }
        } else {
            (note, frontMatter) = try parseForEditing(bytes, path: path)
        }
        return (bytes, note, frontMatter)
    }

    /// What recording requests on a note's cards gives, before the note is edited.
    private struct Recording {
        /// Each card's state after its requests, and the cards in the order first asked about.
        var states: [CardID: SchedulingState?] = [:]
        var order: [CardID] = []
        /// Each request's card, with its state before and after.
        var changes: [(CardID, SchedulingState?, SchedulingState?)] = []
        var events: [ReviewEvent] = []
        var leeches: [CardID] = []
    }

    /// Each request applied in turn to its card's state, with the log's events that record it (a
    /// lapse that makes a card a leech marks it, and suspends it by an event of its own when the
    /// settings say so). Throws for a card not in the note, a rating the deck does not offer, or
    /// a grade before the card's last review when it must follow it.
    private func applied(_ requests: [Request], to note: Note, settings: SchedulerSettings, path: String, at now: Timestamp,
                        dryRun: Bool) throws(ReviewError) -> Recording {
        var result = Recording()
        var snapshot: String?
        for request in requests {
            guard let card = note.cards.first(where: { $0.id == request.card }) else {
                throw .cardNotFound(card: request.card, path: path)
            }
            if case .grade(let rating) = request.action, !settings.ratings.contains(rating) {
                throw .ratingNotOffered(rating, deck: note.deck)
            }
            let before = result.states[card.id] ?? card.schedule
            if request.followsLastReview, case .grade = request.action, let last = before?.lastReview, now < last {
                throw .beforeLastReview(card: card.id, last: last, at: now)
            }
            var after = ReviewTransition.apply(request.action, to: before, at: now, card: card.id, settings: settings)
            after?.fingerprint = card.fingerprint
            // A lapse that makes the card a leech (FORMAT.md §7.2): the card — not its note, whose
            // other cards are not leeches — is marked `leech: true` in its line, and suspended by
            // an event of its own, so that the log says why.
            var suspendsLeech = false
            if case .grade = request.action, let lapses = after?.lapses, lapses > (before?.lapses ?? 0),
               config.study.isLeech(lapses: lapses) {
                result.leeches.append(card.id)
                if after?.isLeech == false { after?.unknownFields.append((SchedulingState.leechField, "true")) }
                if config.study.leechAction == .suspend, after?.suspended == false {
                    after?.suspended = true
                    suspendsLeech = true
                }
            }
            if result.states[card.id] == nil { result.order.append(card.id) }
            result.states[card.id] = after
            result.changes.append((card.id, before, after))
            var fields: [(String, String)] = []
            if case .grade = request.action, !dryRun {
                if snapshot == nil { snapshot = try snapshots.id(of: settings, in: vault) }
                fields = [("sched", settings.kind.rawValue), ("cfg", snapshot ?? "")]
                if let ms = request.answerMilliseconds { fields.append(("ms", String(ms))) }
                if let typed = request.typedWrongly?.split(whereSeparator: \.isWhitespace).joined(separator: " "), !typed.isEmpty {
                    fields.append(("typed", String(typed.prefix(Self.typedLimit))))
                }
            }
            if !dryRun { fields.insert(("id", eventIDs()), at: 0) }
            fields.append(("path", path))
            result.events.append(ReviewEvent(time: now, card: card.id, action: request.action, fields: fields))
            if suspendsLeech {
                result.events.append(ReviewEvent(time: now, card: card.id, action: .suspend,
                                                 fields: (dryRun ? [] : [("id", eventIDs())]) + [("why", "leech"), ("path", path)]))
            }
        }
        return result
    }

    /// The note as `bytes` parse, derived from the note before an edit that changed only scheduling
    /// lines: the changed cards' states, and every card's lines moved by the front matter's growth.
    static func note(_ before: Note, after states: [CardID: SchedulingState?], bodyShift: Int, bytes: [UInt8]) -> Note {
        var note = before
        for i in note.cards.indices {
            if let state = states[note.cards[i].id] { note.cards[i].schedule = state }
            if bodyShift != 0 {
                let lines = note.cards[i].lines
                note.cards[i].lines = (lines.lowerBound + bodyShift)...(lines.upperBound + bodyShift)
            }
        }
        note.byteCount = bytes.count
        note.contentDigest = NoteParser.contentDigest(bytes)
        return note
    }

    /// The tag earlier versions gave a leech's note (`is:leech` still finds a lapsed card there).
    public static let leechTag = "leech"

    /// Appends events to this device's log (with the header when the file is new) and fsyncs it.
    func appendToLog(_ events: [ReviewEvent]) throws(ReviewError) {
        let path: String
        do { path = try vault.internalPath(Vault.logPath(device: device)) } catch { throw .io(error) }
        let lines = events.map { ReviewLog.format($0) + "\n" }.joined()
        // The folder and the header are checked once per writer, not on every grade.
        if !snapshots.logReady(path) {
            do {
                try vault.io.makeDirectories(vault.fullPath(Vault.logFolder))
                if vault.io.linkStamp(path) == nil { try vault.io.append(path, Array((ReviewLog.header + "\n").utf8)) }
            } catch {
                throw .io(error)
            }
            snapshots.markLogReady(path)
        }
        do { try vault.io.append(path, Array(lines.utf8)) } catch { throw .io(error) }
    }

    /// Parses a note for writing; a note Quire cannot read is an error with its location.
    package func parse(_ bytes: [UInt8], path: String) throws(ReviewError) -> Note {
        try parseForEditing(bytes, path: path).note
    }

    /// Parses a note and keeps its front matter for the editor.
    func parseForEditing(_ bytes: [UInt8], path: String) throws(ReviewError) -> (note: Note, frontMatter: FrontMatter) {
        let (note, frontMatter, diagnostics) = NoteParser.parseForEditing(bytes, path: path, syntax: syntax)
        guard let note, let frontMatter else {
            throw .unreadableNote(diagnostics.first { $0.severity == .error }
                ?? Diagnostic(.error, path: path, message: "cannot be read as a note"))
        }
        return (note, frontMatter)
    }

    /// The file's bytes up to the start of its body.
    static func frontMatterBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes[..<((try? FrontMatter(file: bytes))?.bodyRange.lowerBound ?? 0)]
    }
}

extension ReviewError {
    /// The file error inside, for wrapping.
    var cause: FileIOError {
        if case .io(let e) = self { return e }
        return .system(path: "", operation: "append to the review log", code: 0)
    }
}

/// What a writer has already made sure of on disk: the settings snapshots it wrote, and that the
/// log file exists with its header.
final class SnapshotCache: Sendable {
    private let known = Mutex<[SchedulerSettings: String]>([:])
    private let readyLogs = Mutex<Set<String>>([])

    func logReady(_ path: String) -> Bool { readyLogs.withLock { $0.contains(path) } }
    func markLogReady(_ path: String) { readyLogs.withLock { _ = $0.insert(path) } }

    /// The snapshot ID of `settings`, writing the snapshot the first time.
    func id(of settings: SchedulerSettings, in vault: Vault) throws(ReviewError) -> String {
        if let id = known.withLock({ $0[settings] }) { return id }
        let id: String
        do { id = try vault.storeSnapshot(of: settings) } catch { throw .io(error) }
        known.withLock { $0[settings] = id }
        return id
    }
}
