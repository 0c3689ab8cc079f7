import ArgumentParser
import Foundation
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
        var session = CurateSession(context: context, period: chosen, writer: writer)
        try session.runPlain()
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

/// One curation review over a period: the notes in order, the decisions taken (for undo).
struct CurateSession {
    let context: CurationContext
    let period: CurationPeriod
    let writer: CurationWriter
    /// The notes the review decides on, undecided ones as the session began.
    private var notes: [CurationNote]
    /// What was decided on each note in this session, by index.
    private var decided: [Int: CurationWriter.Recorded] = [:]
    /// The decisions in order, for undo.
    private var history: [Int] = []

    init(context: CurationContext, period: CurationPeriod, writer: CurationWriter) {
        self.context = context
        self.period = period
        self.writer = writer
        notes = context.curation.eligible(in: period)
    }

    /// The session read line by line from standard input.
    mutating func runPlain() throws {
        let status = context.curation.status(of: period)
        say("\(period.review.rawValue.capitalized) review of \(period.title) (\(period)): \(Output.counted(status.total, "note")), "
            + "\(status.kept) kept, \(status.archived) archived, \(status.left) to decide.")
        for lower in context.curation.incompleteLower(than: period) {
            say("warning: the \(lower.period.review.rawValue) review of \(lower.period.title) (\(lower.period)) is not complete: \(lower.left) left")
        }
        guard !notes.isEmpty else {
            say("Nothing to decide.")
            return
        }
        do {
            try writer.session("start", in: period, fields: [("notes", notes.count)], at: context.now)
        } catch { throw CLIError(error.description) }
        say("Commands: keep (k), archive (a), skip (s), prev (p), next (n), undo (u), quit (q).")
        var i = 0
        var skipped = Set<Int>()
        session: while i < notes.count {
            show(i)
            while true {
                guard let line = readLine() else { break session }
                switch line.trimmingSpaces().lowercased() {
                case "keep", "k", "archive", "a":
                    if let done = decided[i] {
                        say("already \(done.decision == .keep ? "kept" : "archived") in this session; undo (u) takes it back")
                        continue
                    }
                    let decision: CurationWriter.Decision = line.trimmingSpaces().lowercased().hasPrefix("k") ? .keep : .archive
                    do {
                        let recorded = try writer.decide(decision, on: notes[i], in: period, today: context.today, at: context.now)
                        decided[i] = recorded
                        history.append(i)
                        skipped.remove(i)
                        say(decision == .keep ? "→ kept: cycle \(period.review.output.rawValue)" : "→ archived")
                    } catch {
                        say("error: \(error)")
                        continue
                    }
                    i += 1
                    continue session
                case "skip", "s":
                    skipped.insert(i)
                    say("→ skipped (still to decide)")
                    i += 1
                    continue session
                case "next", "n":
                    i += 1
                    continue session
                case "prev", "p":
                    i = max(0, i - 1)
                    continue session
                case "undo", "u":
                    guard let last = history.popLast(), let recorded = decided[last] else {
                        say("nothing to undo in this session")
                        continue
                    }
                    do {
                        try writer.undo(recorded, in: period, at: context.now)
                        decided[last] = nil
                        say("↶ undid the \(recorded.decision == .keep ? "keep" : "archive") of \(recorded.path)")
                        i = last
                    } catch {
                        history.append(last)
                        say("error: \(error)")
                        continue
                    }
                    continue session
                case "quit", "q":
                    break session
                case "":
                    continue
                default:
                    say("unknown command '\(line)' (keep, archive, skip, prev, next, undo, quit)")
                }
            }
        }
        let kept = decided.values.filter { $0.decision == .keep }.count
        let archived = decided.count - kept
        let after = status.left - decided.count
        do {
            try writer.session("end", in: period, fields: [("kept", kept), ("archived", archived), ("left", after)], at: context.now)
        } catch { throw CLIError(error.description) }
        say("")
        say("Kept \(kept), archived \(archived)" + (skipped.isEmpty ? "" : ", skipped \(skipped.subtracting(decided.keys).count)")
            + (after == 0 ? ". The \(period.review.rawValue) review of \(period.title) is complete."
               : "; \(after) left: the review of \(period.title) goes on where it stopped with 'quire curate \(period.review.rawValue) \(period)'."))
    }

    private func show(_ i: Int) {
        let note = notes[i]
        say("")
        var facts = [note.title]
        if let category = note.category { facts.append("[\(category)]") }
        if let source = note.source { facts.append("from " + source + (note.sourceType.map { " (\($0))" } ?? "")) }
        if !note.tags.isEmpty { facts.append(note.tags.map { "#" + $0.name }.joined(separator: " ")) }
        say("Note \(i + 1) of \(notes.count) · " + facts.joined(separator: " · "))
        say("\(note.path) · created \(CurationPeriod.dateText(note.created))\(note.createdInferred ? " (inferred)" : "")"
            + (decided[i].map { $0.decision == .keep ? " · kept" : " · archived" } ?? ""))
        if let body = writer.body(of: note) {
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
