/// Parses a buffer with cmark-gfm and copies the tree into ``MarkdownNode`` values with exact
/// source ranges.
///
/// The C parser and tree never leave ``convert(_:options:)`` (``CmarkParse`` makes and frees
/// them). The work is split by job, one file each:
/// - `MarkdownConverter+Cmark`: reading cmark's nodes and walking its trees — the only part that
///   calls into C. The walks are iterative (child, next-sibling and parent pointers), so deeply
///   nested input cannot overflow the stack.
/// - `MarkdownConverter+BareParagraphs`: which paragraphs need no inline nodes, and which of them
///   cmark need not even parse.
/// - `MarkdownConverter+BlockPositions`: block ranges cmark-gfm reports wrongly, repaired.
/// - `MarkdownConverter+InlinePositions`: inline ranges recomputed from the source.
struct MarkdownConverter {
    let source: UnsafeBufferPointer<UInt8>
    let lines: LineTable
    /// ``MarkdownParseOptions/exactCodeSpansOnly``: inline positions are recomputed only in blocks
    /// that hold a code span or inline HTML.
    let exactCodeSpansOnly: Bool
    /// ``MarkdownParseOptions/bareProseParagraphs``: a paragraph that cannot hold a code span or
    /// inline HTML gets no inline nodes.
    let bareProseParagraphs: Bool
    /// The task list extension when the parse attached it: the list items it made carry a state.
    let tasklist: OpaquePointer?
    var nodes: [MarkdownNode] = []
    /// Where the literals of the nodes go (replaced by a fresh one if it would outgrow `Int32`).
    var literals: MarkdownLiteralBuffer

    // MARK: Inline positions' scratch buffers, reused across blocks

    var raw: [SourceRange] = []
    var startOffsets: [Int] = []
    var endOffsets: [Int] = []
    var segments: [Segment] = []
    var bases: [Int] = []

    // MARK: Block position repairs in progress

    /// The header row of a table whose paragraph cmark-gfm mislocated (see
    /// ``repairParagraphBeforeTable(_:following:)``): its node index, true line and the column
    /// shift of its cells.
    var headerRowRepair: (row: Int, line: Int, shift: Int)?
    /// The true header line of the next table, when its paragraph was repaired.
    var tableHeaderLine: Int?
    /// The index of the paragraph whose position was repaired, until its inlines are placed.
    var repairedParagraph: Int?
    /// The index of the table being repaired, until its header row is entered.
    var repairedTable: Int?
    /// The paragraph last entered: its index and cmark node, for reading its content while its
    /// inlines are placed (the node lives as long as the traversal).
    var paragraph: (index: Int, node: OpaquePointer)?

    /// One source line's share of a paragraph's content string.
    struct Segment {
        var line: Int
        /// Offset in the source of the first content byte on this line.
        var source: Int
        /// Offset of that byte in cmark's concatenated paragraph content.
        var content: Int
    }

    private init(source: UnsafeBufferPointer<UInt8>, options: MarkdownParseOptions) {
        self.source = source
        self.lines = LineTable(source)
        self.literals = MarkdownLiteralBuffer(capacity: min(source.count + 64, MarkdownLiteralBuffer.maximumCount))
        self.exactCodeSpansOnly = options.contains(.exactCodeSpansOnly)
        self.bareProseParagraphs = options.contains(.bareProseParagraphs)
        self.tasklist = options.contains(.taskLists) ? CmarkRuntime.extensions.tasklist : nil
    }

    // MARK: - Entry point

    /// The largest input parsed in the shim's arena (``CmarkParse/arenaLimit``).
    static var arenaLimit: Int { CmarkParse.arenaLimit }

    /// Parses `input` (already without BOM and NUL bytes) and returns the flat node list.
    static func convert(_ input: UnsafeBufferPointer<UInt8>, options: MarkdownParseOptions) -> [MarkdownNode] {
        var converter = MarkdownConverter(source: input, options: options)
        let converted: Void? = CmarkParse.run(input, options: options, memory: .arena, beforeFinish: { parser in
            // On the public-API path there is no block tree to reach and cmark parses every
            // paragraph; the traversal leaves out the same inline nodes either way.
            if options.contains(.bareProseParagraphs), CmarkRuntime.fastPath {
                converter.leaveBareParagraphsUnparsed(parser)
            }
        }) { _, document in
            converter.nodes.reserveCapacity(input.count / 24 + 8)
            converter.traverse(root: document, types: .read())
        }
        guard converted != nil else { return [emptyDocument()] }
        return converter.nodes
    }

    private static func emptyDocument() -> MarkdownNode {
        var node = MarkdownNode(kind: .document, range: SourceRange(1, 1, 1, 0))
        node.subtreeEnd = 1
        return node
    }

    // MARK: - Finishing a node

    /// Called once all of a node's descendants are in `nodes`.
    mutating func finish(_ index: Int, quoteDepth: inout Int) {
        if headerRowRepair?.row == index { headerRowRepair = nil }
        nodes[index].subtreeEnd = nodes.count
        let kind = nodes[index].kind
        guard kind.isBlock else { return }
        if kind == .blockQuote { quoteDepth -= 1 }
        normalizeBlockEnd(index)
        if kind == .htmlBlock { extendHTMLBlockEnd(index) }
        if (kind == .paragraph || kind == .heading || kind == .tableCell), index + 1 < nodes.count,
           !exactCodeSpansOnly || holdsCodeOrHTML(from: index + 1) {
            fixInlines(block: index, quoteDepth: quoteDepth)
        }
    }
}
