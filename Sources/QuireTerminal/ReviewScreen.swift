import QuireIndex
import QuireSupport
import Foundation
import QuireApp
import QuireMarkdown
import QuireModel
import QuireGeneration
import QuireScheduling
import QuireStudy
import QuireWatch

/// The full-screen review: draws the card, reads keys, and hands every action to
/// ``ReviewController``. Redraws on resize and every second (the clock); works from 80×24 up.
package struct ReviewScreen {
    package var controller: ReviewController
    package let context: StudyContext
    package let clock: StudyClock
    /// The estimated study time per card (the user's own average, or 30 s).
    package let secondsPerCard: Int
    /// The section a card of a note changed on disk joins the session in, or nil.
    package let joining: (Card, Note, Timestamp) -> StudyPlan.Section?

    private enum Phase { case intro, front, back, help, done }
    /// The phase the help was opened from: closing it goes back there (the answer stays shown).
    private var beforeHelp: Phase = .front

    private var phase = Phase.intro
    private var entry: StudySession.Entry?
    /// The first body line shown: a card longer than the screen scrolls.
    private var scroll = 0
    /// Whether every card asks for its answer to be typed (`--type`); otherwise only the cards
    /// of notes with `type: true`.
    package let typeEveryAnswer: Bool
    /// The answer being typed on the front of a type-in card; nil when not typing.
    private var typing: String?
    /// The answer typed, once the card is turned over.
    private var typed: String?
    private var shownAt = Timestamp(milliseconds: 0)
    private var started = Timestamp(milliseconds: 0)
    private var message = ""
    /// Whether the text the card was made from shows below the answer (`x`).
    private var explaining = false
    private let color = Output.useColor
    /// Embedded PNGs drawn in the card, on terminals that speak kitty's graphics protocol.
    private let images: KittyImages? = KittyImages.isSupported(environment: ProcessInfo.processInfo.environment) ? KittyImages() : nil

    package init(controller: ReviewController, context: StudyContext, clock: StudyClock, secondsPerCard: Int,
         typeEveryAnswer: Bool = false, joining: @escaping (Card, Note, Timestamp) -> StudyPlan.Section?) {
        self.controller = controller
        self.typeEveryAnswer = typeEveryAnswer
        self.context = context
        self.clock = clock
        self.secondsPerCard = secondsPerCard
        self.joining = joining
    }

    package mutating func run() {
        guard controller.session.leftCount > 0 else {
            Output.line("Nothing to study now." + (controller.session.nextStepDue.map { " Next learning step: \($0)." } ?? ""))
            return
        }
        guard Terminal.begin() else {
            Output.error("quire: error: the review screen needs a terminal (use --plain)")
            return
        }
        defer {
            Terminal.end()
            for line in SessionSummary.lines(controller, context: context) { Output.line(line) }
        }
        started = clock.now()
        // Notes edited in another editor while studying are read again as they change.
        let watcher = InotifyWatcher(root: controller.writer.vault.root)
        var watching = true
        do { try watcher.start() } catch {
            watching = false
            message = "Not watching for edits: \(error)"
        }
        defer { watcher.stop() }
        draw()
        var lastDraw = ContinuousClock.now
        while true {
            let key = Terminal.readKey(timeoutMilliseconds: watching ? 100 : 1000)
            var redraw = Terminal.takeResized() || key != nil || ContinuousClock.now - lastDraw >= .seconds(1)
            if watching, let batch = try? watcher.next(timeout: .zero) { redraw = takeIn(batch) || redraw }
            if let key, !handle(key) { return }
            if redraw {
                draw()
                lastDraw = ContinuousClock.now
            }
        }
    }

    /// Takes in notes changed on disk; true when the screen must be drawn again.
    private mutating func takeIn(_ batch: [FileChange]) -> Bool {
        let now = clock.now()
        let taken = controller.takeIn(batch) { card, note in joining(card, note, now) }
        guard !taken.isEmpty else { return false }
        var said: [String] = []
        if !taken.reread.isEmpty { said.append("Read \(taken.reread.joined(separator: ", ")) again.") }
        if !taken.gone.isEmpty { said.append("\(count(taken.gone.count)) no longer in the vault; skipped.") }
        if !taken.joined.isEmpty { said.append("\(count(taken.joined.count)) now due joined the session.") }
        message = said.joined(separator: " ")
        if var current = entry, let renamed = taken.renamed.first(where: { $0.old == current.card }) {
            current.card = renamed.new
            entry = current
        }
        if let entry, controller.card(entry) == nil, phase == .front || phase == .back { advance() }
        if phase == .done, controller.session.leftCount > 0 { advance() }
        return true
    }

    private func count(_ n: Int) -> String { n == 1 ? "1 card" : "\(n) cards" }

    /// Acts on a key; false to quit.
    private mutating func handle(_ key: Key) -> Bool {
        message = ""
        if key == .interrupt || key == .endOfInput { return false }
        if phase == .front, typing != nil {
            takeTyped(key)
            return true
        }
        if key == .character("q") { return false }
        if scrolls(key) { return true }
        switch phase {
        case .intro:
            if key == .space || key == .enter { advance() }
        case .help:
            phase = entry == nil ? .done : beforeHelp
            scroll = 0
        case .done:
            if key == .character("r"), !controller.session.results.failed.isEmpty {
                controller.retryFailed()
                advance()
            } else if key == .character("u") {
                undo()
            }
        case .front, .back:
            guard let entry else { return true }
            switch key {
            case .space where hasMoreBelow:
                scroll = min(maxScroll, scroll + max(1, visibleRows - 1))
            case .space, .enter:
                if phase == .front { reveal() }
            case .character("?"):
                beforeHelp = phase
                phase = .help
                scroll = 0
            case .character("u"):
                undo()
            case .character(let c) where SessionCommand(key: c) != nil:
                guard let command = SessionCommand(key: c) else { break }
                do {
                    let done = try controller.perform(command, on: entry, clock: clock)
                    message = done.message
                    if done.done { advance() }
                } catch { message = "\(error)" }
            case .character("e"):
                edit(entry)
            case .character("o"):
                openEmbeds(entry)
            case .character("x"):
                if phase == .front { reveal() }
                explaining.toggle()
            case .character(let c):
                // Grades only once the answer is shown, as in Anki.
                guard phase == .back, let n = c.wholeNumberValue else {
                    if c.wholeNumberValue != nil { message = "Show the answer first (Space)." }
                    break
                }
                let ratings = controller.settings(for: entry).ratings
                guard (1...ratings.count).contains(n) else { break }
                let rating = ratings[n - 1]
                do {
                    message = try controller.grade(entry, rating, shownAt: shownAt, clock: clock, typedWrongly: typedWrongly(entry)).line
                    advance()
                } catch { message = "\(error)" }
            default:
                break
            }
        }
        return true
    }

    /// A key while the answer is typed: characters go into it; Enter checks it, Escape shows the
    /// answer without checking; the arrows still scroll.
    private mutating func takeTyped(_ key: Key) {
        switch key {
        case .character(let c): typing?.append(c)
        case .space: typing?.append(" ")
        case .backspace: if typing?.isEmpty == false { typing?.removeLast() }
        case .enter:
            typed = typing
            typing = nil
            reveal()
        case .escape:
            typing = nil
            reveal()
        case .up, .down, .pageUp, .pageDown, .home, .end:
            _ = scrolls(key)
        default:
            break
        }
    }

    /// Whether a card asks for its answer to be typed: `--type`, or `type: true` in its note;
    /// never a cloze (its gaps are the question).
    private func asksToType(_ entry: StudySession.Entry) -> Bool {
        guard let (card, note) = controller.card(entry) else { return false }
        return ReviewContext.asksToType(card, in: note, always: typeEveryAnswer)
    }

    /// Moves through a long card (or the help, or the results); true when the key was for that.
    private mutating func scrolls(_ key: Key) -> Bool {
        let page = max(1, visibleRows - 1)
        switch key {
        case .down, .character("j"): scroll = min(maxScroll, scroll + 1)
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .pageDown: scroll = min(maxScroll, scroll + page)
        case .pageUp: scroll = max(0, scroll - page)
        case .home: scroll = 0
        case .end: scroll = maxScroll
        default: return false
        }
        return true
    }

    /// Shows the answer, scrolled so that its first lines are on the screen.
    private mutating func reveal() {
        phase = .back
        let page = self.page()
        guard let answer = page.answerStart, page.body.count > page.room else { return }
        scroll = min(maxScroll, max(scroll, answer + 3 - visibleRows))
    }

    /// Takes back the session's last action, whatever it was.
    private mutating func undo() {
        do {
            let undone = try controller.undoLast(clock: clock)
            message = undone.message
            if undone.undone != nil { advance() }
        } catch { message = "\(error)" }
    }

    /// Shows the next card, or the results.
    private mutating func advance() {
        let now = clock.now()
        scroll = 0
        typed = nil
        typing = nil
        explaining = false
        if let next = controller.next(at: now) {
            entry = next
            phase = .front
            shownAt = now
            if asksToType(next) { typing = "" }
        } else {
            entry = nil
            phase = .done
        }
    }

    /// Opens the card's note in `$EDITOR` at its line, then reads the note again.
    private mutating func edit(_ entry: StudySession.Entry) {
        guard let (card, _) = controller.card(entry) else { return }
        let status = Terminal.runOutside(EditorCommand.command.words + ["+\(card.lines.lowerBound)", controller.writer.vault.fullPath(entry.path)])
        // Read as any change on disk is: a card whose ID came from its text (a new card) and whose
        // text was edited is the edited card, and stays in the session.
        var entry = entry
        let taken = controller.takeIn([.changed(entry.path)]) { _, _ in nil }
        if let renamed = taken.renamed.first(where: { $0.old == entry.card }) {
            entry.card = renamed.new
            self.entry = entry
        }
        if status != 0 { message = "The editor exited with status \(status)." }
        if controller.card(entry) == nil {
            controller.remove(entry.card)
            message = "The card is no longer in \(TerminalText.visible(entry.path)); skipped."
            advance()
        } else {
            message = message.isEmpty ? "Read \(TerminalText.visible(entry.path)) again." : message
        }
    }

    /// The files the card shows (the answer's too once it is shown).
    private func embeds(_ card: Card) -> [String] {
        MarkdownRenderer.embeds(in: card.front + (phase == .back ? "\n\n" + card.back : ""))
    }

    /// Opens the card's embedded images (and PDFs, audio, video) with the system's opener.
    private mutating func openEmbeds(_ entry: StudySession.Entry) {
        guard let (card, note) = controller.card(entry) else { return }
        let targets = embeds(card)
        guard !targets.isEmpty else {
            message = "Nothing to open: the card embeds no file."
            return
        }
        var said: [String] = []
        for target in targets {
            let name = TerminalText.visible(target, keepLineBreaks: false)
            guard let path = controller.writer.vault.attachmentPath(target, fromNote: note.path) else {
                said.append("\(name): not found in the vault, or not an image, PDF, audio or video file")
                continue
            }
            let status = Terminal.runOutside(["xdg-open", path])
            // runOutside gives waitpid's raw status; -1 when xdg-open could not be started.
            said.append(status == 0 ? "Opened \(name)." : status == -1 ? "Cannot open \(name): xdg-open is not installed."
                : "xdg-open could not open \(name) (status \(status >> 8)).")
        }
        message = said.joined(separator: " ")
    }

    // MARK: - Drawing

    /// What the screen shows, before it is cut to the terminal's height.
    private struct Page {
        var header: [String]
        var body: [String]
        var footer: [String]
        /// The rows between the header and the message line.
        var room: Int
        /// The body line where the answer starts (its separator), when it is shown.
        var answerStart: Int?
        /// Images to draw: the first of the blank body lines kept for each, and the file.
        var images: [(line: Int, path: String)] = []
    }

    /// The body rows shown at once: the room, less one for the "more" line when the body does
    /// not fit.
    private var visibleRows: Int {
        let page = page()
        return page.body.count > page.room ? max(1, page.room - 1) : page.room
    }

    /// How far the body can scroll.
    private var maxScroll: Int { max(0, page().body.count - visibleRows) }

    private var hasMoreBelow: Bool { scroll < maxScroll }

    private func page() -> Page {
        let (width, height) = Terminal.size
        // One reading of the clock per drawing: the session's time and the buttons' intervals.
        let now = clock.peek()
        let header = self.header(width: width, now: now)
        let r = controller.session.remaining
        var body: [String] = []
        var footer: [String] = []
        var answerStart: Int?
        var imageLines: [(line: Int, path: String)] = []
        switch phase {
        case .intro:
            let total = controller.session.leftCount
            body = ["", bold("\(Plural.counted(total, "card")) to study") + " (\(r.new) new, \(r.learning) learning, \(r.review) review)",
                    "about \(StudyStats.duration(seconds: total * secondsPerCard))", "", "Space: start · q: quit"]
        case .help:
            body = ["", bold("Keys"), ""] + Self.keys + ["", "Any other key goes back."]
        case .done:
            body = [""] + SessionSummary.lines(controller, context: context, inScreen: true)
            footer = [dim(controller.session.results.failed.isEmpty ? "u undo · q quit" : "r retry the failed cards · u undo · q quit")]
        case .front, .back:
            guard let entry, let (card, note) = controller.card(entry) else { break }
            (body, footer, answerStart, imageLines) = cardPage(entry, card: card, note: note, width: width, height: height, now: now)
        }
        let room = max(1, height - header.count - footer.count - 1)
        return Page(header: header, body: body, footer: footer, room: room, answerStart: answerStart, images: imageLines)
    }

    /// The help's keys, one a line.
    static let keys = ["Space, Enter   show the answer (Space scrolls first when there is more)",
                       "↓ ↑, j k       scroll a long card; PgDn PgUp a page",
                       "1–4            grade once the answer shows: again, hard, good, easy (1–3 with 3 buttons)",
                       "u              undo the last answer, bury, suspension or move", "e              edit the card's note in $EDITOR",
                       "o              open the card's images (and PDFs, audio, video) with xdg-open",
                       "x              show (or hide) the text the card was made from, below the answer",
                       "s              skip (the card comes back at the end)", "b              bury until tomorrow",
                       "!              suspend", "p / P          promote / demote (StudyFlow cards only)", "q, Ctrl-C      quit"]

    /// The title (deck and position) with the counts and the session's time, and a rule.
    private func header(width: Int, now: Timestamp) -> [String] {
        var header: [String] = []
        let r = controller.session.remaining
        let elapsed = max(0, (now.milliseconds - started.milliseconds) / 1000)
        let clockText = String(format: "%02d:%02d", elapsed / 60, elapsed % 60)
        let counts = "new \(r.new) · learn \(r.learning) · due \(r.review) · \(clockText)"
        var position = ""
        if phase != .intro && phase != .done {
            let progress = controller.session.progress
            position = " · card \(progress.position) of \(progress.total)"
        }
        var title = "Quire" + position
        if let entry, let (_, note) = controller.card(entry) {
            // A long deck name is cut, not the card's position or the counts.
            let room = width - TerminalText.width(counts) - 1 - TerminalText.width(title) - 3
            let deck = TerminalText.visible(note.deck.description)
            if room >= 8 { title = "Quire · " + TerminalText.clip(deck, to: room) + position }
        }
        header.append(fit(bold(title), counts, width))
        header.append(dim(String(repeating: "─", count: width)))
        return header
    }

    /// A card's page: where it is, its front, the typed answer, and once shown its back, the text
    /// it was made from (x) and the buttons with their intervals; the keys below.
    private func cardPage(_ entry: StudySession.Entry, card: Card, note: Note, width: Int, height: Int, now: Timestamp)
        -> (body: [String], footer: [String], answerStart: Int?, images: [(line: Int, path: String)]) {
        var body: [String] = []
        var footer: [String] = []
        var answerStart: Int?
        var imageLines: [(line: Int, path: String)] = []
        body.append(dim("\(note.path):\(card.lines.lowerBound) · \(ReviewContext.stateWord(card.schedule, section: entry.section))"))
        // Where in the note the card sits, as `quire show` says it.
        if !card.headingPath.isEmpty {
            body.append(dim(TerminalText.visible(card.headingPath.joined(separator: " › "))))
        }
        body.append("")
        let vault = controller.writer.vault
        body += render(NoteEmbed.expanded(card.front, fromNote: note.path, in: vault), width: width)
        reserveImages(for: card.front, in: &body, note: note, images: &imageLines, height: height)
        let isFlow = controller.settings(for: entry).kind == .flow
        if let typing {
            body += ["", bold("Type the answer: ") + TerminalText.visible(typing) + "▏"]
        }
        if phase == .back {
            body.append("")
            answerStart = body.count
            body.append(dim(String(repeating: "╌", count: min(width, 40))))
            body.append("")
            if let typed {
                body.append(comparison(typed: typed, back: card.back))
                body.append("")
            }
            body += card.kind == .cloze ? render(card.back, revealedFrom: card.front, width: width)
                : render(NoteEmbed.expanded(card.back, fromNote: note.path, in: vault), width: width)
            reserveImages(for: card.back, in: &body, note: note, images: &imageLines, height: height)
            if explaining {
                // The text the card was made from, as `quire explain` shows it.
                let bytes = (try? controller.writer.vault.io.read(controller.writer.vault.fullPath(note.path)).bytes) ?? []
                let source = CardContext.context(of: card, in: note, bytes: bytes)
                body += ["", dim(String(repeating: "╌", count: min(width, 40))), ""]
                body.append(bold(source.line.map { "From line \($0):" } ?? "From its section:"))
                body += source.text.isEmpty ? [dim("(nothing before the card in its section)")] : render(source.text, width: width, lineBreaks: false)
            }
            let previews = controller.preview(entry, at: now)
            let buttons = previews.enumerated().map { i, p in
                bold("\(i + 1)") + " \(p.rating.name.capitalized) " + dim(p.state.due.map { ReviewContext.span(from: now, to: $0) } ?? "-")
            }
            let line = buttons.joined(separator: "   ")
            // A narrow screen keeps every button: numbers and intervals only.
            footer.append(TerminalText.width(line) <= width ? line : previews.enumerated().map { i, p in
                bold("\(i + 1)") + " " + dim(p.state.due.map { ReviewContext.span(from: now, to: $0) } ?? "-")
            }.joined(separator: " · "))
        } else if typing != nil {
            footer.append(bold("Enter") + " check the answer · " + bold("Esc") + " show it without typing · Ctrl-C quit")
        } else {
            footer.append(bold("Space") + " show answer")
        }
        let open = embeds(card).isEmpty ? "" : "o open image · "
        // The keys a narrow screen cuts come last.
        footer.append(dim("? help · q quit · " + open + "u undo · e edit · x explain · s skip · b bury · ! suspend" + (isFlow ? " · p/P promote" : "")))
        return (body, footer, answerStart, imageLines)
    }

    /// The answer typed for the card, when it was not the card's (logged with the grade).
    private func typedWrongly(_ entry: StudySession.Entry) -> String? {
        guard let (card, _) = controller.card(entry) else { return nil }
        return ReviewContext.typedWrongly(typed, back: card.back)
    }

    /// The typed answer against the card's back: right characters green, wrong ones red and struck
    /// through, missing ones yellow and underlined (without colour: `[-wrong-]` and `{+missing+}`).
    private func comparison(typed: String, back: String) -> String {
        let result = ReviewContext.comparison(typed: typed, back: back)
        var line = result.isCorrect ? "✓ " : "✗ "
        for segment in result.segments {
            switch segment {
            case .same(let t): line += color ? "\u{1B}[32m" + TerminalText.visible(t) + "\u{1B}[0m" : TerminalText.visible(t)
            case .wrong(let t): line += color ? "\u{1B}[31;9m" + TerminalText.visible(t) + "\u{1B}[0m" : "[-" + TerminalText.visible(t) + "-]"
            case .missing(let t): line += color ? "\u{1B}[33;4m" + TerminalText.visible(t) + "\u{1B}[0m" : "{+" + TerminalText.visible(t) + "+}"
            }
        }
        if typed.isEmpty { line += dim(" (nothing typed)") }
        return line
    }

    private func draw() {
        let (width, height) = Terminal.size
        let page = page()
        var lines = page.header
        var body = page.body
        if body.count > page.room {
            let rows = visibleRows
            let top = min(scroll, maxScroll)
            let below = body.count - (top + rows)
            body = Array(body[top..<min(body.count, top + rows)])
            let more = below > 0
                ? "↓ \(below) more line\(below == 1 ? "" : "s") below (↓ j PgDn\(phase == .front ? ", Space" : ""))"
                : "↑ \(Plural.counted(top, "line")) above (↑ k PgUp)"
            body.append(dim(more))
        }
        lines += body
        while lines.count < height - page.footer.count - 1 { lines.append("") }
        lines.append(message)
        lines += page.footer
        var frame = "\u{1B}[H"
        for (i, line) in lines.prefix(height).enumerated() {
            frame += TerminalText.clip(Output.safe(line), to: width) + "\u{1B}[0m\u{1B}[K" + (i < min(lines.count, height) - 1 ? "\r\n" : "")
        }
        Terminal.write(frame + "\u{1B}[J" + imageCommands(page))
    }

    /// Blank lines under a side for each PNG it embeds, where ``imageCommands(_:)`` draws it.
    private func reserveImages(for side: String, in body: inout [String], note: Note,
                               images: inout [(line: Int, path: String)], height: Int) {
        guard self.images != nil else { return }
        let vault = controller.writer.vault
        for target in MarkdownRenderer.embeds(in: side) where target.lowercased().hasSuffix(".png") {
            guard let path = vault.attachmentPath(target, fromNote: note.path) else { continue }
            body.append("")
            images.append((body.count, path))
            body += Array(repeating: "", count: Self.imageRows(height: height))
        }
    }

    /// Rows an image takes: a third of the screen, 3 to 12.
    private static func imageRows(height: Int) -> Int { min(12, max(3, height / 3)) }

    /// The kitty graphics commands for the images of the visible body lines (none elsewhere).
    private func imageCommands(_ page: Page) -> String {
        guard let images else { return "" }
        var out = KittyImages.clearPlacements
        let (_, height) = Terminal.size
        let top = page.body.count > page.room ? min(scroll, maxScroll) : 0
        let shown = page.body.count > page.room ? visibleRows : page.body.count
        let rows = Self.imageRows(height: height)
        let io = controller.writer.vault.io
        for image in page.images where image.line >= top && image.line + rows <= top + shown {
            guard let sent = images.id(for: image.path, read: { try? io.read($0).bytes }) else { continue }
            out += sent.transmission + KittyImages.placement(id: sent.id, row: page.header.count + image.line - top + 1, rows: rows)
        }
        return out
    }

    /// A card's side (with its line breaks), or the prose of its section (`lineBreaks` false).
    private func render(_ markdown: String, width: Int, lineBreaks: Bool = true) -> [String] {
        lines(MarkdownRenderer.ansi(markdown, color: color, width: max(20, width - 2), lineBreaks: lineBreaks))
    }

    /// A cloze card's back, the text its front hid highlighted (bracketed without colour).
    private func render(_ back: String, revealedFrom front: String, width: Int) -> [String] {
        lines(MarkdownRenderer.ansi(revealing: back, hiddenIn: front, color: color, width: max(20, width - 2), lineBreaks: true))
    }

    private func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `left` and `right` on one line of `width` columns; a `left` too long is cut first, and
    /// `right` goes only when nothing of `left` would be left.
    private func fit(_ left: String, _ right: String, _ width: Int) -> String {
        let rightWidth = TerminalText.width(right)
        guard rightWidth + 12 <= width else { return left }
        let shown = TerminalText.width(left) + rightWidth + 1 > width ? TerminalText.clip(left, to: width - rightWidth - 1) : left
        return shown + String(repeating: " ", count: max(1, width - TerminalText.width(shown) - rightWidth)) + right
    }

    private func bold(_ s: String) -> String { color ? "\u{1B}[1m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
    private func dim(_ s: String) -> String { color ? "\u{1B}[2m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
}
