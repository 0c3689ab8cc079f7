import QuireSupport
import QuireCuration
import QuireModel

/// One curation review over a period: the notes in order, where the user is, the decisions taken
/// (for undo). Any front end drives it (the terminal: `--plain` and the full screen).
public struct CurationSession {
    public let context: CurationContext
    public let period: CurationPeriod
    public let writer: CurationWriter
    /// The notes the review decides on: those undecided when the session began.
    public let notes: [CurationNote]
    /// The note shown.
    public private(set) var position = 0
    /// What was decided on each note in this session, by index.
    public private(set) var decided: [Int: CurationWriter.Recorded] = [:]
    /// The decisions in order, for undo.
    private var history: [Int] = []
    public private(set) var skipped = Set<Int>()
    /// The period's status when the session began.
    public let status: PeriodStatus
    /// Read once per event: each log line carries the time it happened.
    public let clock: StudyClock

    public init(context: CurationContext, period: CurationPeriod, writer: CurationWriter, clock: StudyClock) {
        self.context = context
        self.period = period
        self.writer = writer
        self.clock = clock
        notes = context.curation.eligible(in: period)
        status = context.curation.status(of: period)
    }

    /// Whether every note was gone through.
    public var isAtEnd: Bool { position >= notes.count }

    /// The opening line: `Weekly review of Week 47, 2026 (2026-W47): 12 notes, 3 kept, 0 archived, 9 to decide.`
    public var heading: String {
        "\(period.review.rawValue.capitalized) review of \(period.title) (\(period)): \(Plural.counted(status.total, "note")), "
            + "\(status.kept) kept, \(status.archived) archived, \(status.left) to decide."
    }

    /// Warnings about the lower reviews of the span still open.
    public var warnings: [String] {
        context.curation.incompleteLower(than: period).map {
            "warning: the \($0.period.review.rawValue) review of \($0.period.title) (\($0.period)) is not complete: \($0.left) left"
        }
    }

    /// Keeps or archives the note shown and moves on; what to say.
    public mutating func decide(_ decision: CurationWriter.Decision) -> String {
        guard !isAtEnd else { return "" }
        if let done = decided[position] {
            return "Already \(done.decision == .keep ? "kept" : "archived") in this session; u takes that back."
        }
        do {
            let recorded = try writer.decide(decision, on: notes[position], in: period, today: context.today, at: clock.now())
            decided[position] = recorded
            history.append(position)
            skipped.remove(position)
            position += 1
            if decision == .keep { return "Kept: cycle \(period.review.output.rawValue)." }
            let cards = notes[position - 1].cards
            // An archived note's cards are never due (FORMAT.md §2.1): say so when it has some.
            return cards == 0 ? "Archived." : "Archived: its \(Plural.counted(cards, "card")) no longer come\(cards == 1 ? "s" : "") up for review (they keep their history; unarchiving brings them back)."
        } catch {
            return "error: \(error)"
        }
    }

    /// Leaves the note shown undecided and moves on.
    public mutating func skip() -> String {
        guard !isAtEnd else { return "" }
        if decided[position] == nil { skipped.insert(position) }
        position += 1
        return "Skipped (still to decide)."
    }

    public mutating func next() { position = min(notes.count, position + 1) }

    public mutating func previous() { position = max(0, position - 1) }

    /// Takes back the decision on the note shown when it was decided in this session, else the
    /// session's last decision, and shows its note again.
    public mutating func undo() -> String {
        let shown = !isAtEnd && decided[position] != nil ? position : nil
        guard let last = shown ?? history.last, let recorded = decided[last] else { return "Nothing to undo in this session." }
        do {
            try writer.undo(recorded, in: period, at: clock.now())
        } catch {
            return "error: \(error)"
        }
        history.removeAll { $0 == last }
        decided[last] = nil
        position = last
        return "Undid the \(recorded.decision == .keep ? "keep" : "archive") of \(recorded.path)."
    }

    /// The note's facts: title, category, source, tags.
    public func facts(_ i: Int) -> String {
        let note = notes[i]
        var facts = [note.title]
        if let category = note.category { facts.append("[\(category)]") }
        if let source = note.source { facts.append("from " + source + (note.sourceType.map { " (\($0))" } ?? "")) }
        if !note.tags.isEmpty { facts.append(note.tags.map { "#" + $0.name }.joined(separator: " ")) }
        return facts.joined(separator: " · ")
    }

    /// Where the note is and when it was made, and what this session decided on it.
    public func location(_ i: Int) -> String {
        let note = notes[i]
        return "\(note.path) · created \(CurationPeriod.dateText(note.created))\(note.createdInferred ? " (inferred)" : "")"
            + (decided[i].map { $0.decision == .keep ? " · kept" : " · archived" } ?? "")
    }

    /// Records the session's start.
    public func start() throws(AppError) {
        do { try writer.session("start", in: period, fields: [("notes", notes.count)], at: clock.now()) } catch {
            throw .curation(error.description)
        }
    }

    /// Records the session's end; the summary lines.
    public func finish() throws(AppError) -> [String] {
        let kept = decided.values.filter { $0.decision == .keep }.count
        let archived = decided.count - kept
        let left = status.left - decided.count
        do {
            try writer.session("end", in: period, fields: [("kept", kept), ("archived", archived), ("left", left)],
                               status: left == 0 ? .completed : (kept + archived + status.kept + status.archived == 0 ? .pending : .inProgress),
                               at: clock.now())
        } catch { throw .curation(error.description) }
        let skippedNow = skipped.subtracting(decided.keys).count
        return ["Kept \(kept), archived \(archived)" + (skippedNow == 0 ? "" : ", skipped \(skippedNow)")
            + (left == 0 ? ". The \(period.review.rawValue) review of \(period.title) is complete."
               : "; \(left) left: the review of \(period.title) goes on where it stopped with 'quire curate \(period.review.rawValue) \(period)'.")]
    }
}
