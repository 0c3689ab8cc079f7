import QuireModel
import QuireYAML

/// The text a card was made from: for a generated card (a `<!-- generated from line N … -->`
/// comment on the line before it), the paragraph at that line; else the paragraphs of the card's
/// section before it that are no card (at most three, and about 120 words).
public enum CardContext {
    public static func context(of card: Card, in note: Note, bytes: [UInt8]) -> (line: Int?, text: String) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        let first = card.lines.lowerBound
        func paragraph(at line: Int) -> String {
            guard line >= 1, line <= lines.count else { return "" }
            var start = line, end = line
            while start > 1, !lines[start - 2].allSatisfy(\.isWhitespace) { start -= 1 }
            while end < lines.count, !lines[end].allSatisfy(\.isWhitespace) { end += 1 }
            return lines[(start - 1)..<end].joined(separator: "\n")
        }
        // A generated card names its source line (in this note: no other note's name before "line").
        if first >= 2, let comment = lines.indices.contains(first - 2) ? lines[first - 2] : nil,
           comment.hasPrefix("<!-- generated from line "),
           let n = Int(comment.dropFirst("<!-- generated from line ".count).prefix { $0.isNumber }), n < first {
            return (n, paragraph(at: n))
        }
        // Else the paragraphs before the card in its section.
        var out: [String] = []
        var line = min(first - 1, lines.count)
        var words = 0
        while line >= 1, out.count < 3, words < 120 {
            let text = lines[line - 1]
            if text.hasPrefix("#") || text.hasPrefix("---") { break }
            // Blank lines, comments and other cards are not the text a card was made from.
            if text.allSatisfy(\.isWhitespace) || text.hasPrefix("<!--") || note.cards.contains(where: { $0.lines.contains(line) }) { line -= 1; continue }
            let p = paragraph(at: line)
            out.insert(p, at: 0)
            words += p.split(separator: " ").count
            var start = line
            while start > 1, !lines[start - 2].allSatisfy(\.isWhitespace) { start -= 1 }
            line = start - 1
        }
        return (nil, out.joined(separator: "\n\n"))
    }
}
