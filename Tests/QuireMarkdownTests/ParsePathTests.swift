import Dispatch
import Testing
@testable import QuireMarkdown

/// On the shim's fast path the conversion reads cmark's node structs directly and parses small
/// inputs with a per-thread arena allocator; on either path it keeps literals in a buffer shared by
/// the document. These tests pin that every path gives the same tree (ParseModeTests compares the
/// two paths of the shim).
struct ParsePathTests {
    static let note = """
        # Title with `code` and *emphasis*

        Text with **strong**, [a link](http://example.com "T"), ![img](a.png) and <b>html</b>.
        A second line with `a span
        across lines` and <!-- a
        comment --> end; see[^1] and www.example.com.

        > Quote with `q` <i>x</i>
        lazy continuation &amp; &copy; \\* escaped

        - [ ] open task
        - [x] done task
          1. nested `one`
          2. nested two

        ```swift
        let x = 1
        ```

            indented code

        <div>
        raw
        </div>

        | a | b |
        |:--|--:|
        | `c` | d \\| e |

        [ref]: /url 'Title'
        Uses [ref] and <http://x.y/z> and a@b.co. Hard break  
        here and ~~gone~~ here.

        ---

        [^1]: The footnote.
        """

    /// Each line of the outline plus the attributes the outline leaves out.
    static func describe(_ document: MarkdownDocument) -> [String] {
        zip(document.outline.split(separator: "\n"), document.nodes).map { line, node in
            "\(line) p\(node.parent ?? -1) f\(node.firstChild ?? -1) n\(node.nextSibling ?? -1) e\(node.subtreeEnd)"
                + " h\(node.headingLevel) o\(node.isOrderedList) s\(node.listStart) t\(node.isTightList)"
                + " th\(node.isTableHeader) ts\(String(describing: node.taskState)) fi\(node.fenceInfo ?? "-")"
                + " u\(node.url ?? "-") ti\(node.title ?? "-") a\((node.tableAlignments ?? []).map(\.rawValue))"
        }
    }

    @Test func largeInputUsesTheDefaultAllocatorWithTheSameResult() {
        // A fenced block of padding after the note pushes the input past the arena limit; the
        // note's nodes must not change.
        func padded(_ lines: Int) -> String {
            Self.note + "\n\n```\n" + String(repeating: "padding line of the code block\n", count: lines) + "```\n"
        }
        let small = padded(10)
        let large = padded(MarkdownConverter.arenaLimit / 31 + 10)
        #expect(small.utf8.count < MarkdownConverter.arenaLimit)
        #expect(large.utf8.count > MarkdownConverter.arenaLimit)
        for options in [MarkdownParseOptions.default, .indexing, []] {
            let smallLines = Self.describe(MarkdownDocument(parsing: small, options: options, lineOffset: 3))
            let largeLines = Self.describe(MarkdownDocument(parsing: large, options: options, lineOffset: 3))
            #expect(smallLines.count == largeLines.count)
            // Only the document's end and the padding block itself differ.
            for (a, b) in zip(smallLines, largeLines).dropFirst() where !a.contains("padding line") {
                #expect(a == b)
            }
        }
    }

    @Test func concurrentParsesAgree() {
        let sources = (0..<24).map { index in
            String(repeating: "Paragraph \(index) with `code` and *em*.\n\n", count: index) + Self.note
        }
        let expected = sources.map { Self.describe(MarkdownDocument(parsing: $0, options: .default)) }
        final class Results: @unchecked Sendable {
            var values: [[String]]
            init(count: Int) { values = Array(repeating: [], count: count) }
        }
        let results = Results(count: sources.count * 4)
        let lock = DispatchQueue(label: "results")
        DispatchQueue.concurrentPerform(iterations: sources.count * 4) { index in
            let lines = Self.describe(MarkdownDocument(parsing: sources[index % sources.count], options: .default))
            lock.sync { results.values[index] = lines }
        }
        for index in 0..<(sources.count * 4) {
            #expect(results.values[index] == expected[index % sources.count])
        }
    }

    @Test func literalsAreReadableAfterTheDocumentIsGone() {
        var nodes: [MarkdownNode] = []
        do {
            let document = MarkdownDocument(parsing: "Some `code` and text that is longer than fifteen bytes.\n")
            nodes = document.nodes
        }
        #expect(nodes.compactMap(\.literal) == ["Some ", "code", " and text that is longer than fifteen bytes."])
    }

    @Test func literalSetterRoundTrips() {
        var document = MarkdownDocument(parsing: "Hello *world*\n\n```\n```\n")
        let text = document.indices(of: .text)[0]
        document.nodes[text].literal = "Grüße, a literal set by hand"
        #expect(document.nodes[text].literal == "Grüße, a literal set by hand")
        #expect(document.nodes[document.indices(of: .text)[1]].literal == "world")
        document.nodes[text].literal = ""
        #expect(document.nodes[text].literal == "")
        document.nodes[text].literal = nil
        #expect(document.nodes[text].literal == nil)
        // An empty fenced block has an empty (not missing) literal.
        #expect(document.first(.codeBlock)?.literal == "")
        #expect(document.first(.paragraph)?.literal == nil)
    }
}

