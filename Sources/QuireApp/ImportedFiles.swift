import QuireGeneration
import QuireInterchange
import QuireModel
import QuireParsing
import QuireReview
import QuireSupport
import QuireSystem
import QuireVault

/// Where an import's files go in the vault and how they are written, for every import: names
/// for notes and media that take nothing already there, cards proposed for a new note, the files
/// moved into place all or none.
public enum ImportedFiles {
    /// `reason` said of `file`: as it is when it names the file already (the file system's and the
    /// helper programs' messages do), else after the file's name.
    static func located(_ reason: String, file: String) -> String {
        reason.hasPrefix(file + ": ") ? reason : "\(file): \(reason)"
    }

    /// Imports write Quire's card syntax: a vault reading another is refused.
    public static func requireQuireSyntax(_ vault: Vault) throws(AppError) {
        guard case .quire = vault.cardSyntax().syntax else {
            throw .importRefused("this vault's card_syntax is obsidian-sr: imported cards are written in Quire's syntax")
        }
    }

    /// Whether a path of the vault is taken (something is there, or it is not a path a note
    /// or an imported file may have).
    public static func taken(in vault: Vault) -> (String) -> Bool {
        { path in
            let full = path.hasSuffix(".md") ? try? vault.notePath(path) : try? vault.filePath(path)
            return full.map { vault.io.linkStamp($0) != nil } ?? true
        }
    }

    /// Where an imported note goes: `--to`'s folder, else the deck's folder, else the vault's
    /// top; given both, the note goes into `--to`'s folder and names its deck in its front matter.
    public struct Destination: Sendable, Equatable {
        /// The folder, relative to the vault ("" for its top).
        public var folder: String
        /// The note's `deck:` key (`A/B`), when its folder does not say its deck.
        public var deck: String?

        /// From `--to` and `--deck` (`A::B` or `A/B`).
        public init(to: String?, deck: String?) {
            let named = deck.map { $0.replacing("::", with: "/") }
            var folder = to ?? named ?? ""
            while folder.hasSuffix("/") { folder.removeLast() }
            self.folder = folder
            self.deck = to == nil ? nil : named
        }
    }

    /// Why a note made from another format's text would not read back as text only (a card or
    /// a warning in it), or nil when it reads as plain text.
    public static func plainNoteProblem(_ plan: NoteCreation) -> String? {
        let (parsed, found) = NoteParser.parse(plan.bytes, path: plan.path)
        guard parsed == nil || parsed?.cards.isEmpty == false || found.contains(where: { $0.severity >= .warning }) else { return nil }
        // Always a reason: the cards it would hold when nothing else was found.
        if found.isEmpty, let cards = parsed?.cards, let first = cards.first {
            return "it would hold \(Plural.counted(cards.count, "card")), the first at line \(first.lines.lowerBound): \(first.front.prefix(60))"
        }
        return found.map { ($0.line.map { "line \($0): " } ?? "") + $0.message }.joined(separator: "; ")
    }

    /// The path in assets/ for a file named `name` (made safe by ``safeName(_:)``): its own
    /// name, with ` 2`, ` 3`… before the extension when that is taken in the vault or in `used`.
    public static func assetPath(for name: String, in vault: Vault, avoiding used: Set<String> = []) -> String {
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
    public static func safeName(_ name: String) -> String {
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
    public static func withGeneratedCards(path: String, bytes: [UInt8], statistics: TermStatistics? = nil) -> (bytes: [UInt8], count: Int) {
        guard let note = NoteParser.parse(bytes, path: path).note else { return (bytes, 0) }
        let cards = CardGenerator.propose(NoteProse.sentences(of: note, bytes: bytes),
                                          statistics: statistics ?? TermStatistics(texts: [String(decoding: bytes, as: UTF8.self)]),
                                          tested: CardGenerator.testedTerms(of: note))
        let edited = CardInsertion.inserting(cards, into: bytes)
        guard NoteParser.parse(edited, path: path).note?.cards.count == note.cards.count + cards.count else { return (bytes, 0) }
        return (edited, cards.count)
    }

    /// Writes an import's files all or none (StagedFiles), `progress` told of each; past `budget`
    /// bytes nothing is written, and the error says `rule`.
    public static func write(_ files: [StagedFiles.File], to vault: Vault, budget: Int = .max, rule: String? = nil,
                             progress: (Int) -> Void = { _ in }) throws(AppError) {
        do {
            try StagedFiles.write(files, to: vault, budget: budget, progress: progress)
        } catch {
            if case .overBudget = error, let rule { throw .importRefused(error.description + " (" + rule + ")") }
            throw .importRefused(error.description)
        }
    }
}
