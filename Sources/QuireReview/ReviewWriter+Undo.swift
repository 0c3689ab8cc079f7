import QuireModel
import QuireScheduling
import QuireYAML
import QuireSystem
import QuireParsing
import QuireVault

extension ReviewWriter {
    /// What ``undoLast(at:locate:)`` reverted.
    public struct UndoOutcome: Sendable {
        /// The event (a grade, unless asked otherwise) that no longer counts.
        public var undone: ReviewEvent
        /// The note it was in.
        public var path: String
        /// The card's state now (nil: no scheduling line).
        public var state: SchedulingState?
        /// True when the front matter was restored byte for byte from the journal; false when the
        /// state was rebuilt from the log because the front matter changed since the grade.
        public var exact: Bool
    }

    /// Reverts this device's last grade that is not undone yet: appends `undo of=TIME` to the log,
    /// then restores the card's scheduling line.
    ///
    /// When the note's front matter is still exactly as the grade left it, the bytes from before
    /// the grade come back (from the ``UndoJournal``). Otherwise only the card's line is set to the
    /// state the log gives without the grade.
    ///
    /// - Parameters:
    ///   - now: the time of the undo event (moved to just after the grade if the clock is behind it).
    ///   - card: only this card's events (a session takes back its own last action, whatever
    ///     another session of this device did since); nil for the device's last event of any card.
    ///   - locate: finds the note holding a card when it is no longer in the note the log names.
    ///   - undoing: which events may be taken back (grades by default; the review screen's `u`
    ///     also takes back a bury, a suspension or a StudyFlow move).
    ///   - event: only the event with this `id=` (a session takes back its own action, not one
    ///     another session of this device recorded on the same card since: the card's state is
    ///     then rebuilt from the log without it, the other's answer kept).
    public func undoLast(at now: Timestamp, card only: CardID? = nil, event id: String? = nil, locate: (CardID) -> String? = { _ in nil },
                         undoing: (ReviewAction) -> Bool = ReviewAction.isGrade) throws(ReviewError) -> UndoOutcome {
        let lock: FileLock.Token
        do { lock = try vault.lockForWriting() } catch { throw .io(error) }
        defer { lock.release() }
        let all = vault.reviewLog().events
        let own = ownEvents()
        let history = ReviewHistory(all)
        guard let target = own.last(where: { event in
            guard undoing(event.action), only.map({ event.card == $0 }) ?? true, id.map({ event.field("id") == $0 }) ?? true else { return false }
            return history.events[event.card]?.contains { ReviewHistory.same($0, event) } ?? false
        }) else { throw .nothingToUndo }
        let card = target.card
        var path = target.field("path") ?? ""
        var bytes: [UInt8] = []
        var note: Note?
        for candidate in [path, locate(card) ?? ""] where !candidate.isEmpty {
            guard let full = try? vault.notePath(candidate), let read = try? vault.io.read(full).bytes,
                  let parsed = try? parse(read, path: candidate),
                  parsed.cards.contains(where: { $0.id == card }) else { continue }
            (path, bytes, note) = (candidate, read, parsed)
            break
        }
        guard let note, let current = note.cards.first(where: { $0.id == card }) else {
            throw .cardNotFound(card: card, path: path)
        }
        // The undo must come after the grade in time order, even with a clock behind the log.
        let undoTime = max(now, Timestamp(milliseconds: target.time.milliseconds + 1))
        let undo = ReviewEvent(time: undoTime, card: card, action: .undo(of: target.time),
                               fields: (target.field("id").map { [("of-id", $0)] } ?? []) + [("path", path)])
        // A grade that made the card a leech suspended it with an event of its own: that goes too.
        let leechSuspensions = ReviewAction.isGrade(target.action) ? own.filter { event in
            event.card == card && event.time == target.time && event.action == .suspend && event.field("why") == "leech"
                && (history.events[card]?.contains { ReviewHistory.same($0, event) } ?? false)
        } : []
        let undos = [undo] + leechSuspensions.map {
            ReviewEvent(time: undoTime, card: card, action: .undo(of: $0.time),
                        fields: ($0.field("id").map { [("of-id", $0)] } ?? []) + [("path", path)])
        }
        let resolver = SettingsResolver(vault: vault, config: config)
        let block = Self.frontMatterBlock(bytes)
        var edited: [UInt8]
        var exact = false
        var state: SchedulingState?
        if let entry = vault.journalEntry(card: card, time: target.time), entry.after == UndoJournal.digest(block) {
            edited = Array(entry.before.utf8) + bytes[block.count...]
            state = (try? parse(edited, path: path))?.cards.first { $0.id == card }?.schedule
            exact = true
        } else {
            state = ReviewHistory(all + undos).state(of: card) { resolver.settings(for: $0, deck: note.deck) }
            state?.fingerprint = current.fingerprint
            do {
                var editor = try FrontMatterEditor(file: bytes)
                try SchedulingLine.set(state, of: card, in: &editor)
                edited = editor.file
            } catch {
                throw .edit(path: path, line: error.mark.line, column: error.mark.column, message: error.message)
            }
        }
        try appendToLog(undos)
        if edited != bytes {
            do {
                try vault.io.replace(try vault.notePath(path), with: edited, expected: bytes)
            } catch {
                throw .logAheadOfNote(path: path, cause: error)
            }
        }
        return UndoOutcome(undone: target, path: path, state: state, exact: exact)
    }

    /// The events in this device's log, in order.
    func ownEvents() -> [ReviewEvent] {
        guard let path = try? vault.internalPath(Vault.logPath(device: device)),
              let (bytes, _) = try? vault.io.read(path) else { return [] }
        return ReviewLog.parse(String(decoding: bytes, as: UTF8.self)).events
    }
}
