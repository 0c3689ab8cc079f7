import Foundation
import QuireApp
import QuireCuration
import QuireMarkdown

/// The full-screen curation review: a note at a time, rendered whole, with keep, archive, skip,
/// previous/next, edit and undo; the summary at the end. Drives a ``CurationSession``, as `--plain`
/// does.
package struct CurateScreen {
    package var session: CurationSession
    private var message = ""
    private var scroll = 0
    private var finished = false
    private let color = Output.useColor

    package init(session: CurationSession) { self.session = session }

    package mutating func run() throws {
        guard !session.notes.isEmpty else {
            Output.line(session.heading)
            Output.line("Nothing to decide.")
            return
        }
        guard Terminal.begin() else { throw CLIError("the curation screen needs a terminal (use --plain)") }
        try session.start()
        message = session.warnings.first ?? ""
        var summary: [String] = []
        defer {
            Terminal.end()
            for line in summary { Output.line(line) }
        }
        draw()
        while true {
            let key = Terminal.readKey(timeoutMilliseconds: 1000)
            let resized = Terminal.takeResized()
            if let key, !handle(key) { break }
            if key != nil || resized { draw() }
        }
        summary = try session.finish()
    }

    /// Acts on a key; false to leave.
    private mutating func handle(_ key: Key) -> Bool {
        if key == .interrupt || key == .endOfInput || key == .character("q") { return false }
        message = ""
        if finished {
            if key == .left || key == .character("u") { finished = false } else { return true }
        }
        let before = session.position
        switch key {
        case .character("k"): message = session.decide(.keep)
        case .character("a"): message = session.decide(.archive)
        case .character("s"): message = session.skip()
        case .right: session.next()
        case .left: session.previous()
        case .character("u"): message = session.undo()
        case .character("e"): edit()
        case .down: scroll += 1
        case .up: scroll = max(0, scroll - 1)
        case .pageDown: scroll += max(1, Terminal.size.rows - 8)
        case .pageUp: scroll = max(0, scroll - max(1, Terminal.size.rows - 8))
        default: break
        }
        if session.position != before { scroll = 0 }
        if session.isAtEnd { finished = true }
        return true
    }

    /// Opens the note in `$EDITOR`, then shows it as it now is.
    private mutating func edit() {
        guard !session.isAtEnd else { return }
        let note = session.notes[session.position]
        let status = Terminal.runOutside(EditorCommand.command.words + [session.writer.vault.fullPath(note.path)])
        message = status == 0 ? "Edited \(TerminalText.visible(note.path))." : "The editor exited with status \(status >> 8)."
    }

    private func draw() {
        let (width, height) = Terminal.size
        var lines: [String] = []
        let kept = session.decided.values.filter { $0.decision == .keep }.count
        let archived = session.decided.count - kept
        let position = finished ? "done" : "\(session.position + 1) of \(session.notes.count)"
        // The position first: a narrow screen cuts the end of the line.
        let title = "\(position) · \(session.period.review.rawValue.capitalized) review · \(session.period.title) · Quire"
        let counts = "kept \(kept) · archived \(archived)"
        let gap = width - TerminalText.width(title) - TerminalText.width(counts)
        lines.append(bold(title) + (gap >= 1 ? String(repeating: " ", count: gap) + counts : ""))
        lines.append(dim(String(repeating: "─", count: width)))
        var body: [String] = []
        if finished {
            body = ["", bold("Every note of \(session.period.title) gone through."), ""]
                + ["Kept \(kept), archived \(archived), left \(session.status.left - session.decided.count)."]
        } else {
            let i = session.position
            body.append(bold(session.facts(i)))
            body.append(dim(session.location(i)))
            body.append("")
            if let text = session.writer.body(of: session.notes[i]) {
                let rendered = MarkdownRenderer.ansi(text, color: color, width: max(20, width - 2))
                var split = rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                while split.last?.isEmpty == true { split.removeLast() }
                body += split
            }
        }
        let footer = finished ? [dim("← or u back · q quit")]
            : [dim("k keep · a archive · s skip · q quit · ← → previous/next · e edit · u undo · ↓ ↑ scroll")]
        let room = max(1, height - lines.count - footer.count - 1)
        let top = min(scroll, max(0, body.count - room))
        lines += body.dropFirst(top).prefix(room)
        while lines.count < height - footer.count - 1 { lines.append("") }
        lines.append(message)
        lines += footer
        var frame = "\u{1B}[H"
        for (n, line) in lines.prefix(height).enumerated() {
            frame += TerminalText.clip(Output.safe(line), to: width) + "\u{1B}[0m\u{1B}[K" + (n < min(lines.count, height) - 1 ? "\r\n" : "")
        }
        Terminal.write(frame + "\u{1B}[J")
    }

    private func bold(_ s: String) -> String { color ? "\u{1B}[1m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
    private func dim(_ s: String) -> String { color ? "\u{1B}[2m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
}
