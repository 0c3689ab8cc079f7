import ArgumentParser
import Foundation
import QuireApp
import QuireCuration
import QuireMarkdown
import QuireModel
import QuireReview
import QuireSupport

/// What `quire curate weekly|monthly|yearly` take.
struct CurateSessionOptions: ParsableArguments {
    @OptionGroup var options: VaultOptions
    @Flag(help: "No full-screen interface: read keep, archive, skip, prev, next, undo, quit lines from standard input.")
    var plain = false
    @Argument(help: "The period: 2026-W47, 2026-11 or 2026 (default: the oldest one due).")
    var period: String?

    /// Runs a review of `review` over the period asked for.
    func run(_ review: CurationReview) throws {
        let context = try CurationContext(options)
        let chosen: CurationPeriod
        if let period {
            guard let p = CurationPeriod(period, review: review) else {
                throw CLIError("'\(period)' is not a \(review.rawValue) period (like \(Self.example(review)))")
            }
            chosen = p
        } else if let oldest = context.curation.oldestPending(review, today: context.today) {
            chosen = oldest
        } else {
            Output.line("No \(review.rawValue) review is due. ('quire curate status' lists every review due.)")
            return
        }
        var generator = SystemRandomNumberGenerator()
        let device: String
        do { device = try context.loaded.vault.deviceID(using: &generator) } catch { throw CLIError(error.description) }
        let writer = CurationWriter(vault: context.loaded.vault, device: device)
        let session = CurateSession(context: context, period: chosen, writer: writer, clock: StudyClock(fixed: options.pinnedNow))
        if plain || !Output.isTerminal {
            var plainSession = session
            try plainSession.runPlain()
        } else {
            var screen = CurateScreen(session: session)
            try screen.run()
        }
        try context.loaded.finish()
    }

    static func example(_ review: CurationReview) -> String {
        switch review {
        case .weekly: "2026-W47"
        case .monthly: "2026-11"
        case .yearly: "2026"
        }
    }
}

extension Quire {
    struct CurateWeekly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "weekly", abstract: "Keep or archive the notes created in a week (default: the oldest week due).")
        @OptionGroup var session: CurateSessionOptions
        func run() throws { try session.run(.weekly) }
    }

    struct CurateMonthly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "monthly", abstract: "Keep or archive a month's notes kept in its weekly reviews.")
        @OptionGroup var session: CurateSessionOptions
        func run() throws { try session.run(.monthly) }
    }

    struct CurateYearly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "yearly", abstract: "Keep or archive a year's notes kept in its monthly reviews.")
        @OptionGroup var session: CurateSessionOptions
        func run() throws { try session.run(.yearly) }
    }
}

/// One curation review over a period: the notes in order, where the user is, the decisions taken
/// (for undo). `--plain` and the full screen both drive it.
struct CurateSession {
    let context: CurationContext
    let period: CurationPeriod
    let writer: CurationWriter
    /// The notes the review decides on: those undecided when the session began.
    let notes: [CurationNote]
    /// The note shown.
    private(set) var position = 0
    /// What was decided on each note in this session, by index.
    private(set) var decided: [Int: CurationWriter.Recorded] = [:]
    /// The decisions in order, for undo.
    private var history: [Int] = []
    private(set) var skipped = Set<Int>()
    /// The period's status when the session began.
    let status: PeriodStatus
    /// Read once per event: each log line carries the time it happened.
    let clock: StudyClock

    init(context: CurationContext, period: CurationPeriod, writer: CurationWriter, clock: StudyClock) {
        self.context = context
        self.period = period
        self.writer = writer
        self.clock = clock
        notes = context.curation.eligible(in: period)
        status = context.curation.status(of: period)
    }

    /// Whether every note was gone through.
    var isAtEnd: Bool { position >= notes.count }

    /// The opening line: `Weekly review of Week 47, 2026 (2026-W47): 12 notes, 3 kept, 0 archived, 9 to decide.`
    var heading: String {
        "\(period.review.rawValue.capitalized) review of \(period.title) (\(period)): \(Output.counted(status.total, "note")), "
            + "\(status.kept) kept, \(status.archived) archived, \(status.left) to decide."
    }

    /// Warnings about the lower reviews of the span still open.
    var warnings: [String] {
        context.curation.incompleteLower(than: period).map {
            "warning: the \($0.period.review.rawValue) review of \($0.period.title) (\($0.period)) is not complete: \($0.left) left"
        }
    }

