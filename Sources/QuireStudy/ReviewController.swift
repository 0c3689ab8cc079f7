import QuireModel
import QuireScheduling
import QuireIndex
import QuireParsing
import QuireReview

/// A study session wired to the vault: the queue (``StudySession``), the notes as last read, and
/// the writer that records each answer. The review screen and `quire review --plain` only read
/// keys, call this and draw; everything that can be tested without a terminal is here.
public struct ReviewController: Sendable {
    /// The queue.
    public private(set) var session: StudySession
    /// The writer answers go through.
    public let writer: ReviewWriter
    /// The notes as last read, by path (from the index, then as each write left them).
    private var notes: [String: Note]
    /// Cards that became leeches in this session, in order (see ``ReviewWriter/Outcome/leeches``).
    public private(set) var leeches: [CardID] = []
    /// What this session did, in order, for undo: answers and the other actions of its keys.
    private var done: [(entry: StudySession.Entry, action: ReviewAction, id: String?)] = []

    /// Whether answers are written (the log and the notes); false when cramming: the session runs
    /// as usual, and the cards' schedules are left alone.
    public let recordsAnswers: Bool

    /// A session over `entries` (see ``StudySession/order(_:)``), with the index's notes.
    ///
    /// - Parameter recordsAnswers: false to leave the log and the notes untouched (cramming).
    public init(writer: ReviewWriter, index: VaultIndex, entries: [StudySession.Entry], dayEnd: Timestamp,
                recordsAnswers: Bool = true) {
        self.writer = writer
        self.recordsAnswers = recordsAnswers
        session = StudySession(entries: entries, dayEnd: dayEnd)
        var notes: [String: Note] = [:]
        let paths = Set(entries.map(\.path))
        for note in index.notes where paths.contains(note.path) { notes[note.path] = note }
        self.notes = notes
    }

    /// The card an entry stands for, with its note, as last read.
    public func card(_ entry: StudySession.Entry) -> (card: Card, note: Note)? {
        guard let note = notes[entry.path], let card = note.cards.first(where: { $0.id == entry.card }) else { return nil }
        return (card, note)
    }

    /// The scheduler settings for an entry's deck.
    public func settings(for entry: StudySession.Entry) -> SchedulerSettings {
        writer.config.settings(for: card(entry)?.note.deck ?? .defaultDeck)
    }

    /// Every button's outcome for an entry at `now`, in button order.
    public func preview(_ entry: StudySession.Entry, at now: Timestamp) -> [(rating: Rating, state: SchedulingState)] {
        guard let (card, _) = card(entry) else { return [] }
        let settings = settings(for: entry)
        let outcomes = settings.makeScheduler().preview(card.schedule, at: now, card: card.id)
        return settings.ratings.compactMap { r in outcomes[r].map { (r, $0) } }
    }

    /// The card to show at `now` (skipping cards that vanished from their notes).
    public mutating func next(at now: Timestamp) -> StudySession.Entry? {
        while let entry = session.next(at: now) {
            if card(entry) != nil { return entry }
            session.remove(entry.card)
        }
        return nil
    }

    /// Grades an entry; returns the card's new state.
    @discardableResult
    /// - Parameter typedWrongly: an answer typed that was not the card's, logged with the grade.
    public mutating func answer(_ entry: StudySession.Entry, _ rating: Rating, at now: Timestamp,
                                milliseconds: Int, typedWrongly: String? = nil) throws(ReviewError) -> SchedulingState? {
        guard recordsAnswers else {
            // Cramming: what the answer would give decides when the card comes back in this
            // session; nothing is written.
            let state = preview(entry, at: now).first { $0.rating == rating }?.state
            session.answer(entry, rating: rating, state: state, at: now, milliseconds: milliseconds)
            done.append((entry, .grade(rating), nil))
            return state
        }
        let outcome = try writer.grade(entry.card, rating, inNote: entry.path, at: now,
                                       answerMilliseconds: milliseconds, known: notes[entry.path], typedWrongly: typedWrongly)
        notes[entry.path] = outcome.noteAfter
        let state = outcome.changes.last?.after
        session.answer(entry, rating: rating, state: state, at: now, milliseconds: milliseconds)
        done.append((entry, .grade(rating), Self.eventID(outcome, entry.card)))
        if outcome.leeches.contains(entry.card) {
            leeches.append(entry.card)
            // A suspended leech does not come back in this session.
            if state?.suspended == true { session.remove(entry.card) }
        }
        return state
    }

