import Testing
@testable import QuireMarkdown

/// A realistic note body exercising every common node kind.
let realisticNote = """
# Cell biology

The *cell* is the **basic** unit of life; see [docs](https://e.org "Docs").
Mitochondria :: the `powerhouse` of the cell <!-- card -->

- ATP :: adenosine triphosphate
- [x] reviewed
  1. first
  2. second

> Q: What is `DNA`?
> A: Deoxyribonucleic ~~acid~~ acid.

```python
print("hi")
```

| Term | Meaning |
|:-----|--------:|
| `ribosome` | makes proteins |

***

<div>
raw
</div>

Line one\\
hard break and ![img](a.png) and a note[^n].

[^n]: A footnote.
"""

@Suite struct MarkdownDocumentTests {
    @Test func realisticNoteHasEveryKindWithExactRanges() {
        let document = MarkdownDocument(parsing: realisticNote)
        #expect(document.outline == """
document 1:1-31:17
  heading 1:1-1:14
    text 1:3-1:14 "Cell biology"
  paragraph 3:1-4:58
    text 3:1-3:4 "The "
    emphasis 3:5-3:10
      text 3:6-3:9 "cell"
    text 3:11-3:18 " is the "
    strong 3:19-3:27
      text 3:21-3:25 "basic"
    text 3:28-3:46 " unit of life; see "
    link 3:47-3:74
      text 3:48-3:51 "docs"
    text 3:75-3:75 "."
    softBreak 3:76-3:76
    text 4:1-4:20 "Mitochondria :: the "
    code 4:21-4:32 "powerhouse"
    text 4:33-4:45 " of the cell "
    htmlInline 4:46-4:58 "<!-- card -->"
  list 6:1-9:11
    item 6:1-6:31
      paragraph 6:3-6:31
        text 6:3-6:31 "ATP :: adenosine triphosphate"
    item 7:1-9:11
      paragraph 7:7-7:14
        text 7:7-7:14 "reviewed"
      list 8:3-9:11
        item 8:3-8:10
          paragraph 8:6-8:10
            text 8:6-8:10 "first"
        item 9:3-9:11
          paragraph 9:6-9:11
            text 9:6-9:11 "second"
  blockQuote 11:1-12:36
    paragraph 11:3-12:36
      text 11:3-11:13 "Q: What is "
      code 11:14-11:18 "DNA"
      text 11:19-11:19 "?"
      softBreak 11:20-11:20
      text 12:3-12:22 "A: Deoxyribonucleic "
      strikethrough 12:23-12:30
        text 12:25-12:28 "acid"
      text 12:31-12:36 " acid."
  codeBlock 14:1-16:3 "print("hi")\\n"
  table 18:1-20:31
    tableRow 18:1-18:18
      tableCell 18:2-18:7
        text 18:3-18:6 "Term"
      tableCell 18:9-18:17
        text 18:10-18:16 "Meaning"
    tableRow 20:1-20:31
      tableCell 20:2-20:13
        code 20:3-20:12 "ribosome"
      tableCell 20:15-20:30
        text 20:16-20:29 "makes proteins"
  thematicBreak 22:1-22:3
  htmlBlock 24:1-26:6 "<div>\\nraw\\n</div>\\n"
  paragraph 28:1-29:44
    text 28:1-28:8 "Line one"
    lineBreak 28:10-28:10
    text 29:1-29:15 "hard break and "
    image 29:16-29:28
      text 29:18-29:20 "img"
    text 29:29-29:39 " and a note"
    footnoteReference 29:40-29:43 "1"
    text 29:44-29:44 "."
  footnoteDefinition 31:7-31:17
    paragraph 31:7-31:17
      text 31:7-31:17 "A footnote."
""")
    }

    @Test func attributesAreCopied() {
        let document = MarkdownDocument(parsing: realisticNote)
        #expect(document.first(.heading)?.headingLevel == 1)
        let link = document.first(.link)
        #expect(link?.url == "https://e.org")
        #expect(link?.title == "Docs")
        #expect(document.first(.image)?.url == "a.png")
        #expect(document.first(.image)?.title == nil)
        #expect(document.first(.codeBlock)?.fenceInfo == "python")
        #expect(document.first(.codeBlock)?.literal == "print(\"hi\")\n")
        let lists = document.indices(of: .list)
        #expect(document.nodes[lists[0]].isOrderedList == false)
        #expect(document.nodes[lists[0]].isTightList)
        #expect(document.nodes[lists[1]].isOrderedList)
        #expect(document.nodes[lists[1]].listStart == 1)
        let items = document.indices(of: .item).map { document.nodes[$0].taskState }
        #expect(items == [nil, true, nil, nil])
        #expect(document.first(.table)?.tableAlignments == [.left, .right])
        let rows = document.indices(of: .tableRow).map { document.nodes[$0].isTableHeader }
        #expect(rows == [true, false])
        #expect(document.first(.footnoteReference)?.literal == "1")
    }

    @Test func treeLinksAreConsistent() {
        let document = MarkdownDocument(parsing: realisticNote)
        #expect(document.nodes[0].kind == .document)
        #expect(document.nodes[0].parent == nil)
        #expect(document.nodes[0].subtreeEnd == document.nodes.count)
        for (index, node) in document.nodes.enumerated() {
            for child in document.children(of: index) {
                #expect(document.nodes[child].parent == index)
                #expect(child > index && child < node.subtreeEnd)
            }
            if let next = node.nextSibling {
                #expect(next == node.subtreeEnd)
            }
            #expect(node.kind.isBlock != node.kind.isInline)
        }
        #expect(Array(document.children(of: 0)).count == 10)
    }

    @Test func lineOffsetShiftsEveryLine() {
        let plain = MarkdownDocument(parsing: realisticNote)
        let shifted = MarkdownDocument(parsing: realisticNote, options: .default, lineOffset: 7)
        #expect(plain.nodes.count == shifted.nodes.count)
        for (a, b) in zip(plain.nodes, shifted.nodes) {
            #expect(b.range.start.line == a.range.start.line + 7)
            #expect(b.range.end.line == a.range.end.line + 7)
            #expect(b.range.start.column == a.range.start.column)
        }
        let code = shifted.first(.code)
        #expect(code.map { slice(realisticNote, $0.range, lineOffset: 7) } == "`powerhouse`")
    }

    @Test func initializersAgree() {
        let bytes = Array(realisticNote.utf8)
        let fromString = MarkdownDocument(parsing: realisticNote)
        let fromBytes = MarkdownDocument(parsing: bytes)
        let fromSlice = MarkdownDocument(parsing: bytes[0...])
        let fromRaw = bytes.withUnsafeBytes { MarkdownDocument(parsing: $0) }
        #expect(fromString.outline == fromBytes.outline)
        #expect(fromString.outline == fromSlice.outline)
        #expect(fromString.outline == fromRaw.outline)
    }

    // MARK: - Extensions

    @Test func tablesNeedTheTablesOption() {
        let source = "| a | b |\n|---|:-:|\n| 1 | 2 |\n"
        let with = MarkdownDocument(parsing: source, options: .tables)
        #expect(with.first(.table)?.tableAlignments == [.none, .center])
        #expect(with.indices(of: .tableCell).map { with.nodes[$0].range } == [
            SourceRange(1, 2, 1, 4), SourceRange(1, 6, 1, 8), SourceRange(3, 2, 3, 4), SourceRange(3, 6, 3, 8),
        ])
        let without = MarkdownDocument(parsing: source, options: [])
        #expect(without.first(.table) == nil)
    }

    @Test func strikethroughNeedsItsOption() {
        #expect(MarkdownDocument(parsing: "a ~~b~~ c", options: .strikethrough).first(.strikethrough)?.range == SourceRange(1, 3, 1, 7))
        #expect(MarkdownDocument(parsing: "a ~~b~~ c", options: []).first(.strikethrough) == nil)
    }

    @Test func taskListsNeedTheirOption() {
        let source = "- [ ] open\n- [x] done\n- plain\n"
        let with = MarkdownDocument(parsing: source, options: .taskLists)
        #expect(with.indices(of: .item).map { with.nodes[$0].taskState } == [false, true, nil])
        let without = MarkdownDocument(parsing: source, options: [])
        #expect(without.indices(of: .item).map { without.nodes[$0].taskState } == [nil, nil, nil])
        #expect(without.plainText(of: 0) == "[ ] open\n[x] done\nplain")
    }

    @Test func autolinksNeedTheirOption() {
        let source = "see www.example.com or https://a.org/x and me@mail.org."
        let with = MarkdownDocument(parsing: source, options: .autolinks)
        #expect(with.indices(of: .link).map { with.nodes[$0].url } == [
            "http://www.example.com", "https://a.org/x", "mailto:me@mail.org",
        ])
        #expect(MarkdownDocument(parsing: source, options: []).first(.link) == nil)
    }

    @Test func footnotesNeedTheirOption() {
        let source = "x[^a]\n\n[^a]: note\n"
        let with = MarkdownDocument(parsing: source, options: .footnotes)
        #expect(with.first(.footnoteReference)?.range == SourceRange(1, 2, 1, 5))
        #expect(with.first(.footnoteDefinition) != nil)
        #expect(MarkdownDocument(parsing: source, options: []).first(.footnoteReference) == nil)
    }

    @Test func htmlCommentsAreHTMLNodes() {
        let document = MarkdownDocument(parsing: "<!-- block\ncomment -->\n\ntext <!-- inline --> end\n")
        let block = document.first(.htmlBlock)
        #expect(block?.literal == "<!-- block\ncomment -->\n")
        #expect(block?.range == SourceRange(1, 1, 2, 11))
        let inline = document.first(.htmlInline)
        #expect(inline?.literal == "<!-- inline -->")
        #expect(inline?.range == SourceRange(4, 6, 4, 20))
    }

    // MARK: - plainText

    @Test func plainTextJoinsInlineText() {
        let document = MarkdownDocument(parsing: "**Bold** and `code` [link](u)\nnext  \nhard <b>x</b>")
        #expect(document.plainText(of: 1) == "Bold and code link\nnext\nhard x")
        let strong = document.indices(of: .strong)[0]
        #expect(document.plainText(of: strong) == "Bold")
    }

    @Test func plainTextOfBlocksSeparatesParagraphs() {
        let document = MarkdownDocument(parsing: "# H\n\npara *one*\n\n- a\n- b\n\n```\ncode\n```\n")
        #expect(document.plainText(of: 0) == "H\npara one\na\nb\ncode")
    }

    // MARK: - Robustness

    @Test func emptyAndBlankInput() {
        for source in ["", " ", "\n\n\n", "   \t\n  "] {
            let document = MarkdownDocument(parsing: source)
            #expect(document.nodes.count == 1)
            #expect(document.nodes[0].kind == .document)
        }
    }

    @Test func byteOrderMarkIsSkippedButCounted() {
        let document = MarkdownDocument(parsing: Array("\u{FEFF}# T `c`\n".utf8))
        #expect(document.first(.heading)?.range == SourceRange(1, 4, 1, 10))
        #expect(document.first(.code)?.range == SourceRange(1, 8, 1, 10))
        #expect(document.first(.text)?.literal == "T ")
    }

    @Test func crlfInputKeepsPositions() {
        let source = "a `b`\r\nc `d`\r\n\r\n> q `e`\r\n> r `f`\r\n"
        let document = MarkdownDocument(parsing: source)
        #expect(document.indices(of: .code).map { document.nodes[$0].range } == [
            SourceRange(1, 3, 1, 5), SourceRange(2, 3, 2, 5), SourceRange(4, 5, 4, 7), SourceRange(5, 5, 5, 7),
        ])
        #expect(document.first(.softBreak)?.range == SourceRange(1, 6, 1, 6))
        #expect(document.first(.text)?.literal == "a ")
    }

    @Test func nulBytesAreReplaced() {
        let document = MarkdownDocument(parsing: [97, 0, 98, 10, 10, 0, 96, 120, 96] as [UInt8])
        #expect(document.first(.text)?.literal == "a\u{FFFD}b")
        #expect(document.first(.code)?.range == SourceRange(3, 4, 3, 6))
    }

    @Test func invalidUTF8DoesNotCrash() {
        let document = MarkdownDocument(parsing: [0xFF, 0xFE, 0x61, 0xC3, 10, 0x60, 0xE2, 0x82, 0x60] as [UInt8])
        #expect(document.nodes.count > 1)
    }

    @Test func deeplyNestedQuotesDoNotOverflow() {
        let source = String(repeating: ">", count: 5_000) + " deep `x`\n"
        let document = MarkdownDocument(parsing: source)
        #expect(document.indices(of: .blockQuote).count == 5_000)
        #expect(document.first(.code)?.range == SourceRange(1, 5_007, 1, 5_009))
        var counter = NodeCounter()
        document.walk(&counter)
        #expect(counter.visits == document.nodes.count)
        #expect(MarkdownRenderer.plain(source).contains("deep"))
    }

    @Test func deeplyNestedListsDoNotOverflow() {
        var source = ""
        for depth in 0..<1_000 { source += String(repeating: "  ", count: depth) + "- item\n" }
        let document = MarkdownDocument(parsing: source)
        #expect(document.indices(of: .list).count > 10)
        #expect(!MarkdownRenderer.plain(source).isEmpty)
    }

    @Test func largeDocumentParses() {
        var source = ""
        var line = 0
        while source.utf8.count < 5_000_000 {
            line += 1
            source += "Paragraph \(line) with `code` and *emphasis* :: definition\n> quoted\n\n"
        }
        let document = MarkdownDocument(parsing: source, options: .indexing)
        let codes = document.indices(of: .code)
        #expect(codes.count == line)
        #expect(document.nodes[codes[line - 1]].range.start.line == 3 * line - 2)
    }
}

struct NodeCounter: MarkdownWalker {
    var visits = 0
    mutating func visit(_ node: MarkdownNode, at index: Int, in document: MarkdownDocument) -> MarkdownWalkAction {
        visits += 1
        return .visitChildren
    }
}
