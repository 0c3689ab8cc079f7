import QuireModel
import QuireScheduling
import QuireYAML

/// Records reviews and other card events: the review log first, then the note's scheduling line
/// (FORMAT.md §5–§6).
///
/// For each call on one note:
/// 1. the note is read and parsed fresh, and the cards' new states are computed with
///    ``ReviewTransition`` (the function replay uses);
/// 2. the events are appended to this device's log and fsynced;
/// 3. the note is replaced atomically (temporary file, fsync, rename, mode kept), only if it still
///    holds the bytes read in step 1. If it changed on disk, or the write fails, an `undo` of each
///    event is appended to the log, so the refused review does not count, and nothing is written
///    to the note.
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

        /// A request.
        public init(card: CardID, action: ReviewAction, answerMilliseconds: Int? = nil) {
            self.card = card
            self.action = action
            self.answerMilliseconds = answerMilliseconds
        }
    }

    /// What a call changed.
    public struct Outcome: Sendable {
        /// The note's path.
        public var path: String
        /// The note as it was read, before the change.
        public var note: Note
        /// The events appended to the log.
        public var events: [ReviewEvent]
        /// Each requested card's state before and after (nil: no scheduling line).
        public var changes: [(card: CardID, before: SchedulingState?, after: SchedulingState?)]
        /// False when nothing changed (e.g. suspending a suspended card), or in a dry run: nothing
        /// was logged or written.
        public var wrote: Bool
        /// In a dry run, the change the call would make, as a unified diff.
        public var diff: String? = nil
    }

    /// The vault.
    public let vault: Vault
    /// Its settings.
    public let config: VaultConfig
    /// This machine's device ID (names the log file).
    public let device: String

    /// A writer for a vault, its settings and this machine's device ID.
    public init(vault: Vault, config: VaultConfig, device: String) {
        self.vault = vault
        self.config = config
        self.device = device
    }

    /// Grades one card of a note.
    public func grade(_ card: CardID, _ rating: Rating, inNote path: String, at now: Timestamp,
                      answerMilliseconds: Int? = nil) throws(ReviewError) -> Outcome {
        try record([Request(card: card, action: .grade(rating), answerMilliseconds: answerMilliseconds)],
                   inNote: path, at: now)
    }

    /// Records events on cards of one note, all at `now` (see the type's documentation).
    ///
    /// - Parameter dryRun: compute the change and return its diff, but log and write nothing.
    /// - Throws: ``ReviewError``; the note is then unchanged and the log holds nothing that counts.
    public func record(_ requests: [Request], inNote path: String, at now: Timestamp,
                       dryRun: Bool = false) throws(ReviewError) -> Outcome {
        let full = vault.fullPath(path)
        let bytes: [UInt8]
        do { bytes = try vault.io.read(full).bytes } catch { throw .io(error) }
        let note = try Self.parse(bytes, path: path)
        let settings = config.settings(for: note.deck)
        var states: [CardID: SchedulingState?] = [:]
        var order: [CardID] = []
        var changes: [(CardID, SchedulingState?, SchedulingState?)] = []
        var events: [ReviewEvent] = []
        var snapshot: String?
        for request in requests {
            guard let card = note.cards.first(where: { $0.id == request.card }) else {
                throw .cardNotFound(card: request.card, path: path)
            }
            if case .grade(let rating) = request.action, !settings.ratings.contains(rating) {
                throw .ratingNotOffered(rating, deck: note.deck)
            }
            let before = states[card.id] ?? card.schedule
            var after = ReviewTransition.apply(request.action, to: before, at: now, card: card.id, settings: settings)
            after?.fingerprint = card.fingerprint
            if states[card.id] == nil { order.append(card.id) }
            states[card.id] = after
            changes.append((card.id, before, after))
            var fields: [(String, String)] = []
            if case .grade = request.action, !dryRun {
                if snapshot == nil {
                    do { snapshot = try vault.storeSnapshot(of: settings) } catch { throw .io(error) }
                }
                fields = [("sched", settings.kind.rawValue), ("cfg", snapshot ?? "")]
                if let ms = request.answerMilliseconds { fields.append(("ms", String(ms))) }
            }
            fields.append(("path", path))
            events.append(ReviewEvent(time: now, card: card.id, action: request.action, fields: fields))
        }
        var editor: FrontMatterEditor
        let oldBodyStart: Int
        do {
            editor = try FrontMatterEditor(file: bytes)
            oldBodyStart = editor.frontMatter.bodyRange.lowerBound
            for card in order {
                if let after = states[card] ?? nil {
                    try editor.setEntry(card.rawValue, in: SchedulingLine.key, to: SchedulingLine.encode(after))
                } else {
                    try editor.removeEntry(card.rawValue, in: SchedulingLine.key)
                }
            }
        } catch {
            throw .edit(path: path, line: error.mark.line, column: error.mark.column, message: error.message)
        }
        let edited = editor.file
        guard edited != bytes else {
            return Outcome(path: path, note: note, events: [], changes: changes.map { ($0.0, $0.1, $0.2) }, wrote: false)
        }
        if dryRun {
            return Outcome(path: path, note: note, events: events, changes: changes.map { ($0.0, $0.1, $0.2) },
                           wrote: false, diff: UnifiedDiff.make(old: bytes, new: edited, path: path))
        }
        try appendToLog(events)
        do {
            try vault.io.replace(full, with: edited, expected: bytes)
        } catch {
            let undos = events.map {
                ReviewEvent(time: now, card: $0.card, action: .undo(of: now), fields: [("why", "note-not-written")])
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
        return Outcome(path: path, note: note, events: events, changes: changes.map { ($0.0, $0.1, $0.2) }, wrote: true)
    }

    /// Appends events to this device's log (with the header when the file is new) and fsyncs it.
    func appendToLog(_ events: [ReviewEvent]) throws(ReviewError) {
        let path = vault.fullPath(Vault.logPath(device: device))
        var text = vault.io.stamp(path) == nil ? ReviewLog.header + "\n" : ""
        text += events.map { ReviewLog.format($0) + "\n" }.joined()
        do {
            try vault.io.makeDirectories(vault.fullPath(Vault.logFolder))
            try vault.io.append(path, Array(text.utf8))
        } catch {
            throw .io(error)
        }
    }

    /// Parses a note for writing; a note Quire cannot read is an error with its location.
    static func parse(_ bytes: [UInt8], path: String) throws(ReviewError) -> Note {
        let (note, diagnostics) = NoteParser.parse(bytes, path: path)
        guard let note else {
            throw .unreadableNote(diagnostics.first { $0.severity == .error }
                ?? Diagnostic(.error, path: path, message: "cannot be read as a note"))
        }
        return note
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
