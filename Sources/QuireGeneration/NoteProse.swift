import QuireMarkdown
import QuireModel
import QuireYAML

/// A sentence of a note's prose, as card generation reads it.
public struct SourceSentence: Sendable, Equatable {
    /// The sentence as plain text (markup dropped, line breaks as spaces).
    public var text: String
    /// The file line the sentence starts on (1-based, front matter counted).
    public var line: Int
    /// The headings above it, outermost first.
    public var headingPath: [String]
    /// The emphasised (bold or italic) spans in it, as text.
    public var emphasis: [String]
    /// Its paragraph (an index shared by the sentences of one block) and its place there (from 0).
    public var block: Int
    public var position: Int
    /// Whether the block is a list item, and the list items that follow a block ending in `:`.
    public var isListItem: Bool
    public var followingItems: [String] = []
}

/// The prose of a note split into sentences: paragraphs and list items outside cards, code,
/// HTML and tables. Pure and linear in the note's size.
public enum NoteProse {
    public static func sentences(of note: Note, bytes: [UInt8]) -> [SourceSentence] {
        let (body, firstLine) = FrontMatter.body(of: bytes)
        let document = MarkdownDocument(parsing: Array(body))
        let cardLines = note.cards.map(\.lines)
        var out: [SourceSentence] = []
        var headings: [(level: Int, text: String)] = []
        var block = 0
        var index = 1
        while index < document.nodes.count {
            let node = document.nodes[index]
            switch node.kind {
            case .heading:
                let text = collapse(document.plainText(of: index))
                while let last = headings.last, last.level >= node.headingLevel { headings.removeLast() }
                headings.append((node.headingLevel, text))
                index = node.subtreeEnd
            case .codeBlock, .htmlBlock, .table, .footnoteDefinition:
                index = node.subtreeEnd
            case .paragraph:
                let start = node.range.start.line + firstLine - 1, end = node.range.end.line + firstLine - 1
                if cardLines.contains(where: { $0.overlaps(start...max(start, end)) }) {
                    index = node.subtreeEnd
                    continue
                }
                let inItem = node.parent.map { document.nodes[$0].kind == .item } ?? false
                var emphasis: [String] = []
                var k = index + 1
                while k < node.subtreeEnd {
                    if document.nodes[k].kind == .strong || document.nodes[k].kind == .emphasis {
                        let term = collapse(document.plainText(of: k))
                        if !term.isEmpty, !emphasis.contains(term) { emphasis.append(term) }
                        k = document.nodes[k].subtreeEnd
                    } else {
                        k += 1
                    }
                }
                let plain = Self.withoutAttributeLists(document.plainText(of: index))
                // The items of a list right after a paragraph that ends in `:`.
                var items: [String] = []
                if plain.trimmingSpaces().hasSuffix(":"), let next = node.nextSibling, document.nodes[next].kind == .list {
                    for item in document.children(of: next) { items.append(collapse(document.plainText(of: item))) }
                }
                var position = 0
                // Line breaks before each sentence, counted as the sentences come (in order).
                let utf8 = Array(plain.utf8)
                var scanned = 0, linesBefore = 0
                for (offset, raw) in SentenceSplitter.split(plain) {
                    while scanned < min(offset, utf8.count) {
                        if utf8[scanned] == 10 { linesBefore += 1 }
                        scanned += 1
                    }
                    let sentence = Self.withoutCitations(raw)
                    guard !sentence.isEmpty else { continue }
                    let item = SourceSentence(text: sentence, line: start + linesBefore, headingPath: headings.map(\.text), emphasis: emphasis.filter { sentence.contains($0) },
                                              block: block, position: position, isListItem: inItem, followingItems: [])
                    out.append(item)
                    position += 1
                }
                if !items.isEmpty, position > 0 { out[out.count - 1].followingItems = items }
                block += 1
                index = node.subtreeEnd
            default:
                index += 1
            }
        }
        return out
    }