    /// Keeps or archives the note shown and moves on; what to say.
    mutating func decide(_ decision: CurationWriter.Decision) -> String {
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
            return cards == 0 ? "Archived." : "Archived: its \(Output.counted(cards, "card")) no longer come\(cards == 1 ? "s" : "") up for review (they keep their history; unarchiving brings them back)."
        } catch {
            return "error: \(error)"
        }
    }

    /// Leaves the note shown undecided and moves on.
    mutating func skip() -> String {
        guard !isAtEnd else { return "" }
        if decided[position] == nil { skipped.insert(position) }
        position += 1
        return "Skipped (still to decide)."
    }

    mutating func next() { position = min(notes.count, position + 1) }

    mutating func previous() { position = max(0, position - 1) }

    /// Takes back the decision on the note shown when it was decided in this session, else the
    /// session's last decision, and shows its note again.
    mutating func undo() -> String {
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
    func facts(_ i: Int) -> String {
        let note = notes[i]
        var facts = [note.title]
        if let category = note.category { facts.append("[\(category)]") }
        if let source = note.source { facts.append("from " + source + (note.sourceType.map { " (\($0))" } ?? "")) }
        if !note.tags.isEmpty { facts.append(note.tags.map { "#" + $0.name }.joined(separator: " ")) }
        return facts.joined(separator: " · ")
    }

    /// Where the note is and when it was made, and what this session decided on it.
    func location(_ i: Int) -> String {
        let note = notes[i]
        return "\(note.path) · created \(CurationPeriod.dateText(note.created))\(note.createdInferred ? " (inferred)" : "")"
            + (decided[i].map { $0.decision == .keep ? " · kept" : " · archived" } ?? "")
    }

    /// Records the session's start.
    func start() throws {
        do { try writer.session("start", in: period, fields: [("notes", notes.count)], at: clock.now()) } catch {
            throw CLIError(error.description)
        }
    }

    /// Records the session's end; the summary lines.
    func finish() throws -> [String] {
        let kept = decided.values.filter { $0.decision == .keep }.count
        let archived = decided.count - kept
        let left = status.left - decided.count
        do {
            try writer.session("end", in: period, fields: [("kept", kept), ("archived", archived), ("left", left)],
                               status: left == 0 ? .completed : (kept + archived + status.kept + status.archived == 0 ? .pending : .inProgress),
                               at: clock.now())
        } catch { throw CLIError(error.description) }
        let skippedNow = skipped.subtracting(decided.keys).count
        return ["Kept \(kept), archived \(archived)" + (skippedNow == 0 ? "" : ", skipped \(skippedNow)")
            + (left == 0 ? ". The \(period.review.rawValue) review of \(period.title) is complete."
               : "; \(left) left: the review of \(period.title) goes on where it stopped with 'quire curate \(period.review.rawValue) \(period)'.")]
    }

    /// The session read line by line from standard input.
    mutating func runPlain() throws {
        say(heading)
        warnings.forEach(say)
        guard !notes.isEmpty else {
            say("Nothing to decide.")
            return
        }
        try start()
        say("Commands: keep (k), archive (a), skip (s), prev (p), next (n), undo (u), quit (q).")
        var shown = -1
        session: while !isAtEnd {
            if shown != position {
                show(position)
                shown = position
            }
            guard let line = readLine() else { break }
            switch line.trimmingSpaces().lowercased() {
            case "keep", "k": say("→ " + decide(.keep))
            case "archive", "a": say("→ " + decide(.archive))
            case "skip", "s": say("→ " + skip())
            case "next", "n": next()
            case "prev", "p": previous()
            case "undo", "u": say("↶ " + undo())
            case "quit", "q": break session
            case "": continue
            default: say("unknown command '\(line)' (keep, archive, skip, prev, next, undo, quit)")
            }
        }
        say("")
        try finish().forEach(say)
    }

    private func show(_ i: Int) {
        say("")
        say("Note \(i + 1) of \(notes.count) · " + facts(i))
        say(location(i))
        if let body = writer.body(of: notes[i]) {
            var text = MarkdownRenderer.plain(body, width: 78)
            while text.hasSuffix("\n") { text.removeLast() }
            if !text.isEmpty { say("  " + text.replacingOccurrences(of: "\n", with: "\n  ")) }
        }
    }

    private func say(_ text: String) {
        Output.line(text)
        Output.flush()
    }
}
