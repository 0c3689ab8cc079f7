import Foundation

/// Answer text made comparable: Markdown marks and HTML tags taken off, case and accents folded,
/// punctuation dropped (but inside numbers), numbers written one way (`5.0` → `5`, `1,000` →
/// `1000`, `5km` → `5 km`), articles left out (English, French, German, Spanish), white space
/// collapsed.
public enum AnswerText {
    /// The words of `text`, normalised.
    public static func words(_ text: String) -> [String] {
        let plain = plainText(text).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out: [String] = []
        var current = ""
        var previous: Character = " "
        let scalars = Array(plain)
        for (k, c) in scalars.enumerated() {
            let next: Character = k + 1 < scalars.count ? scalars[k + 1] : " "
            if c.isLetter || c.isNumber {
                // A number and a unit written together are two words.
                if c.isLetter, !current.isEmpty, current.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }) {
                    out.append(current)
                    current = ""
                }
                current.append(c)
            } else if (c == "." || c == ","), previous.isNumber, next.isNumber {
                current.append(c)
            } else if c == "'" || c == "’", !current.isEmpty, next.isLetter, ["l", "d", "qu", "j", "n", "s", "c", "m", "t"].contains(current) {
                current = ""     // l'eau → eau, d'un → un (elision)
            } else if c == "%" {
                if !current.isEmpty { out.append(current) }
                current = ""
                out.append("%")
            } else if !current.isEmpty {
                out.append(current)
                current = ""
            }
            previous = c
        }
        if !current.isEmpty { out.append(current) }
        return out.map(number).filter { !articles.contains($0) }
    }

    /// The normalised text: its words joined by one space.
    public static func normalized(_ text: String) -> String { words(text).joined(separator: " ") }

    /// Articles left out of comparisons.
    static let articles: Set<String> = ["a", "an", "the", "le", "la", "les", "un", "une", "des", "der", "die", "das", "dem", "den",
                                        "ein", "eine", "einen", "el", "los", "las", "una", "unos", "unas"]

    /// A number written one way: thousands separators off, a decimal comma a point, trailing
    /// zeros of a fraction off.
    static func number(_ word: String) -> String {
        guard word.first?.isNumber == true, word.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }) else { return word }
        var w = word
        let commas = w.filter { $0 == "," }.count, points = w.filter { $0 == "." }.count
        if commas > 0, points == 0, commas == 1, let r = w.firstIndex(of: ","), w.distance(from: r, to: w.endIndex) != 4 {
            w = w.replacingOccurrences(of: ",", with: ".")      // 3,5 → 3.5
        } else {
            w = w.replacingOccurrences(of: ",", with: "")       // 1,000 → 1000
        }
        if w.contains(".") {
            while w.hasSuffix("0") { w.removeLast() }
            if w.hasSuffix(".") { w.removeLast() }
        }
        return w.isEmpty ? "0" : w
    }

    /// What Obsidian shows of a wikilink `[[content]]`: its label after `|`, else its target —
    /// `Note > Heading` for a heading of another note, the heading alone for one of this note.
    static func wikilinkText(_ content: String) -> String {
        if let bar = content.firstIndex(of: "|") {
            let label = content[content.index(after: bar)...].trimmingCharacters(in: .whitespaces)
            if !label.isEmpty { return label }
        }
        let target = content.prefix { $0 != "|" }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[1].isEmpty else { return parts.first ?? "" }
        return parts[0].isEmpty ? parts[1] : parts[0] + " > " + parts[1]
    }

    /// Markdown and HTML made plain: tags, emphasis, highlight and strike marks, link targets,
    /// images and Obsidian embeds off, wikilinks as Obsidian shows them; code spans kept as
    /// written (without their backticks).
    public static func plainText(_ markdown: String) -> String {
        var out = ""
        let chars = Array(markdown)
        var k = 0
        func next(_ offset: Int = 1) -> Character? { k + offset < chars.count ? chars[k + offset] : nil }
        func find(_ c: Character, from start: Int, within limit: Int = 2000) -> Int? {
            var j = start
            while j < chars.count, j < start + limit {
                if chars[j] == c { return j }
                j += 1
            }
            return nil
        }
        while k < chars.count {
            let c = chars[k]
            if c == "`", let end = find("`", from: k + 1) {
                out += String(chars[(k + 1)..<end])
                k = end + 1
            } else if c == "<", let n = next(), n.isLetter || n == "/" || n == "!", let end = find(">", from: k + 1, within: 200) {
                out.append(" ")
                k = end + 1
            } else if c == "!", next() == "[", next(2) == "[", let close = find("]", from: k + 3, within: 500), next(close - k + 1) == "]" {
                // An Obsidian embed (an image, a note): not text.
                k = close + 2
            } else if c == "[", next() == "[", let close = find("]", from: k + 2, within: 500), next(close - k + 1) == "]",
                      !chars[(k + 2)..<close].contains("[") {
                // A wikilink shows its label, or what it links to (`Note > Heading`, a heading alone).
                out += wikilinkText(String(chars[(k + 2)..<close]))
                k = close + 2
            } else if c == "!", next() == "[", let close = find("]", from: k + 2), close + 1 < chars.count, chars[close + 1] == "(",
                      let paren = find(")", from: close + 2) {
                k = paren + 1
            } else if c == "[", let close = find("]", from: k + 1), close + 1 < chars.count, chars[close + 1] == "(",
                      let paren = find(")", from: close + 2) {
                out += plainText(String(chars[(k + 1)..<close]))
                k = paren + 1
            } else if c == "*" || c == "~" && next() == "~" || c == "=" && next() == "=" {
                k += (c == "*" && next() != "*") ? 1 : 2
            } else if c == "_", (k == 0 || !chars[k - 1].isLetter || next().map { !$0.isLetter } ?? true) {
                k += 1
            } else {
                out.append(c)
                k += 1
            }
        }
        return out
    }
}