    /// Text without kramdown's attribute lists (`**scarcity**{: data-type="term"}`, as textbooks
    /// converted to Markdown carry them): markup, not words. Each runs to its `}` on its line.
    static func withoutAttributeLists(_ text: String) -> String {
        guard text.contains("{:") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{:") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.prefix(300).firstIndex(where: { $0 == "}" || $0 == "\n" }), after[close] == "}" else {
                out += "{:"
                rest = after
                continue
            }
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }

    /// A sentence without its parenthetical references to the literature (`(Fogel & Smith, 2011;
    /// Poe, 2010)`, `(Halász, 1993)`), which no card should ask about.
    static func withoutCitations(_ sentence: String) -> String {
        var out = ""
        var rest = Substring(sentence)
        while let open = rest.firstIndex(of: "(") {
            guard let close = rest[open...].firstIndex(of: ")") else { break }
            let inside = rest[rest.index(after: open)..<close]
            let hasYear = inside.split(whereSeparator: { !$0.isNumber }).contains { $0.count == 4 && ($0.hasPrefix("1") || $0.hasPrefix("2")) }
            if hasYear, inside.contains(",") || inside.contains("&") || inside.contains("et al") {
                var head = rest[..<open]
                while head.last == " " { head = head.dropLast() }
                out += head
                rest = rest[rest.index(after: close)...]
            } else {
                out += rest[...close]
                rest = rest[rest.index(after: close)...]
            }
        }
        return out + rest
    }

    /// Text on one line: runs of white space made one space, trimmed.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension String {
    /// Without spaces, tabs and line breaks at either end.
    func trimmingSpaces() -> String { String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
}

/// Splits prose into sentences: after `.`, `?` or `!` (maybe before a closing quote or bracket)
/// followed by a space and an upper-case letter, a digit or a quote — except after a common
/// abbreviation (e.g., Dr., U.S.), an initial or inside a number.
public enum SentenceSplitter {
    static let abbreviations: Set<String> = [
        "e.g", "i.e", "etc", "vs", "cf", "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "no", "fig", "figs", "vol", "ch",
        "sec", "approx", "ca", "u.s", "u.k", "a.m", "p.m", "inc", "ltd", "co", "mt", "gen", "col", "lt", "sgt", "rev", "est",
    ]

    /// The sentences of `text` with the offset (in UTF-8 bytes) each starts at; each on one line.
    public static func split(_ text: String) -> [(offset: Int, sentence: String)] {
        let scalars = Array(text.unicodeScalars)
        var out: [(Int, String)] = []
        var start = 0
        var k = 0
        // The UTF-8 offset of `start`, kept as it moves (never counted from the text's start again).
        var startOffset = 0
        func emit(_ end: Int) {
            let piece = String(String.UnicodeScalarView(scalars[start..<end]))
            let sentence = NoteProse.collapse(piece)
            if !sentence.isEmpty {
                let lead = scalars[start..<end].prefix { $0.properties.isWhitespace }
                out.append((startOffset + lead.reduce(0) { $0 + UTF8.width($1) }, sentence))
            }
            startOffset += scalars[start..<end].reduce(0) { $0 + UTF8.width($1) }
            start = end
        }
        while k < scalars.count {
            let c = scalars[k]
            if c == "." || c == "?" || c == "!" {
                var end = k + 1
                while end < scalars.count, "\"'”’)]".unicodeScalars.contains(scalars[end]) { end += 1 }
                guard end < scalars.count, scalars[end].properties.isWhitespace else { k += 1; continue }
                var next = end
                while next < scalars.count, scalars[next].properties.isWhitespace { next += 1 }
                guard next < scalars.count else { k += 1; continue }
                let n = scalars[next]
                let startsSentence = n.properties.isUppercase || ("0"..."9").contains(n) || "\"“'‘(".unicodeScalars.contains(n)
                if c == ".", !startsSentence || isAbbreviation(scalars, before: k) { k += 1; continue }
                if !startsSentence { k += 1; continue }
                emit(end)
                k = end
            } else {
                k += 1
            }
        }
        emit(scalars.count)
        return out
    }

    /// Whether the word before the full stop at `dot` is an abbreviation or an initial.
    static func isAbbreviation(_ scalars: [Unicode.Scalar], before dot: Int) -> Bool {
        var begin = dot
        while begin > 0, !scalars[begin - 1].properties.isWhitespace, scalars[begin - 1] != "(" { begin -= 1 }
        let word = String(String.UnicodeScalarView(scalars[begin..<dot])).lowercased()
        if abbreviations.contains(word) { return true }
        // A single capital letter (an initial: J. Smith), or letters with dots (U.S.A).
        let letters = word.filter(\.isLetter)
        return (letters.count == 1 && scalars[begin].properties.isUppercase) || (word.contains(".") && letters.count <= 4)
    }
}
