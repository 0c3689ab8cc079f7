import ArgumentParser
import QuireGeneration
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSystem

extension Quire {
    /// `quire import csv|anki …`: bringing cards and notes in from other formats.
    struct ImportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Bring cards and notes in from other formats.",
            discussion: "Everything is checked before anything is written; then the new files are moved into place all together.\n\nExample: quire import csv words.csv --deck Spanish",
            subcommands: [ImportCSV.self, ImportAnki.self, ImportObsidian.self, ImportPDF.self, ImportImage.self, ImportAudio.self, ImportVideo.self])

        /// Imports write Quire's card syntax: a vault reading another is refused.
        static func requireQuireSyntax(_ vault: Vault) throws {
            guard case .quire = vault.cardSyntax().syntax else {
                throw CLIError("this vault's card_syntax is obsidian-sr: imported cards are written in Quire's syntax")
            }
        }

        /// Whether a path of the vault is taken (something is there, or it is not a path a note
        /// or an imported file may have).
        static func taken(in vault: Vault) -> (String) -> Bool {
            { path in
                let full = path.hasSuffix(".md") ? try? vault.notePath(path) : try? vault.filePath(path)
                return full.map { vault.io.linkStamp($0) != nil } ?? true
            }
        }

        /// Prints a plan's problems. With `strict`, an error means nothing is imported: it says so
        /// and fails. Otherwise what can be imported is, and ``finish(errors:what:)`` fails after it.
        /// Returns the number of errors.
        @discardableResult
        static func report(_ diagnostics: [Diagnostic], root: String, strict: Bool = true) throws -> Int {
            Output.diagnostics(diagnostics, root: root, toStandardError: true, color: false)
            let errors = diagnostics.filter { $0.severity == .error }.count
            if errors > 0, strict {
                Output.error("nothing imported: \(Output.counted(errors, "error"))")
                throw ExitCode(1)
            }
            return errors
        }

        /// After a partial import: when some of it could not be imported, says how much and fails.
        static func finish(errors: Int, what: String) throws {
            guard errors > 0 else { return }
            Output.error("\(Output.counted(errors, what)) not imported (see the errors above; --strict imports nothing then)")
            throw ExitCode(1)
        }

        /// The folder an imported note goes into: `--to`, else the deck's folder, else the vault's top.
        static func folder(to: String?, deck: String?) -> String {
            var folder = to ?? deck.map { $0.replacing("::", with: "/") } ?? ""
            while folder.hasSuffix("/") { folder.removeLast() }
            return folder
        }

        /// Why a note made from another format's text would not read back as text only (a card or
        /// a warning in it), or nil when it reads as plain text.
        static func plainNoteProblem(_ plan: NoteCreation) -> String? {
            let (parsed, found) = NoteParser.parse(plan.bytes, path: plan.path)
            guard parsed == nil || parsed?.cards.isEmpty == false || found.contains(where: { $0.severity >= .warning }) else { return nil }
            return found.map(\.message).joined(separator: "; ")
        }

        /// The path in assets/ for a file named `name` (made safe by ``safeName(_:)``): its own
        /// name, with ` 2`, ` 3`… before the extension when that is taken in the vault or in `used`.
        static func assetPath(for name: String, in vault: Vault, avoiding used: Set<String> = []) -> String {
            let name = safeName(name)
            let taken = taken(in: vault)
            let dot = name.lastIndex(of: ".") ?? name.endIndex
            var asset = "assets/" + name
            var n = 1
            while used.contains(asset) || taken(asset) {
                n += 1
                asset = "assets/" + name[..<dot] + " \(n)" + name[dot...]
            }
            return asset
        }

        /// A file name safe in the vault: its last part, letters, digits, `-`, `_`, `.` and spaces
        /// kept, others made `_`; "image.png" when nothing is left.
        static func safeName(_ name: String) -> String {
            var out = String(name.unicodeScalars.map { s -> Character in
                s.properties.isAlphabetic || s.properties.numericType != nil || "-_. ".unicodeScalars.contains(s) ? Character(s) : "_"
            })
            while out.hasPrefix(".") || out.hasPrefix(" ") { out.removeFirst() }
            return out.isEmpty ? "image.png" : String(out.prefix(100))
        }

        /// A new note's bytes with cards proposed from its text (`--generate`: as `quire generate
        /// --write` would add them, each at the end of its section), and how many; the bytes as they were when no
        /// card is proposed or the cards would not read back. `statistics`: word rarity over the
        /// import's notes (by default the note's alone).
        static func withGeneratedCards(path: String, bytes: [UInt8], statistics: TermStatistics? = nil) -> (bytes: [UInt8], count: Int) {
            guard let note = NoteParser.parse(bytes, path: path).note else { return (bytes, 0) }
            let cards = CardGenerator.propose(NoteProse.sentences(of: note, bytes: bytes),
                                              statistics: statistics ?? TermStatistics(texts: [String(decoding: bytes, as: UTF8.self)]),
                                              tested: CardGenerator.testedTerms(of: note))
            let edited = CardInsertion.inserting(cards, into: bytes)
            guard NoteParser.parse(edited, path: path).note?.cards.count == note.cards.count + cards.count else { return (bytes, 0) }
            return (edited, cards.count)
        }

        /// Writes an import's files all or none, with a progress bar on a terminal; past `budget`
        /// bytes nothing is written, and the message says `rule`.
        static func write(_ files: [StagedFiles.File], to vault: Vault, budget: Int = .max, rule: String? = nil) throws {
            var bar = ProgressBar("Writing", total: files.count)
            do {
                try StagedFiles.write(files, to: vault, budget: budget) { bar.update($0) }
            } catch {
                if case .overBudget = error, let rule { throw CLIError(error.description + " (" + rule + ")") }
                throw CLIError(error.description)
            }
        }
    }
}
