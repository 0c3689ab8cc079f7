import QuireMarkdown
import QuireYAML

/// Generated cards written into a note. By default each card goes at the end of the section its
/// source sentence is in (before the next heading of any level, else at the file's end), so that
/// it is filed under the same heading path as its source; with `.cardsSection` (and always when a
/// card comes from another note: `--to`) at the end of the note's `## Cards` section, made at the
/// note's end when it has none. Each card is a paragraph of its own after a comment naming where
/// it came from. The rest of the file is kept byte for byte (its line endings used for new lines).
public enum CardInsertion {
    /// Where the cards go.
    public enum Placement: String, Sendable, CaseIterable {
        /// The end of the source sentence's section: the card keeps its heading path.
        case section
        /// The note's `## Cards` section.
        case cardsSection = "cards"
    }

    /// `bytes` with `cards` inserted (a card's `source` names the note it came from when that is
    /// another: `--to`; such a card goes under `## Cards` whatever `placement` says).
    public static func inserting(_ cards: [CardProposal], into bytes: [UInt8], placement: Placement = .section) -> [UInt8] {
        guard !cards.isEmpty else { return bytes }
        let crlf = bytes.firstIndex(of: 10).map { $0 > 0 && bytes[$0 - 1] == 13 } ?? false
        let eol = crlf ? "\r\n" : "\n"
        func block(_ cards: [CardProposal]) -> String {
            var block = ""
            for card in cards {
                let place = (card.source.map { $0 + " " } ?? "") + "line \(card.line)"
                block += "<!-- generated from \(place) (\(card.format.rawValue), \(card.rule)) -->" + eol + card.markdown + eol + eol
            }
            return block
        }
        let bodyStart = (try? FrontMatter(file: bytes))?.bodyRange.lowerBound ?? 0
        let document = MarkdownDocument(parsing: Array(bytes[bodyStart...]))
        // The body's first line in the file, and the file lines of the top-level headings.
        let firstLine = bytes[..<bodyStart].reduce(1) { $1 == 10 ? $0 + 1 : $0 }
        let headings = document.nodes.indices.filter { document.nodes[$0].kind == .heading && document.nodes[$0].parent == 0 }
        let headingLines = headings.map { document.nodes[$0].range.start.line + firstLine - 1 }

        // Each card's place: before a heading's file line, at the file's end, or under ## Cards.
        var inSections: [Int: [CardProposal]] = [:]
        var atFileEnd: [CardProposal] = []
        var underCards: [CardProposal] = []
        for card in cards {
            guard placement == .section, card.source == nil else { underCards.append(card); continue }
            if let line = headingLines.first(where: { $0 > card.line }) { inSections[line, default: []].append(card) } else { atFileEnd.append(card) }
        }
        var out = bytes
        var atEnd = ""
        if !underCards.isEmpty {
            // Where the Cards section ends: the next heading of level 1 or 2, else the file's end.
            var inCards = false, found = false
            var end: Int?
            for (index, line) in zip(headings, headingLines) {
                let node = document.nodes[index]
                if inCards, node.headingLevel <= 2 { end = line; break }
                if node.headingLevel == 2, document.plainText(of: index).trimmingSpaces().lowercased() == "cards" {
                    inCards = true
                    found = true
                }
            }
            if let end {
                inSections[end, default: []] += underCards
            } else {
                atEnd = (found ? "" : eol + "## Cards" + eol + eol) + block(underCards)
            }
        }
        if !atFileEnd.isEmpty { atEnd = block(atFileEnd) + atEnd }
        if !atEnd.isEmpty {
            if let last = out.last, last != 10 { out += Array(eol.utf8) }
            if !atEnd.hasPrefix(eol), !endsInBlankLine(out, before: out.count) { out += Array(eol.utf8) }
            out += Array(atEnd.dropLast(eol.count).utf8)
        }
        // Into the sections from the last up, so that the earlier lines' offsets still hold.
        for line in inSections.keys.sorted(by: >) {
            guard let offset = offset(ofLine: line, in: out), let placed = inSections[line] else { continue }
            let text = (endsInBlankLine(out, before: offset) ? "" : eol) + block(placed)
            out.insert(contentsOf: Array(text.utf8), at: offset)
        }
        return out
    }

    /// The byte offset where file line `line` (1-based) starts, nil past the end.
    static func offset(ofLine line: Int, in bytes: [UInt8]) -> Int? {
        var current = 1, offset = 0
        while current < line {
            guard let newline = bytes[offset...].firstIndex(of: 10) else { return nil }
            offset = newline + 1
            current += 1
        }
        return offset
    }

    /// Whether the bytes before `offset` end in an empty line (or are empty, or are the front
    /// matter's closing line): a new block may start there.
    static func endsInBlankLine(_ bytes: [UInt8], before offset: Int) -> Bool {
        var k = offset
        guard k > 0 else { return true }
        guard bytes[k - 1] == 10 else { return false }
        k -= 1
        if k > 0, bytes[k - 1] == 13 { k -= 1 }
        if k == 0 || bytes[k - 1] == 10 { return true }
        // A front matter's closing "---" line.
        let lineStart = bytes[..<k].lastIndex(of: 10).map { $0 + 1 } ?? 0
        return Array(bytes[lineStart..<k]) == Array("---".utf8) && lineStart > 0
    }
}