/// cmark-gfm switches its extensions' characters in process-wide tables while it parses;
/// parses with different extensions on many threads must still give single-threaded results.
@Suite struct ConcurrentParseTests {
    static let optionSets: [MarkdownParseOptions] = [
        .default, .indexing, [], [.strikethrough], [.autolinks], [.tables, .smartPunctuation],
    ]

    static func source(_ index: Int) -> String {
        let line = "Line \(index): ~~struck~~ and www.example.com/\(index) or me\(index)@example.org, `c` *e*.\n"
        let repeats = index % 5 == 0 ? 1200 + index : index * 3 + 1
        var text = ParsePathTests.note + "\n\n"
        for row in 0..<repeats {
            text += row % 7 == 0 ? "| x\(row) | ~~y~~ |\n|---|---|\n| www.a.b | c@d.ef |\n\n" : line
            if row % 11 == 0 { text += "\n" }
        }
        return text + "\n```\n" + String(repeating: "code line\n", count: index) + "```\n"
    }

    @Test func concurrentParsesWithMixedOptionsMatchSingleThreadedResults() {
        let sources = (0..<12).map(Self.source)
        #expect(sources.contains { $0.utf8.count > 64 * 1024 })
        let jobs = sources.indices.flatMap { source in Self.optionSets.indices.map { (source, $0) } }
        let expected = jobs.map { job in
            ParsePathTests.describe(MarkdownDocument(parsing: sources[job.0], options: Self.optionSets[job.1]))
        }
        final class Results: @unchecked Sendable {
            var values: [[String]]
            init(count: Int) { values = Array(repeating: [], count: count) }
        }
        let rounds = 4
        let results = Results(count: jobs.count * rounds)
        let lock = DispatchQueue(label: "results")
        DispatchQueue.concurrentPerform(iterations: jobs.count * rounds) { iteration in
            // Neighbouring iterations use different documents and options.
            let job = jobs[(iteration * 7) % jobs.count]
            let lines = ParsePathTests.describe(MarkdownDocument(parsing: sources[job.0], options: Self.optionSets[job.1]))
            lock.sync { results.values[iteration] = lines }
        }
        var mismatches = 0
        for iteration in 0..<(jobs.count * rounds) where results.values[iteration] != expected[(iteration * 7) % jobs.count] {
            mismatches += 1
        }
        #expect(mismatches == 0)
    }
}

/// `exactCodeSpansOnly` (part of `.indexing`) skips recomputing inline positions in blocks without
/// code or HTML: the tree, the literals, every block range and every code and HTML range must be
/// what the full computation gives, and a block holding code keeps every exact inline range.
@Suite struct ExactCodeSpansOnlyTests {
    static let documents = [
        ParsePathTests.note,
        "Plain text\ncontinued *here* and\n**there** with [a link](x)\n",
        "> Quoted `code` line\n> and a lazy\ncontinuation with `more code`\n\n> plain quote\n> text\n",
        "- item one with `c`\n  continued <b>html\n  spanning</b> lines\n- item *two*\n  lazy\n",
        "[ref]: http://example.com\n[other]: /x\nText after refs with `code`\nand [ref] link\n",
        "# Heading with `code` and *em*\n\nSetext `x`\n===\n\n## plain heading\n",
        "| a | `b` |\n|---|---|\n| <i>c</i> | d \\| e `f` |\n",
        "Q: What is `f(x)`?\nA: A function <!-- note --> of x.\n\nterm :: definition with *em*\n",
        "Text with ``double `tick` code``\nand a [link\nacross lines](u) then `c`\n",
    ]

