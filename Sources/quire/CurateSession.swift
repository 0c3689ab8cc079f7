import QuireTerminal
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
            commandName: "weekly", abstract: "Keep or archive the notes created in a week (default: the oldest week due).",
            discussion: "Example: quire curate weekly 2026-W47")
        @OptionGroup var session: CurateSessionOptions
        func run() throws { try session.run(.weekly) }
    }

    struct CurateMonthly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "monthly", abstract: "Keep or archive a month's notes kept in its weekly reviews.",
            discussion: "Example: quire curate monthly 2026-11")
        @OptionGroup var session: CurateSessionOptions
        func run() throws { try session.run(.monthly) }
    }

    struct CurateYearly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "yearly", abstract: "Keep or archive a year's notes kept in its monthly reviews.",
            discussion: "Example: quire curate yearly 2026")
        @OptionGroup var session: CurateSessionOptions
        func run() throws { try session.run(.yearly) }
    }
}

/// The curation session the terminal drives (QuireApp's).
typealias CurateSession = CurationSession

extension CurationSession {
    /// The session read line by line from standard input.
    mutating func runPlain() throws {
        say(heading)
        warnings.forEach(say)
        guard !notes.isEmpty else {
            say("Nothing to decide.")
            return
        }
        do { try start() } catch { throw CLIError(error.description) }
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
        do { try finish().forEach(say) } catch { throw CLIError(error.description) }
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

    /// Writes a line of the session: no colour of Quire's own, so every escape in it is the
    /// vault's and is shown, not obeyed.
    private func say(_ text: String) {
        Output.line(TerminalText.visible(text))
        Output.flush()
    }
}
