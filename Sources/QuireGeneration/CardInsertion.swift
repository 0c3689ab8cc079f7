import QuireMarkdown
import QuireYAML

/// Generated cards written into a note: at the end of its `## Cards` section (made at the note's
/// end when it has none), each card a paragraph of its own after a comment naming where it came
/// from. The rest of the file is kept byte for byte (its line endings used for the new lines).
public enum CardInsertion {
    /// `bytes` with `cards` inserted (a card's `source` names the note it came from when that is
    /// another: `--to`).
    public static func inserting(_ cards: [CardProposal], into bytes: [UInt8]) -> [UInt8] {
        guard !cards.isEmpty else { return bytes }
        let crlf = bytes.firstIndex(of: 10).map { $0 > 0 && bytes[$0 - 1] == 13 } ?? false
        let eol = crlf ? "\r\n" : "\n"
        var block = ""
        for card in cards {
            let place = (card.source.map { $0 + " " } ?? "") + "line \(card.line)"
            block += "<!-- generated from \(place) (\(card.format.rawValue), \(card.rule)) -->" + eol + card.markdown + eol + eol
        }
        // Where the Cards section ends: the next heading of level 1 or 2, else the file's end.
        let bodyStart = (try? FrontMatter(file: bytes))?.bodyRange.lowerBound ?? 0
        let body = Array(bytes[bodyStart...])
        let document = MarkdownDocument(parsing: body)
        var inCards = false
        var end: Int?
        var found = false
        for index in document.nodes.indices where document.nodes[index].kind == .heading && document.nodes[index].parent == 0 {
            let node = document.nodes[index]
            if inCards, node.headingLevel <= 2 { end = node.range.start.line; break }
            if node.headingLevel == 2, document.plainText(of: index).trimmingSpaces().lowercased() == "cards" {
                inCards = true
                found = true
            }
        }
        var out = bytes
        if let line = end {
            // Before the next section's heading: the line's offset in the file.
            var offset = bodyStart, current = 1
            while current < line, offset < out.count {
                if out[offset] == 10 { current += 1 }
                offset += 1
            }
            out.insert(contentsOf: Array(block.utf8), at: offset)
            return out
        }
        if let last = out.last, last != 10 { out += Array(eol.utf8) }
        if !found {
            out += Array((eol + "## Cards" + eol + eol).utf8)
        } else if out.count >= 2, !(out[out.count - 2] == 10 || (crlf && out.count >= 4 && out[out.count - 3] == 10)) {
            out += Array(eol.utf8)
        }
        out += Array(block.dropLast(eol.count).utf8)
        return out
    }
}
