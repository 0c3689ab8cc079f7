import QuireMarkdown
import QuireModel
import QuireSupport
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
