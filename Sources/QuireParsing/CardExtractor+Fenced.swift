import QuireMarkdown
import QuireModel

/// The word a fenced code block's info string starts with when the block is a side of a fenced
/// card (FORMAT.md §3.10).
enum FenceWord: String, CaseIterable {
    case question, answer, term, definition, front, back, cloze

    /// The word of the block that must follow this one, for a card's first side.
    var closer: FenceWord? {
        switch self {
        case .question: .answer
        case .term: .definition
        case .front: .back
        default: nil
        }
    }

    /// The word of the block that must come before this one, for a card's second side.
    var opener: FenceWord? {
        switch self {
        case .answer: .question
        case .definition: .term
        case .back: .front
        default: nil
        }
    }

    /// The kind of the cards a block of this word starts (or ends).
    var kind: CardKind {
        switch self {
        case .question, .answer: .basic
        case .term, .definition: .definition
        case .front, .back: .reversed
        case .cloze: .cloze
        }
    }

    /// The words of a card of `kind`, in order.
    static func words(for kind: CardKind) -> [FenceWord] {
        switch kind {
        case .basic: [.question, .answer]
        case .definition: [.term, .definition]
        case .reversed: [.front, .back]
        case .cloze: [.cloze]
        }
    }

    /// The card word and what follows it in a code block's info string (`question ^id`), or nil
    /// when the info string does not start with one (ASCII case ignored).
    static func parse(_ info: String?) -> (word: FenceWord, rest: Substring)? {
        guard let info, !info.isEmpty else { return nil }
        let trimmed = info.drop { $0 == " " || $0 == "\t" }
        let first = trimmed.prefix { $0 != " " && $0 != "\t" }
        guard first.utf8.count <= 10, let word = FenceWord(rawValue: first.lowercased()) else { return nil }
        return (word, trimmed.dropFirst(first.count).drop { $0 == " " || $0 == "\t" })
    }
}

extension CardExtractor {
    /// Whether a code block is a side of a fenced card (never taken into another card's answer).
    static func isCardFence(_ node: MarkdownNode) -> Bool {
        node.kind == .codeBlock && FenceWord.parse(node.fenceInfo) != nil
    }

    /// Reads a fenced card at the code block `index` (FORMAT.md §3.10): a ```` ```question ````
    /// block and the ```` ```answer ```` block right after it (`term`/`definition`,
    /// `front`/`back`), or one ```` ```cloze ```` block. A side is the block's text, as it is: any
    /// Markdown, blank lines included, and it may be empty.
    mutating func fencedCard(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) {
        guard let (word, rest) = FenceWord.parse(node.fenceInfo) else { return }
        if consumedFence == index {
            consumedFence = nil
            return
        }
        closePendingQuestion()
        let line = node.range.start.line, column = node.range.start.column
        var explicitID: CardID?
        if !rest.isEmpty {
            if rest.first == "^", let id = CardID(String(rest.dropFirst())), !id.rawValue.utf8.contains(UInt8(ascii: "_")) {
                explicitID = id
            } else {
                warn(line: line, column: column,
                     "'\(String(rest.prefix(40)))' after '\(word.rawValue)' is not a card ID ('^id'); ignored")
            }
        }
        if let opener = word.opener {
            warn(line: line, column: column,
                 "a ```\(word.rawValue) block with no ```\(opener.rawValue) block right before it; no card made")
            return
        }
        let front = Self.fenceText(node)
        guard let closer = word.closer else {
            fencedCloze(front, node: node, explicitID: explicitID)
            return
        }
        let next = index + 1
        guard next < document.nodes.count, document.nodes[next].parent == node.parent,
              document.nodes[next].kind == .codeBlock, FenceWord.parse(document.nodes[next].fenceInfo)?.word == closer else {
            warn(line: line, column: column,
                 "a ```\(word.rawValue) block needs a ```\(closer.rawValue) block right after it; no card made")
            return
        }
        consumedFence = next
        let second = document.nodes[next]
        if let rest = FenceWord.parse(second.fenceInfo)?.rest, !rest.isEmpty {
            warn(line: second.range.start.line, column: second.range.start.column,
                 "'\(String(rest.prefix(40)))' after '\(closer.rawValue)' is ignored (a card's ID goes after '\(word.rawValue)')")
        }
        let back = Self.fenceText(second)
        let lines = line...max(line, second.range.end.line, second.range.start.line)
        switch word.kind {
        case .reversed:
            emitReversed(left: front, right: back, lines: lines, column: column, explicitID: explicitID)
        case let kind:
            emit(makeCard(kind: kind, variant: .single, front: front, back: back, lines: lines, column: column,
                          identityText: "", explicitID: explicitID))
        }
    }

    /// A ```` ```cloze ```` block's cards: its text is one cloze group (FORMAT.md §3.4), whose
    /// deletions are found anywhere in it, code included, as Anki finds them in a field.
    private mutating func fencedCloze(_ text: String, node: MarkdownNode, explicitID: CardID?) {
        var paragraph = ParagraphText()
        let firstLine = node.range.start.line + 1
        paragraph.load(text: Array(text.utf8), firstLine: firstLine, column: node.range.start.column)
        let cards = scan.cards.count, problems = scan.diagnostics.count
        clozeGroup(paragraph, lines: 0..<paragraph.lineCount,
                   fenced: (explicitID, node.range.start.line...max(node.range.start.line, node.range.end.line),
                            node.range.start.column))
        if scan.cards.count == cards, scan.diagnostics.count == problems {
            warn(line: node.range.start.line, column: node.range.start.column, Self.clozeBlockWithoutDeletion)
        }
    }

    /// The warning for a ```` ```cloze ```` block that makes no card.
    static let clozeBlockWithoutDeletion = "a ```cloze block with no deletion ('{{c1::…}}' or '==…=='); no card made"

    /// A fenced block's text as a card side: its content without the line break that ends it, CRs
    /// before line feeds dropped, and blank lines and spaces around it trimmed.
    static func fenceText(_ node: MarkdownNode) -> String {
        guard let literal = node.literal else { return "" }
        let bytes = Array(literal.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (i, b) in bytes.enumerated() where !(b == 13 && i + 1 < bytes.count && bytes[i + 1] == 10) {
            out.append(b == 13 ? 10 : b)
        }
        return String(decoding: out[trimmed(out, 0..<out.count)], as: UTF8.self)
    }
}
