import QuireArchive
import QuireMarkdown
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling
import QuireSupport
import QuireSystem
import QuireYAML
import QuireVault

/// A field's Markdown read as plain text: titles, file names, where blocks start.
extension AnkiImport {
    /// Whether a line starts a block other than a paragraph: a list item, a quote, a table row,
    /// indented code, a heading or a rule.
    static func isBlockStart(_ line: Substring) -> Bool {
        if line.hasPrefix("    ") || line.hasPrefix("\t") { return true }
        let t = line.drop { $0 == " " }
        if t.hasPrefix("- ") || t.hasPrefix("* ") || t.hasPrefix("+ ") || t.hasPrefix(">") || t.hasPrefix("|") || t.hasPrefix("#") { return true }
        if t == "---" || t == "***" { return true }
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && digits.count <= 9 && (t.dropFirst(digits.count).hasPrefix(". ") || t.dropFirst(digits.count).hasPrefix(") "))
    }

    /// A note's title from its fields, in order: the first with words as ``plainTitle(_:)`` reads
    /// it, else the name of the first file one links (a picture, a sound), else "Note".
    static func title(of fields: [String]) -> String {
        for field in fields {
            let words = withoutMediaLinks(field)
            let title = plainTitle(words)
            if title != "Note" || plainText(words).trimmingSpaces() == "Note" { return title }
        }
        for field in fields {
            guard let open = field.range(ofLiteral: "]("), let close = field[open.upperBound...].firstIndex(of: ")") else { continue }
            var target = field[open.upperBound..<close]
            if target.hasPrefix("<"), target.hasSuffix(">") { target = target.dropFirst().dropLast() }
            var name = target.split(separator: "/").last.map(String.init) ?? ""
            if let dot = name.lastIndex(of: "."), dot > name.startIndex { name = String(name[..<dot]) }
            name = name.replacing("_", with: " ").trimmingSpaces()
            if !name.isEmpty { return String(name.prefix(120)) }
        }
        return "Note"
    }

    /// `markdown` without its links to a sound, video or picture (`[listen](<assets/a.mp3>)`):
    /// their labels are no words of the note.
    static func withoutMediaLinks(_ markdown: String) -> String {
        var out = ""
        var rest = markdown[...]
        while let open = rest.firstIndex(of: "["), let middle = rest[open...].range(ofLiteral: "]("),
              let close = rest[middle.upperBound...].firstIndex(of: ")") {
            var target = rest[middle.upperBound..<close]
            if target.hasPrefix("<"), target.hasSuffix(">") { target = target.dropFirst().dropLast() }
            let ext = target.split(separator: ".").last.map { $0.lowercased() } ?? ""
            out += rest[..<open]
            if !Vault.openableExtensions.contains(ext) { out += rest[open...close] } else if out.hasSuffix("!") { out.removeLast() }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// A note's title from its first field: its text without Markdown marks or cloze syntax, on
    /// one line.
    static func plainTitle(_ markdown: String) -> String {
        for line in markdown.split(whereSeparator: { $0 == "\n" }) {
            let text = plainText(String(line))
            if !text.isEmpty { return String(text.prefix(120)) }
        }
        return "Note"
    }

    /// One line of Markdown as plain text: cloze deletions as their answers, images dropped, links
    /// as their text, math as Unicode (`$\mathbb{C}$` → `ℂ`) or its source without commands,
    /// LaTeX commands dropped (`\textit{word}` → `word`), no markup characters.
    static func plainText(_ markdown: String) -> String {
        var line = markdown
        // `{{c1::answer::hint}}` reads as its answer.
        while let open = line.range(ofLiteral: "{{c"), let sep = line[open.upperBound...].range(ofLiteral: "::"),
              line[open.upperBound..<sep.lowerBound].allSatisfy(\.isNumber),
              let close = line[sep.upperBound...].range(ofLiteral: "}}") {
            let inner = line[sep.upperBound..<close.lowerBound]
            let answer = inner.range(ofLiteral: "::").map { inner[..<$0.lowerBound] } ?? inner
            line.replaceSubrange(open.lowerBound..<close.upperBound, with: answer)
        }
        // Images go; a link keeps its text.
        while let open = line.range(ofLiteral: "!["), let mid = line[open.upperBound...].range(ofLiteral: "]("),
              let close = line[mid.upperBound...].firstIndex(of: ")") {
            line.replaceSubrange(open.lowerBound...close, with: "")
        }
        while let open = line.firstIndex(of: "["), let mid = line[open...].range(ofLiteral: "]("),
              let close = line[mid.upperBound...].firstIndex(of: ")") {
            line.replaceSubrange(open...close, with: line[line.index(after: open)..<mid.lowerBound])
        }
        // Math as Unicode where it renders.
        var out = ""
        var rest = Substring(line)
        while let open = rest.firstIndex(of: "$") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            let display = after.hasPrefix("$")
            let body = display ? after.dropFirst() : after
            guard let close = body.range(ofLiteral: display ? "$$" : "$") else {
                rest = after
                continue
            }
            let tex = String(body[..<close.lowerBound])
            out += TeXUnicode.render(tex) ?? tex
            rest = body[close.upperBound...]
        }
        out += rest
        // LaTeX commands outside math: the command goes, its argument stays.
        var cleaned = ""
        var scalars = Substring(out).unicodeScalars[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            if c == "\\", let next = scalars.first, next.properties.isAlphabetic {
                scalars = scalars.drop { $0.properties.isAlphabetic }
                continue
            }
            cleaned.unicodeScalars.append(c)
        }
        let kept = cleaned.unicodeScalars.filter { !"*_`[]()!#<>\\$~{}^|".unicodeScalars.contains($0) && $0.value >= 0x20 }
        return String(String.UnicodeScalarView(kept)).split(separator: " ").joined(separator: " ")
    }

    /// A media file's name as Quire writes it: the name's last part, without control characters,
    /// `/` or `\`, not hidden; nil when nothing is left.
    static func mediaFileName(_ name: String) -> String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var kept = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
        while kept.hasPrefix(".") { kept.removeFirst() }
        kept = kept.trimmingSpaces()
        // A long name keeps its extension within the bytes a file name may have.
        if kept.utf8.count > NoteCreation.maximumNameBytes {
            let dot = kept.lastIndex(of: ".").map { String(kept[$0...]) } ?? ""
            let ext = dot.utf8.count <= 16 ? dot : ""
            kept = NoteCreation.prefix(kept, bytes: NoteCreation.maximumNameBytes - ext.utf8.count) + ext
        }
        return kept.isEmpty ? nil : kept
    }
}
