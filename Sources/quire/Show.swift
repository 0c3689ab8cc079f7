import QuireTerminal
import ArgumentParser
import QuireApp
import QuireMarkdown
import QuireModel
import QuireScheduling
import QuireIndex

extension Quire {
    /// `quire show CARD`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a card: its front and back rendered, its source location and its scheduling state.",
            discussion: "Example: quire show 7k2m9xq4v1ab")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @Argument(help: "The card's ID (or a unique prefix of at least 4 characters).")
        var card: String

        func run() throws {
            let loaded = try LoadedVault(options)
            let index = loaded.index
            guard let loc = index.location(of: card) else {
                throw CLIError("no card '\(card)' (an ID or a unique prefix of at least 4 characters)")
            }
            let note = index.notes[loc.note]
            let c = index.card(at: loc)
            if listing.json {
                Output.line(JSONRepresentation.card(c, in: note).serialized(pretty: true))
                return try loaded.finish()
            }
            show(c, in: note, settings: try LoadedVault.settings(of: loaded.vault).config.settings(for: note.deck), now: options.now)
            try loaded.finish()
        }

        /// The card as the terminal shows it: ID, kind, deck, place, both sides, its state and
        /// the next due time of each button.
        private func show(_ c: Card, in note: Note, settings: SchedulerSettings, now: Timestamp) {
            let color = Output.useColor
            let width = min(Output.isTerminal ? Output.width : 80, 100)
            func dim(_ s: String) -> String { color ? "\u{1B}[2m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
            func bold(_ s: String) -> String { color ? "\u{1B}[1m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
            var kind = c.kind.rawValue
            switch c.variant {
            case .single: break
            case .forward, .backward: kind += " (\(c.variant.identityText))"
            case .cloze(let n): kind += " c\(n)"
            }
            Output.line(bold(c.id.rawValue) + "  " + kind + "  " + TerminalText.visible(note.deck.description))
            Output.line(dim("\(note.path):\(c.lines.lowerBound)" + (c.lines.count > 1 ? "-\(c.lines.upperBound)" : "")
                            + "  (the card's back ends at line \(c.lines.upperBound))"))
            if !c.headingPath.isEmpty { Output.line(dim(c.headingPath.joined(separator: " › "))) }
            Output.line()
            Output.line(bold("Front"))
            Output.write(render(c.front, color: color, width: width))
            Output.line()
            Output.line(bold("Back"))
            Output.write(render(c.back, color: color, width: width))
            Output.line()
            Output.line(dim(Self.stateLine(c)))
            let outcomes = settings.makeScheduler().preview(c.schedule, at: now, card: c.id)
            let next = settings.ratings.compactMap { r in
                outcomes[r]?.due.map { "\(r.name) \(ReviewContext.span(from: now, to: $0))" }
            }
            Output.line(dim("next (\(settings.kind.rawValue)): " + next.joined(separator: "  ")))
        }

        private func render(_ markdown: String, color: Bool, width: Int) -> String {
            // A side of megabytes is shown in part: what a terminal can show, at a cost that does
            // not grow with the card.
            let limit = 64 << 10
            var text = markdown
            var cut = 0
            if markdown.utf8.count > limit {
                let head = Array(markdown.utf8.prefix(limit + 1))
                var end = limit
                while end > 0, head[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
                text = String(decoding: head[..<end], as: UTF8.self)
                cut = markdown.utf8.count - text.utf8.count
            }
            var s = MarkdownRenderer.ansi(text, color: color, width: width, lineBreaks: true)
            if !s.hasSuffix("\n") { s += "\n" }
            if cut > 0 { s += "… (\(cut) more bytes not shown; the note has them all)\n" }
            return s
        }

        static func stateLine(_ c: Card) -> String {
            guard let s = c.schedule else { return "state: new (never reviewed)" }
            var parts = ["state: \(s.state.rawValue)"]
            if let due = s.due { parts.append("due: \(due)") }
            if let last = s.lastReview { parts.append("last: \(last)") }
            if let v = s.stability { parts.append("stability: \(SchedulingState.format(v))") }
            if let v = s.difficulty { parts.append("difficulty: \(SchedulingState.format(v))") }
            if let v = s.ease { parts.append("ease: \(SchedulingState.format(v))") }
            if let v = s.interval { parts.append("interval: \(v)d") }
            parts.append("reps: \(s.reps)")
            parts.append("lapses: \(s.lapses)")
            if let f = s.flow { parts.append("flow: \(f.rawValue)") }
            if s.suspended { parts.append("suspended") }
            if let b = s.buriedUntil { parts.append("buried until \(b)") }
            return parts.joined(separator: "  ")
        }
    }
}
