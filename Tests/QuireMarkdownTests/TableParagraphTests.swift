import Testing
@testable import QuireMarkdown

/// A paragraph followed by a GFM table with no blank line between: cmark-gfm 0.29 reports the
/// paragraph at 0:0, starts the table on the paragraph's first line and places the header cells by
/// their offset in the paragraph's text. The converter recovers the true positions.
@Suite struct TableParagraphTests {
    static let documents = [
        "Q: What is X?\nA: Y\n| a | b |\n|---|---|\n",
        "term :: definition\n| a | b |\n|---|---|\n| c | d |\n",
        "Intro\n\n> Q: What is X?\n> A: Y\n> | a | b |  \n> |---|---|\n\nafter\n",
        "- Q: x\n  A: `y` and *z*\n  | a | `b` |\n  |:--|--:|\n  | 1 | 2 |\n\n- next\n",
        "Q: What is X?\r\nA: Y\r\n| a | b |\r\n|---|---|\r\n",
        "one\ntwo\nthree\n| h |\n| - |\n| r1 |\n| r2 |\n\nQ: later?\nA: yes\n",
    ]

    @Test(arguments: documents, [MarkdownParseOptions.default, .default.union(.bareProseParagraphs)])
    func paragraphAndTableHaveTheirTrueLines(_ text: String, options: MarkdownParseOptions) throws {
        let source = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" }))
        let document = MarkdownDocument(parsing: text, options: options)
        let tables = document.indices(of: .table)
        #expect(!tables.isEmpty)
        for table in tables {
            let node = document.nodes[table]
            // The table starts on its header row: the line before the delimiter row.
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            let delimiter = try #require(lines.firstIndex { $0.hasSuffix("-|") || $0.hasSuffix("| - |") || $0.hasSuffix(":|") })
            #expect(node.range.start.line == delimiter, "table starts at \(node.range)")
            // The paragraph before it ends on the line above the header.
            var previous: Int?
            if let parent = node.parent {
                var child = document.nodes[parent].firstChild
                while let current = child, current != table {
                    previous = current
                    child = document.nodes[current].nextSibling
                }
            }
            let paragraph = try #require(previous)
            #expect(document.nodes[paragraph].kind == .paragraph)
            #expect(document.nodes[paragraph].range.start.line >= 1)
            #expect(document.nodes[paragraph].range.end.line == delimiter - 1)
        }
        // Every text and code node covers its own bytes, in the paragraph and in the table.
        for node in document.nodes where node.kind == .text || node.kind == .code {
            let literal = try #require(node.literal)
            let covered = slice(source, node.range)
            if node.kind == .code {
                #expect(covered == "`" + literal + "`", "\(node.range) covers \(covered.debugDescription)")
            } else {
                #expect(covered == literal, "\(node.range) covers \(covered.debugDescription), not \(literal.debugDescription)")
            }
        }
        for node in document.nodes where node.kind == .tableRow {
            #expect(node.range.start.line == node.range.end.line)
            #expect(slice(source, node.range).first == "|")
        }
    }
}
