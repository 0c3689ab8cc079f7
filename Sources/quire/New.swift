import QuireTerminal
import ArgumentParser
import Foundation
import QuireApp
import QuireModel
import QuireReview
import QuireSystem

extension Quire {
    /// `quire new [TEXT...]`.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Write a new note: TITLE, then each further argument a paragraph of its body (without them, in $EDITOR).",
            discussion: """
                quire new "Listen first" "Seek to understand, then to be understood." — quote a title of \
                several words. The note goes into the notes folder (notes_folder in .quire/config.yaml, default Notes), \
                named after its title, never over an existing file, with its title, created time and the \
                options given in its front matter.

                Example: quire new "Listen first" "Seek to understand." --category Communication
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: "Its category (quire category lists them).") var category: String?
        @Option(help: "A tag (again for more).") var tag: [String] = []
        @Option(help: "Where it comes from: a URL, a book, a person.") var source: String?
        @Option(help: "The kind of source: Book, Podcast, … (source_types in the settings).") var sourceType: String?
        @Option(help: "Its deck.", completion: .custom(QueryCompletion.decks)) var deck: String?
        @Argument(help: ArgumentHelp("The title, then the body's paragraphs (quote each).", valueName: "TITLE BODY")) var text: [String] = []

        func validate() throws {
            for t in tag where Tag(t) == nil || t.contains(":") { throw ValidationError("'\(t)' cannot be a tag") }
        }

        func run() throws {
            let vault = try options.open()
            let config = try LoadedVault.settings(of: vault).config
            // The first argument is the title (the note's first line), each further one a paragraph.
            var body = text.first.map { ([$0] + text.dropFirst()).joined(separator: "\n\n") } ?? ""
            if text.isEmpty {
                guard let written = try EditorCommand.text(startingWith: "", nothingDone: "nothing written") else {
                    Output.line("Nothing written: the note was left empty.")
                    return
                }
                body = written
            }
            if let category, !config.categories.contains(where: { $0.name.lowercased() == category.lowercased() }) {
                Output.error("quire: warning: '\(category)' is not one of the categories ('quire category add \(category)' adds it)")
            }
            do {
                let note = try NoteCreation.plan(body, fields: [("category", category), ("source", source), ("source_type", sourceType), ("deck", deck)],
                                                 tags: tag, folder: config.notesFolder, vault: vault, created: options.now)
                try note.write(to: vault)
                Output.line("wrote \(note.path)")
            } catch {
                throw CLIError(error.description)
            }
        }
    }
}