    /// Takes back the session's last action — an answer, a bury, a suspension, a StudyFlow move —
    /// in the log and the note; the card is shown next. Returns the card and what was undone;
    /// nil when nothing was done in this session.
    public mutating func undo(at now: Timestamp) throws(ReviewError) -> (entry: StudySession.Entry, action: ReviewAction)? {
        guard let last = done.last else { return nil }
        guard recordsAnswers else {
            done.removeLast()
            return session.undo().map { ($0, last.action) }
        }
        // This session's own event: another session of this device (a second page, a second
        // terminal) may have answered the card since; its answer stands.
        let outcome = try writer.undoLast(at: now, card: last.entry.card, event: last.id, locate: { [notes] card in
            notes.values.first { $0.cards.contains { $0.id == card } }?.path
        }, undoing: Self.undoable)
        reload(outcome.path)
        guard outcome.undone.card == last.entry.card, outcome.undone.action.word == last.action.word else {
            // The log's last such event was not this session's (another process wrote since):
            // keep the session as it is; the undo stands as the user asked.
            return nil
        }
        done.removeLast()
        if ReviewAction.isGrade(last.action) {
            guard let entry = session.undo() else { return nil }
            if session.removed.contains(entry.card) { session.restore(entry) }
            return (entry, last.action)
        }
        session.restore(last.entry)
        return (last.entry, last.action)
    }

    /// The `id=` of the event `outcome` recorded on `card` (the request's own, not a leech's
    /// suspension that may follow it).
    static func eventID(_ outcome: ReviewWriter.Outcome, _ card: CardID) -> String? {
        outcome.events.first { $0.card == card }?.field("id")
    }

    /// The events the session's undo takes back: what its keys record.
    static func undoable(_ action: ReviewAction) -> Bool {
        switch action {
        case .grade, .bury, .suspend, .promote, .demote: true
        default: false
        }
    }

    /// Records a change to the entry's card (bury, suspend, StudyFlow moves) and takes it out of
    /// the session when it should not come back today.
    public mutating func apply(_ action: ReviewAction, to entry: StudySession.Entry, at now: Timestamp) throws(ReviewError) {
        guard recordsAnswers else { throw .notInThisSession("cramming leaves the cards' schedules alone: \(action.word) them outside the session, or cram with --reschedule") }
        let outcome = try writer.record([.init(card: entry.card, action: action)], inNote: entry.path, at: now,
                                        known: notes[entry.path])
        notes[entry.path] = outcome.noteAfter
        if Self.undoable(action) { done.append((entry, action, Self.eventID(outcome, entry.card))) }
        switch action {
        case .bury, .suspend, .deactivate, .reset: session.remove(entry.card)
        case .promote, .demote:
            // A StudyFlow move sets a new due day; the card is done for today.
            session.remove(entry.card)
        default: break
        }
    }

    /// Starts over with the cards failed in this session (answers so far are kept in the results).
    public mutating func retryFailed() {
        let failed = session.results.failed
        var entries: [StudySession.Entry] = []
        for card in failed {
            guard let last = session.answers.last(where: { $0.entry.card == card }) else { continue }
            var entry = last.entry
            entry.section = .learning
            entries.append(entry)
        }
        session = StudySession(entries: entries, dayEnd: session.dayEnd, answers: session.answers)
    }

    /// Takes a card out of the session (it vanished from its note, or the user set it aside).
    public mutating func remove(_ card: CardID) { session.remove(card) }

    /// Adds a card to the session (a due card that appeared while studying).
    public mutating func add(_ entry: StudySession.Entry) { session.add(entry) }

    /// Puts a card's new ID in place of its old one in the session (its text was edited).
    mutating func replace(_ old: CardID, with new: CardID, path: String) { session.replace(old, with: new, path: path) }

    /// The notes the session holds, by path.
    var notesByPath: [String: Note] { notes }

    /// Sets or forgets a note of the session.
    mutating func setNote(_ note: Note?, at path: String) { notes[path] = note }

    /// Moves an entry to the end of the queue.
    public mutating func skip(_ entry: StudySession.Entry) { session.skip(entry) }

    /// Reads a note again (after it was edited outside); cards no longer in it leave the session.
    public mutating func reload(_ path: String) {
        let io = writer.vault.io
        guard let bytes = try? io.read(writer.vault.fullPath(path)).bytes,
              let note = NoteParser.parse(bytes, path: path, syntax: writer.syntax).note else {
            notes[path] = nil
            return
        }
        notes[path] = note
    }
}
