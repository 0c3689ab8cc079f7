import QuireTerminal
import ArgumentParser
import Foundation
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem

extension Quire {
    /// `quire add [QUESTION ANSWER | --cloze TEXT] [--reversed] [--deck DECK] [--note FILE]`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a card to a note, from the command line or $EDITOR.",
            discussion: """
                'quire add "What is ATP?" "The cell's energy currency"' appends the card to Inbox.md \
                (with --deck DECK, DECK/Inbox.md; with --note, that note), creating the note when \
                missing, in the simplest syntax that reads back as exactly that card. --reversed makes \
                a reversed pair, --cloze a cloze from text holding {{c1::…}}. Without the card's text, \
                $VISUAL or $EDITOR opens to write it in the vault's card syntax. The note is read back \
                first: a text that makes no card, changes another card or brings a warning is refused, \
                and nothing is written.

                Example: quire add "What is ATP?" "The cell's energy currency" --deck Biology
                """)

        @OptionGroup var options: VaultOptions
        @Flag(help: "The text is a cloze: one argument holding {{c1::…}} deletions.")
        var cloze = false
        @Flag(help: "Make a reversed pair: front → back and back → front.")
        var reversed = false
        @Option(help: ArgumentHelp("Add to DECK/Inbox.md (decks are folders).", valueName: "DECK"), completion: .custom(QueryCompletion.decks))
        var deck: String?
        @Option(help: ArgumentHelp("Add to this note (a path in the vault; created when missing).", valueName: "FILE"))
        var note: String?
        @Flag(help: "Show the change as a diff; write nothing.")
        var dryRun = false
        @Argument(help: "The question (or front, or the cloze text) and the answer (or back).")
        var text: [String] = []

        func validate() throws {
            if cloze && reversed { throw ValidationError("--cloze and --reversed cannot be used together") }
            if cloze && text.count > 1 { throw ValidationError("--cloze takes one text, holding its {{c1::…}} deletions") }
            if !cloze && text.count == 1 { throw ValidationError("give the question and the answer (two arguments), or neither to write the card in $EDITOR") }
            if text.count > 2 { throw ValidationError("too many arguments: quote the question and the answer") }
            if deck != nil && note != nil { throw ValidationError("--deck and --note cannot be used together") }
        }

        func run() throws {
            let vault = try options.open()
            let path = note ?? ((deck.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/" } ?? "") + "Inbox.md")
            let markdown: String
            do {
                if text.isEmpty {
                    let template = cloze ? "" : reversed ? " ::: \n" : "Q: \nA: \n"
                    guard let written = try EditorCommand.text(startingWith: template, nothingDone: "nothing added") else {
                        Output.line("Nothing added.")
                        return
                    }
                    markdown = written
                } else {
                    let content: CardDraft.Content = cloze ? .cloze(text[0])
                        : reversed ? .reversed(front: text[0], back: text[1]) : .basic(question: text[0], answer: text[1])
                    markdown = try CardAddition.markdown(for: CardDraft(content))
                }
                let addition = try CardAddition.plan(markdown, to: path, vault: vault, syntax: vault.cardSyntax().syntax)
                if dryRun {
                    Output.write(UnifiedDiff.make(old: addition.original ?? [], new: addition.edited, path: path))
                    return
                }
                try addition.write(to: vault)
                for card in addition.cards {
                    Output.line("added \(card.id) (\(card.kind.rawValue)) to \(path):\(card.lines.lowerBound)")
                }
            } catch let error as EditError {
                throw CLIError(error.description)
            }
        }
    }
}
