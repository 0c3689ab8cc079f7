@testable import QuireParsing
import Testing
import QuireModel
@testable import QuireTestSupport

/// Random documents that mix every block kind with card lines and blank lines (FORMAT.md §3.7):
/// no card may be lost in silence.
@Suite struct GeneratedDocumentTests {
    /// A document being generated, with what it must yield.
    private struct Document {
        var lines: [String] = []
        /// Lines (1-based) that hold card syntax outside code and HTML, with the file lines of
        /// the block they sit in.
        var markerLines: [(line: Int, block: ClosedRange<Int>)] = []
        /// How many cards the document must make (strict documents only).
        var expectedCards = 0

        mutating func add(_ line: String) { lines.append(line) }
        var text: String { lines.joined(separator: "\n") + "\n" }
    }

    /// One card unit of a strict paragraph: its lines and its number of cards.
    private static func unit(_ kind: Int, _ n: Int, rng: inout SeededGenerator) -> (lines: [String], cards: Int) {
        switch kind {
        case 0: return (["term\(n) :: definition \(n)"], 1)
        case 1: return (["left\(n) ::: right \(n)"], 2)
        case 2: return (["What is \(n)? :: \(n)"], 1)
        case 3:
            let count = Int.random(in: 1...3, using: &rng)
            let deletions = (1...count).map { "{{c\($0)::part\($0)}}" }.joined(separator: " and ")
            return (["Cloze \(n): \(deletions)."], count)
        case 4: return (["The ==highlight\(n)== and ==other\(n)== words."], 2)
        case 5: return (["Q: Question \(n)?", "A: Answer \(n)"], 1)
        default: return (["**Q:** Bold \(n)?", "**A:** Bold answer \(n)"], 1)
        }
    }

    /// Blocks that hold card syntax but are never cards.
    private static let inertBlocks: [[String]] = [
        ["```", "code :: inside", "Q: not", "A: a card", "{{c1::x}}", "```"],
        ["<div>", "html :: block", "</div>"],
        ["<!--", "comment :: block", "-->"],
        ["    indented :: code", "    Q: x"],
        ["---"],
        ["## A heading"],
        ["| plain | table |", "| --- | --- |", "| `a :: b` | c |"],
    ]

    /// A strict document: paragraphs of well-formed card lines in random order and containers,
    /// between inert blocks. Every card line must make its cards, and the total is known.
    private static func strictDocument(seed: UInt64) -> Document {
        var rng = SeededGenerator(seed: seed)
        var doc = Document()
        var n = 0
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            // A container prefix: none, a block quote, or a list item.
            let container = Int.random(in: 0...2, using: &rng)
            var paragraph: [String] = []
            var previous = -1
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                var kind = Int.random(in: 0...6, using: &rng)
                // Lines after a Q/A answer belong to it unless they are a card line of their own;
                // two cloze lines next to each other are one group.
                if (previous == 5 || previous == 6), kind == 3 || kind == 4 { kind = 0 }
                if (previous == 3 || previous == 4), kind == 3 || kind == 4 { kind = 2 }
                n += 1
                let made = unit(kind, n, rng: &rng)
                paragraph += made.lines
                doc.expectedCards += made.cards
                previous = kind
            }
            let first = doc.lines.count + 1
            for (i, line) in paragraph.enumerated() {
                switch container {
                case 1: doc.add("> " + line)
                case 2: doc.add((i == 0 ? "- " : "  ") + line)
                default: doc.add(line)
                }
            }
            let block = first...doc.lines.count
            for line in block { doc.markerLines.append((line, block)) }
            // A table right after the paragraph (no blank line) or an inert block after a blank line.
            if container == 0, Bool.random(using: &rng) {
                doc.add("| a | b |")
                doc.add("|---|---|")
            }
            doc.add("")
            // (After a list item, an indented block is the item's, not code.)
            var inert = Int.random(in: 0..<inertBlocks.count, using: &rng)
            if container == 2, inert == 3 { inert = 0 }
            for line in inertBlocks[inert] { doc.add(line) }
            doc.add("")
        }
        return doc
    }

    @Test func everyCardLineOfAStrictDocumentMakesItsCards() {
        for seed in UInt64(1)...400 {
            let doc = Self.strictDocument(seed: seed)
            let (note, diagnostics) = parse(doc.text)
            guard let note else {
                Issue.record("seed \(seed): no note")
                continue
            }
            #expect(note.cards.count == doc.expectedCards, "seed \(seed):\n\(doc.text)\n\(note.cards.map(\.front))")
            #expect(diagnostics.filter { $0.severity != .note }.isEmpty, "seed \(seed): \(printed(diagnostics))")
            for marker in doc.markerLines where !note.cards.contains(where: { $0.lines.contains(marker.line) }) {
                Issue.record("seed \(seed): line \(marker.line) made no card:\n\(doc.text)")
            }
        }
    }

    /// Lines of any kind, well-formed or not.
    private static let looseLines = [
        "Q: A question?", "A: An answer", "**Q:** Bold?", "**A**: bold", "?", "??", "term :: def", "a ::: b",
        ":: no left", "no right ::", "The {{c1::cloze}} line", "A ==highlight== line", "{{c1::}} empty",
        "{{c2::unclosed", "Plain prose line.", "More prose: with a colon", "What? :: That",
        "x :: y <!--SR:!2021-08-11,4,270-->", "term :: def ^card-id",
    ]

    /// Loose documents: random lines, blocks and blank lines. Every line with card syntax outside
    /// code and HTML is part of a card or has a diagnostic in its block.
    @Test func everyCardLineOfALooseDocumentIsACardOrAWarning() {
        for seed in UInt64(1)...600 {
            var rng = SeededGenerator(seed: seed &* 7919)
            var doc = Document()
            for _ in 0..<Int.random(in: 1...10, using: &rng) {
                let first = doc.lines.count + 1
                var markers: [Int] = []
                let quoted = Int.random(in: 0...3, using: &rng) == 0
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let line = Self.looseLines[Int.random(in: 0..<Self.looseLines.count, using: &rng)]
                    doc.add((quoted ? "> " : "") + line)
                    if !line.hasPrefix("Plain"), !line.hasPrefix("More prose") { markers.append(doc.lines.count) }
                }
                // Blocks that may follow directly, or after a blank line.
                switch Int.random(in: 0...5, using: &rng) {
                case 0: doc.add("```"); doc.add("code :: x"); doc.add(""); doc.add("```")
                case 1: doc.add("- item :: one"); markers.append(doc.lines.count)
                case 2: doc.add("| a | b |"); doc.add("|---|---|")
                case 3: doc.add(""); doc.add("<!--SR:!2021-08-11,4,270-->")
                default: break
                }
                let block = first...doc.lines.count
                for line in markers { doc.markerLines.append((line, block)) }
                doc.add("")
                if Bool.random(using: &rng) {
                    for line in Self.inertBlocks[Int.random(in: 0..<Self.inertBlocks.count, using: &rng)] { doc.add(line) }
                    doc.add("")
                }
            }
            let (note, diagnostics) = parse(doc.text)
            let cards = note?.cards ?? []
            for marker in doc.markerLines {
                let inCard = cards.contains { $0.lines.contains(marker.line) }
                let reported = diagnostics.contains { d in
                    guard let line = d.line else { return false }
                    return marker.block.contains(line)
                }
                if !inCard, !reported {
                    Issue.record("seed \(seed): line \(marker.line) is neither a card nor reported:\n\(doc.text)\n\(printed(diagnostics))")
                    break
                }
            }
        }
    }
}
