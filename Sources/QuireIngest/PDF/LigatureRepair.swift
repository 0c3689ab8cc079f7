import QuireSystem

/// Words a PDF's text layer lost a ligature from, put back: many fonts map their `fi`, `fl`, `ff`,
/// `ffi` and `ffl` glyphs to no character, so poppler reads "There are ve key verbs", "lter",
/// "noti es", "I nd". A word the dictionary does not know, into which exactly one ligature put at
/// one place makes a word it knows (with the next word too, where the lost glyph left a space),
/// is repaired; anything else is left as it is. Only on English text (most of its words known):
/// elsewhere nothing is touched. Pure; the dictionary comes in as a value.
public struct LigatureRepair: Sendable {
    /// The dictionary's words as it writes them (`find`, `Nd`): a word in lower case is known only
    /// as a lower-case entry, so `nd` is no word though `Nd` (neodymium) is.
    let words: Set<String>
    /// The dictionary's words lower-cased, for telling English text.
    let folded: Set<String>
    /// The ligatures fonts lose, longest first.
    static let ligatures = ["ffi", "ffl", "ff", "fi", "fl"]
    /// Quotes and backticks: a word between them is left as written.
    static let quotes: Set<Character> = ["\"", "'", "`", "“", "”", "‘", "’"]
    /// The share of a text's words the dictionary must know before anything is repaired.
    static let englishShare = 0.6
    /// Where Debian's word list (`wamerican`) lives.
    public static let dictionaryPath = "/usr/share/dict/words"

    /// A repair with `words` as its dictionary.
    public init(words: some Sequence<String>) {
        self.words = Set(words)
        folded = Set(self.words.map { $0.lowercased() })
    }

    /// The repair with the system's word list, or nil when there is none (nothing is repaired).
    public static func installed(io: FileIO = FileIO()) -> LigatureRepair? {
        // A system file (Debian links it to the list of the language chosen), not the vault's.
        guard let path = FileIO.realPath(dictionaryPath), let stamp = io.stamp(path), stamp.isRegularFile,
              let bytes = try? io.read(path).bytes else { return nil }
        let words = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        return words.count > 1000 ? LigatureRepair(words: words) : nil
    }

    /// `layout` with each page's lines repaired, when its text is English.
    public func repaired(_ layout: PDFLayout) -> PDFLayout {
        var out = layout
        for p in out.pages.indices where isEnglish(out.pages[p].lines.map(\.text)) {
            for l in out.pages[p].lines.indices { out.pages[p].lines[l].text = repaired(line: out.pages[p].lines[l].text) }
        }
        return out
    }

    /// Whether most of the words of `lines` are known.
    func isEnglish(_ lines: [String]) -> Bool {
        var known = 0, total = 0
        for line in lines {
            for token in line.split(separator: " ") {
                let core = Self.core(token)
                guard core.count >= 2, core.allSatisfy(\.isLetter) else { continue }
                total += 1
                if folded.contains(core.lowercased()) { known += 1 }
            }
        }
        return total >= 5 && Double(known) >= Self.englishShare * Double(total)
    }

    /// One line with its lost ligatures put back.
    public func repaired(line: String) -> String {
        var tokens = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var k = 0
        while k < tokens.count {
            let (lead, core, trail) = Self.parts(tokens[k])
            // A quoted word is a name as written (`"cli"`, an R package), not prose.
            guard isCandidate(core), !(lead + trail).contains(where: { Self.quotes.contains($0) }) else { k += 1; continue }
            // The glyph left a space: `noti es`.
            if trail.isEmpty, k + 1 < tokens.count {
                let (nextLead, nextCore, nextTrail) = Self.parts(tokens[k + 1])
                if nextLead.isEmpty, isCandidate(nextCore) || nextCore.count <= 2, nextCore.allSatisfy(\.isLetter), !nextCore.isEmpty,
                   let joined = only(core, nextCore) {
                    tokens[k] = lead + joined + nextTrail
                    tokens.remove(at: k + 1)
                    k += 1
                    continue
                }
            }
            if let word = only(core, nil) { tokens[k] = lead + word + trail }
            k += 1
        }
        return tokens.joined(separator: " ")
    }

    /// Whether `core` may have lost a ligature: letters in lower case the dictionary does not know.
    func isCandidate(_ core: String) -> Bool {
        !core.isEmpty && core.count <= 30 && core.allSatisfy { $0.isLetter && $0.isLowercase } && !words.contains(core)
    }

    /// The one word a ligature put into `core` (between `core` and `next` when given; else at any
    /// place of `core`) makes, or nil when none or several do.
    func only(_ core: String, _ next: String?) -> String? {
        var found: Set<String> = []
        if let next {
            for ligature in Self.ligatures where words.contains(core + ligature + next) { found.insert(core + ligature + next) }
        } else {
            let letters = Array(core)
            for cut in 0...letters.count {
                for ligature in Self.ligatures {
                    let word = String(letters[..<cut]) + ligature + String(letters[cut...])
                    if words.contains(word) { found.insert(word) }
                }
            }
        }
        return found.count == 1 ? found.first : nil
    }

    /// A token's punctuation before, its letters, and its punctuation after.
    static func parts(_ token: String) -> (lead: String, core: String, trail: String) {
        let lead = token.prefix { !$0.isLetter }
        let rest = token.dropFirst(lead.count)
        let core = rest.prefix { $0.isLetter }
        let trail = rest.dropFirst(core.count)
        // A token with letters after its punctuation (`don't`, `e.g.`) is no candidate.
        guard !trail.contains(where: \.isLetter) else { return (String(lead), "", String(rest)) }
        return (String(lead), String(core), String(trail))
    }

    /// A token's letters without the punctuation around them.
    static func core(_ token: Substring) -> String { parts(String(token)).core }
}
