import QuireSupport
import QuireApp
import QuireMarkdown
import QuireModel
import QuireScheduling
import QuireStudy

/// `quire review --plain`: the session as plain text, driven by commands read line by line from
/// standard input (for scripts and tests). An empty line shows the answer; `1`–`4` or a rating's
/// name grades (showing the answer first if needed); `u` undo, `s` skip, `b` bury, `!` suspend,
/// `p`/`P` promote/demote, `r` retry the failed cards at the end, `?` help, `q` (or end of input) quits.
package struct PlainReview {
    package var controller: ReviewController
    package let context: StudyContext
    package let clock: StudyClock
    /// The estimated study time per card (the user's own average, or 30 s).
    package let secondsPerCard: Int

    package init(controller: ReviewController, context: StudyContext, clock: StudyClock, secondsPerCard: Int) {
        self.controller = controller
        self.context = context
        self.clock = clock
        self.secondsPerCard = secondsPerCard
    }

    package static let help = "Enter: show answer · 1-4 or again/hard/good/easy: grade · u undo · s skip · b bury · ! suspend · p/P promote/demote · q quit"

    package mutating func run() {
        let total = controller.session.leftCount
        let r = controller.session.remaining
        say("Studying \(Plural.counted(total, "card")) (\(r.new) new, \(r.learning) learning, \(r.review) review), about \(StudyStats.duration(seconds: total * secondsPerCard)).")
        say(Self.help)
        session: while true {
            let now = clock.now()
            guard let entry = controller.next(at: now), let (card, note) = controller.card(entry) else {
                if let due = controller.session.nextStepDue {
                    say("Learning steps are waiting until \(due); nothing else is due now.")
                }
                break
            }
            say("")
            let progress = controller.session.progress
            say("Card \(progress.position) of \(progress.total) · \(ReviewContext.stateWord(card.schedule, section: entry.section)) · \(note.path):\(card.lines.lowerBound) · \(note.deck)")
            say("Q: " + render(card.front, note: note.path))
            var revealed = false
            while true {
                guard let line = readLine() else { break session }
                switch take(line.trimmingSpaces(), entry: entry, card: card, shownAt: now, revealed: &revealed) {
                case .sameCard: continue
                case .nextCard: continue session
                case .quit: break session
                }
            }
        }
        say("")
        for line in SessionSummary.lines(controller, context: context, inScreen: true) { say(line) }
        if !controller.session.results.failed.isEmpty, readLine()?.trimmingSpaces() == "r" {
            controller.retryFailed()
            run()
        }
    }

    /// What a command line leads to.
    package enum Step { case sameCard, nextCard, quit }

    /// Does one command on the card shown at `shownAt`: an empty line shows the answer, a rating
    /// grades (showing the answer first), a session command (s, b, !, p, P) is performed, `u`
    /// undoes, `q` quits, `?` helps.
    private mutating func take(_ command: String, entry: StudySession.Entry, card: Card, shownAt: Timestamp, revealed: inout Bool) -> Step {
        if command.isEmpty {
            if !revealed { reveal(card, entry, at: shownAt) }
            revealed = true
            return .sameCard
        }
        if let rating = Self.rating(command, buttons: controller.settings(for: entry).ratings) {
            if !revealed { reveal(card, entry, at: shownAt) }
            do {
                let graded = try controller.grade(entry, rating, shownAt: shownAt, clock: clock)
                say("→ \(rating.name): \(graded.answered)")
                for notice in graded.notices { say("  " + notice) }
            } catch {
                say("error: \(error)")
            }
            return .nextCard
        }
        if let n = Int(command) {
            say("grade with 1–\(controller.settings(for: entry).ratings.count) here, not \(n)")
            return .sameCard
        }
        if command.count == 1, let key = command.first, let asked = SessionCommand(key: key) {
            do {
                let done = try controller.perform(asked, on: entry, clock: clock)
                say(done.phrase)
                return done.done ? .nextCard : .sameCard
            } catch {
                say("error: \(error)")
                return .nextCard
            }
        }
        switch command {
        case "u":
            do {
                say(try controller.undoLast(clock: clock).phrase.map { "↶ undid " + $0 } ?? "nothing to undo in this session")
            } catch { say("error: \(error)") }
            return .nextCard
        case "q":
            return .quit
        case "?":
            say(Self.help)
        default:
            say("unknown command '\(command)' (? for help)")
        }
        return .sameCard
    }

    /// The rating a command names: a button number (1–3 map to again, good, easy with three
    /// buttons) or a rating's name; nil for anything else or a rating the deck does not offer.
    package static func rating(_ command: String, buttons: [Rating]) -> Rating? {
        if let n = Int(command) { return (1...buttons.count).contains(n) ? buttons[n - 1] : nil }
        return Rating(name: command).flatMap { buttons.contains($0) ? $0 : nil }
    }

    private func reveal(_ card: Card, _ entry: StudySession.Entry, at now: Timestamp) {
        // A cloze's revealed text in brackets.
        say("A: " + (card.kind == .cloze ? indented(MarkdownRenderer.ansi(revealing: card.back, hiddenIn: card.front, color: false, width: 78, lineBreaks: true))
            : render(card.back, note: controller.card(entry)?.1.path)))
        let buttons = controller.preview(entry, at: now).enumerated().map { i, p in
            "\(i + 1) \(p.rating.name) \(p.state.due.map { ReviewContext.span(from: now, to: $0) } ?? "-")"
        }
        say("   " + buttons.joined(separator: " · "))
    }

    /// A side as plain text, the notes it embeds (`![[Glossary#Bias]]`) quoted in place.
    private func render(_ markdown: String, note: String?) -> String {
        let expanded = note.map { NoteEmbed.expanded(markdown, fromNote: $0, in: controller.writer.vault) } ?? markdown
        return indented(MarkdownRenderer.plain(expanded, width: 78, lineBreaks: true))
    }

    /// Rendered lines after the first indented under `Q: ` / `A: `.
    private func indented(_ rendered: String) -> String {
        var text = rendered
        while text.hasSuffix("\n") { text.removeLast() }
        return text.replacingOccurrences(of: "\n", with: "\n   ")
    }

    /// Writes a line of the session: no colour of Quire's own, so every escape in it is the
    /// vault's and is shown, not obeyed.
    private func say(_ text: String) {
        Output.line(TerminalText.visible(text))
        Output.flush()
    }
}