    @Test(arguments: documents)
    func onlyUnreadPositionsDiffer(_ text: String) {
        let exact = MarkdownDocument(parsing: text, options: [.tables, .footnotes])
        let fast = MarkdownDocument(parsing: text, options: [.tables, .footnotes, .exactCodeSpansOnly])
        #expect(fast.nodes.count == exact.nodes.count)
        for (i, (a, b)) in zip(fast.nodes, exact.nodes).enumerated() {
            #expect(a.kind == b.kind && a.parent == b.parent && a.subtreeEnd == b.subtreeEnd && a.literal == b.literal)
            if a.kind.isBlock || a.kind == .code || a.kind == .htmlInline {
                #expect(a.range == b.range, "node \(i) \(a.kind) in \(text.debugDescription)")
            }
        }
        // In a block that holds code or HTML, every inline range is exact.
        for (i, block) in exact.nodes.enumerated() where block.kind == .paragraph || block.kind == .heading {
            let inlines = (i + 1)..<block.subtreeEnd
            guard inlines.contains(where: { exact.nodes[$0].kind == .code || exact.nodes[$0].kind == .htmlInline }) else { continue }
            for j in inlines { #expect(fast.nodes[j].range == exact.nodes[j].range, "node \(j) in \(text.debugDescription)") }
        }
    }

    @Test func positionsAreLeftToCmarkWhereNothingReadsThem() {
        // After a link reference definition cmark places the paragraph's inlines a line too
        // early; only the full computation moves them to their source bytes, so a differing range
        // shows the option did skip that block.
        let text = "[ref]: /url 'Title'\nUses [ref] and more\nhere.\n"
        let exact = MarkdownDocument(parsing: text, options: [.tables, .footnotes])
        let fast = MarkdownDocument(parsing: text, options: [.tables, .footnotes, .exactCodeSpansOnly])
        #expect(zip(exact.nodes, fast.nodes).contains { $0.kind == .text && $0.range != $1.range })
        #expect(zip(exact.nodes, fast.nodes).allSatisfy { !$0.kind.isBlock || $0.range == $1.range })
    }
}

/// `bareProseParagraphs` (part of `.indexing`) leaves out the inline nodes of paragraphs whose
/// lines hold no backtick and no `<`: the tree must be the whole tree without exactly those nodes.
@Suite struct BareProseParagraphsTests {
    static let documents = ExactCodeSpansOnlyTests.documents + [
        "Just prose *with* **emphasis**, [a link](u) and\na second line.\n\nAnother `coded` one.\n",
        "- item *one*\n- item <i>two</i>\n\n> quoted *prose*\n> more\n\n# Heading *kept*\n",
        "| cell *a* | b |\n|---|---|\n| c | d |\n\nText with an escaped \\` tick *stays*.\n",
        "A paragraph\nwith `code\nacross` lines and <b>html</b>.\n\nPlain again[^1].\n\n[^1]: A *note*.\n",
        // cmark reads a last line without line ending only when finishing: it can still turn the
        // open paragraph into a setext heading or a table.
        "Before *it*.\n\nSetext *heading*\n===",
        "Before.\n\n| a *x* | b |\n|---|---|",
        "Open *to the end*\nof the input",
        "- item *a*\n  lazy *b*\n\n> quote *c*\nlazy *d*\n\n[ref]: /url\n\nA [ref] *e*.\n",
    ]

    @Test func proseLosesItsInlinesAndCodeKeepsThem() {
        let text = "Prose *here*.\n\nWith `code` *here*.\n"
        let bare = MarkdownDocument(parsing: text, options: .indexing)
        let paragraphs = bare.nodes.indices.filter { bare.nodes[$0].kind == .paragraph }
        #expect(paragraphs.count == 2)
        #expect(bare.nodes[paragraphs[0]].subtreeEnd == paragraphs[0] + 1)
        #expect(bare.nodes[paragraphs[1]].subtreeEnd > paragraphs[1] + 3)
    }

    @Test(arguments: documents)
    func plainParagraphsHaveNoInlineNodes(_ text: String) {
        let whole = MarkdownDocument(parsing: text, options: .indexing.subtracting(.bareProseParagraphs))
        let bare = MarkdownDocument(parsing: text, options: .indexing)
        // Lines as cmark counts them: ended by "\n", "\r\n" or "\r".
        var lines: [ArraySlice<UInt8>] = []
        let bytes = Array(text.utf8)
        var start = 0
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] == 10 || bytes[offset] == 13 {
                lines.append(bytes[start..<offset])
                if bytes[offset] == 13, offset + 1 < bytes.count, bytes[offset + 1] == 10 { offset += 1 }
                start = offset + 1
            }
            offset += 1
        }
        lines.append(bytes[start...])
        func plain(_ node: MarkdownNode) -> Bool {
            guard node.kind == .paragraph else { return false }
            let first = min(node.range.start.line, lines.count) - 1
            let span = lines[first...min(lines.count - 1, max(first, node.range.end.line - 1))]
            return !span.contains { $0.contains(UInt8(ascii: "`")) || $0.contains(UInt8(ascii: "<")) }
        }
        // The whole tree without the descendants of plain paragraphs.
        var kept: [Int] = []
        var i = 0
        while i < whole.nodes.count {
            kept.append(i)
            i = plain(whole.nodes[i]) ? whole.nodes[i].subtreeEnd : i + 1
        }
        #expect(bare.nodes.count == kept.count)
        for (b, w) in zip(bare.nodes, kept.map { whole.nodes[$0] }) {
            #expect(b.kind == w.kind && b.range == w.range && b.literal == w.literal, "\(b.kind) in \(text.debugDescription)")
            if plain(w) { #expect(b.firstChild == nil) }
        }
        // Parents and subtree ends point at the same nodes.
        let position = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0) })
        for (k, w) in kept.enumerated() {
            let parent = whole.nodes[w].parent.flatMap { position[$0] }
            #expect(bare.nodes[k].parent == parent)
            let end = kept.firstIndex { $0 >= whole.nodes[w].subtreeEnd } ?? kept.count
            #expect(bare.nodes[k].subtreeEnd == (plain(whole.nodes[w]) ? k + 1 : end))
        }
    }
}
