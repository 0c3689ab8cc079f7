internal import CCmarkGFM
internal import CCmarkGFMShim
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Registers cmark-gfm's core extensions exactly once.
///
/// Swift runs a `static let` initializer once, even when several threads reach it at the same time,
/// so concurrent first parses are safe.
enum CmarkRuntime {
    /// The registered extensions, looked up once. They are global, immutable once registered and
    /// never freed, so sharing the pointers between threads is safe.
    struct Extensions: @unchecked Sendable {
        let table: OpaquePointer?
        let strikethrough: OpaquePointer?
        let autolink: OpaquePointer?
        let tasklist: OpaquePointer?
        let tagfilter: OpaquePointer?
    }

    static let extensions: Extensions = {
        cmark_gfm_core_extensions_ensure_registered()
        return Extensions(
            table: cmark_find_syntax_extension("table"),
            strikethrough: cmark_find_syntax_extension("strikethrough"),
            autolink: cmark_find_syntax_extension("autolink"),
            tasklist: cmark_find_syntax_extension("tasklist"),
            tagfilter: cmark_find_syntax_extension("tagfilter")
        )
    }()

    /// Whether the shim was compiled with its fast path (cmark's structs read directly, bare
    /// paragraphs left unparsed, an arena per thread) or with cmark's public API only.
    static let fastPath = quire_cmark_fast_path() != 0

    /// The version of the cmark-gfm library in use, such as `0.29.0.gfm.6`.
    static let version = String(cString: cmark_version_string())
}

/// Parses a buffer with cmark-gfm and copies the tree into ``MarkdownNode`` values.
///
/// The C parser and tree never leave ``convert(_:options:)``. The traversal is iterative (child,
/// next-sibling and parent pointers), so deeply nested input cannot overflow the stack.
struct MarkdownConverter {
    private let source: UnsafeBufferPointer<UInt8>
    private let lines: LineTable
    /// ``MarkdownParseOptions/exactCodeSpansOnly``: inline positions are recomputed only in blocks
    /// that hold a code span or inline HTML.
    private var exactCodeSpansOnly = false
    /// ``MarkdownParseOptions/bareProseParagraphs``: a paragraph that cannot hold a code span or
    /// inline HTML gets no inline nodes.
    private var bareProseParagraphs = false
    private(set) var nodes: [MarkdownNode] = []
    /// Where the literals of the nodes go (replaced by a fresh one if it would outgrow `Int32`).
    private var literals: MarkdownLiteralBuffer

    // Scratch buffers for recomputing inline positions, reused across blocks.
    private var raw: [SourceRange] = []
    private var startOffsets: [Int] = []
    private var endOffsets: [Int] = []
    private var segments: [Segment] = []
    private var bases: [Int] = []
    /// The header row of a table whose paragraph cmark-gfm mislocated (see
    /// ``repairParagraphBeforeTable(_:_:)``): its node index, true line and the column shift of
    /// its cells.
    private var headerRowRepair: (row: Int, line: Int, shift: Int)?
    /// The true header line of the next table, when its paragraph was repaired.
    private var tableHeaderLine: Int?
    /// The index of the paragraph whose position was repaired, until its inlines are placed.
    private var repairedParagraph: Int?
    /// The index of the table being repaired, until its header row is entered.
    private var repairedTable: Int?

    /// One source line's share of a paragraph's content string.
    private struct Segment {
        var line: Int
        /// Offset in the source of the first content byte on this line.
        var source: Int
        /// Offset of that byte in cmark's concatenated paragraph content.
        var content: Int
    }

    /// The cmark node type values of the GFM extensions (known only at run time).
    private struct ExtensionTypes {
        var table: UInt32
        var tableRow: UInt32
        var tableCell: UInt32
        var strikethrough: UInt32
    }

    private init(source: UnsafeBufferPointer<UInt8>) {
        self.source = source
        self.lines = LineTable(source)
        self.literals = MarkdownLiteralBuffer(capacity: min(source.count + 64, MarkdownLiteralBuffer.maximumCount))
    }

    // MARK: - Entry point

    /// On the shim's fast path, inputs up to this size are parsed with its per-thread arena
    /// allocator; larger ones use cmark's default allocator, so the arena never holds more than a
    /// few megabytes.
    static let arenaLimit = Int(QUIRE_CMARK_ARENA_LIMIT)

    /// Parses `input` (already without BOM and NUL bytes) and returns the flat node list.
    static func convert(_ input: UnsafeBufferPointer<UInt8>, options: MarkdownParseOptions) -> [MarkdownNode] {
        let extensions = CmarkRuntime.extensions
        var cmarkOptions: Int32 = 0
        if options.contains(.footnotes) { cmarkOptions |= Int32(CMARK_OPT_FOOTNOTES) }
        if options.contains(.smartPunctuation) { cmarkOptions |= Int32(CMARK_OPT_SMART) }
        guard let parser = quire_parser_new(cmarkOptions, input.count) else { return [emptyDocument()] }
        var finished: OpaquePointer?
        // Frees the parser and the tree (on the fast path, an arena parse's all at once).
        defer { quire_parser_dispose(parser, finished) }

        func attach(_ option: MarkdownParseOptions, _ ext: OpaquePointer?) {
            if options.contains(option), let ext { cmark_parser_attach_syntax_extension(parser, ext) }
        }
        attach(.tables, extensions.table)
        attach(.strikethrough, extensions.strikethrough)
        attach(.autolinks, extensions.autolink)
        attach(.taskLists, extensions.tasklist)
        attach(.tagFilter, extensions.tagfilter)
        let tasklist = options.contains(.taskLists) ? extensions.tasklist : nil
        var converter = MarkdownConverter(source: input)
        // Only finishing reads and writes cmark's process-wide character tables (see CmarkParseLock).
        if let base = input.baseAddress, input.count > 0 {
            base.withMemoryRebound(to: CChar.self, capacity: input.count) { chars in
                cmark_parser_feed(parser, chars, input.count)
            }
        }
        // On the public-API path there is no block tree to reach and cmark parses every paragraph;
        // the traversal leaves out the same inline nodes either way.
        if options.contains(.bareProseParagraphs), CmarkRuntime.fastPath, let root = quire_parser_block_root(parser) {
            converter.leaveBareParagraphsUnparsed(root)
        }
        finished = CmarkParseLock.withLock(exclusive: options.switchesCharacterTables) { cmark_parser_finish(parser) }
        guard let root = finished else { return [emptyDocument()] }

        converter.exactCodeSpansOnly = options.contains(.exactCodeSpansOnly)
        converter.bareProseParagraphs = options.contains(.bareProseParagraphs)
        converter.nodes.reserveCapacity(input.count / 24 + 8)
        let types = ExtensionTypes(
            table: quire_node_type_table(),
            tableRow: quire_node_type_table_row(),
            tableCell: quire_node_type_table_cell(),
            strikethrough: quire_node_type_strikethrough()
        )
        converter.traverse(root: root, types: types, tasklist: tasklist)
        return converter.nodes
    }

    private static func emptyDocument() -> MarkdownNode {
        var node = MarkdownNode(kind: .document, range: SourceRange(1, 1, 1, 0))
        node.subtreeEnd = 1
        return node
    }

    // MARK: - Bare paragraphs

    /// Before cmark parses inlines (fast path of the shim only): has cmark leave unparsed the
    /// inlines of each paragraph of the block tree under `root` whose lines hold no backtick, no
    /// `<` and no `[^`. The traversal does not descend into such paragraphs anyway
    /// (``MarkdownParseOptions/bareProseParagraphs``, whose test this one implies). A footnote
    /// reference `[^…]` keeps its paragraph parsed: cmark drops the definitions nothing refers to.
    /// A paragraph still open (the last one) is checked to the end of the input, where it may end;
    /// it is left alone when the input's last line has no line ending, for cmark reads that line
    /// only when finishing, and it may turn the paragraph into a setext heading.
    fileprivate func leaveBareParagraphsUnparsed(_ root: OpaquePointer) {
        let lineLeft = source.last.map { $0 != 10 && $0 != 13 } ?? false
        var node = root
        var fields = quire_node_fields()
        quire_node_read(node, &fields)
        while true {
            if fields.type == 0x8008 {  // a paragraph (see kind(of:types:))
                let first = Int(fields.start_line)
                let open = fields.open != 0
                let end = open ? source.count : lines.next(after: max(first, Int(fields.end_line)))
                if !(open && lineLeft), !mayNeedInlines(from: lines.start(of: first), to: end),
                   quire_node_leave_inlines_unparsed(node) == 0 {
                    return
                }
            } else if let child = fields.first_child {
                node = child
                quire_node_read(node, &fields)
                continue
            }
            var closed: Int32 = 0
            guard let after = quire_node_after(node, root, &fields, &closed) else { return }
            node = after
        }
    }

    /// Whether bytes `start..<end` of the source hold a backtick, a `<` or `[^`.
    private func mayNeedInlines(from start: Int, to end: Int) -> Bool {
        guard let base = source.baseAddress, end > start else { return false }
        if mayHoldCodeOrHTML(from: start, to: end) { return true }
        var i = start
        while i < end, let hit = memchr(base + i, 0x5B, end - i) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if at + 1 < end, base[at + 1] == 0x5E { return true }
            i = at + 1
        }
        return false
    }

    // MARK: - Traversal

    private mutating func traverse(root: OpaquePointer, types: ExtensionTypes, tasklist: OpaquePointer?) {
        // Open nodes: their index and the index of their last child so far (-1: none).
        var open: [(index: Int, lastChild: Int)] = []
        open.reserveCapacity(32)
        var quoteDepth = 0
        var node = root
        var fields = quire_node_fields()
        quire_node_read(node, &fields)

        descend: while true {
            let parent = open.last?.index ?? -1
            if let index = enter(node, fields, parent: parent, types: types, tasklist: tasklist) {
                if let top = open.last {
                    if top.lastChild >= 0 {
                        nodes[top.lastChild].nextSibling = index
                    } else {
                        nodes[top.index].firstChild = index
                    }
                    open[open.count - 1].lastChild = index
                }
                if nodes[index].kind == .blockQuote { quoteDepth += 1 }
                if bareProseParagraphs, nodes[index].kind == .paragraph, !mayHoldCodeOrHTML(nodes[index].range) {
                    finish(index, quoteDepth: &quoteDepth)
                } else if let child = fields.first_child {
                    open.append((index, -1))
                    node = child
                    quire_node_read(node, &fields)
                    continue descend
                } else {
                    finish(index, quoteDepth: &quoteDepth)
                }
            }
            // Climb to the next node, finishing the nodes whose subtrees end here.
            var closed: Int32 = 0
            let after = quire_node_after(node, root, &fields, &closed)
            for _ in 0..<closed {
                if let top = open.popLast() { finish(top.index, quoteDepth: &quoteDepth) }
            }
            guard let after else { break descend }
            node = after
        }
        while let closed = open.popLast() {
            finish(closed.index, quoteDepth: &quoteDepth)
        }
    }

    /// Appends the node for `node` and returns its index, or `nil` for a node that is left out
    /// (the empty text nodes the autolink extension leaves behind).
    private mutating func enter(
        _ node: OpaquePointer, _ fields: quire_node_fields, parent: Int, types: ExtensionTypes, tasklist: OpaquePointer?
    ) -> Int? {
        let kind = Self.kind(of: fields.type, types: types)
        let range = SourceRange(
            Int(fields.start_line), Int(fields.start_column), Int(fields.end_line), Int(fields.end_column)
        )
        var value = MarkdownNode(kind: kind, range: range)
        if parent >= 0 { value.parent = parent }
        if let repair = headerRowRepair {
            value.range = SourceRange(repair.line, range.start.column - repair.shift,
                                      repair.line, range.end.column - repair.shift)
        }
        if kind == .paragraph, range.start.line <= 0 {
            repairParagraphBeforeTable(node, &value)
        } else if kind == .table, let header = tableHeaderLine {
            value.range.start = SourceLocation(line: header, column: range.start.column)
            tableHeaderLine = nil
            repairedTable = nodes.count
        } else if kind == .tableRow, let table = repairedTable, table == parent {
            // The header row of a repaired table: cmark placed its cells by their offset in the
            // paragraph's text, not in their own line.
            repairedTable = nil
            let header = nodes[table].range.start.line
            let trueEnd = lines.contentEnd(of: header, in: source) - lines.start(of: header)
            value.range = SourceRange(header, range.start.column, header, trueEnd)
            headerRowRepair = (nodes.count, header, range.end.column - trueEnd)
        }
        switch kind {
        case .text:
            var length = 0
            let data = quire_node_literal(node, &length)
            guard length > 0 else { return nil }
            storeLiteral(data, length, in: &value)
        case .code, .htmlInline, .htmlBlock, .footnoteReference:
            // The kinds cmark_node_get_literal answers for (not footnote definitions); an empty
            // literal reads as `nil`, as the getter's empty C string did.
            var length = 0
            let data = quire_node_literal(node, &length)
            if length > 0 { storeLiteral(data, length, in: &value) }
        case .codeBlock:
            var length = 0
            let data = quire_node_literal(node, &length)
            storeLiteral(data, length, in: &value)
            var infoLength = 0
            if let info = Self.string(quire_node_fence_info(node, &infoLength), infoLength) {
                value.fenceInfo = info
            }
        case .heading:
            value.headingLevel = Int(quire_node_heading_level(node))
        case .list:
            value.isOrderedList = quire_node_list_is_ordered(node) != 0
            value.listStart = value.isOrderedList ? Int(quire_node_list_start(node)) : 0
            value.isTightList = quire_node_list_tight(node) != 0
        case .item:
            if let tasklist, quire_node_extension(node) == tasklist {
                value.taskState = cmark_gfm_extensions_get_tasklist_item_checked(node)
            }
        case .link, .image:
            var urlLength = 0
            var titleLength = 0
            let url = Self.string(quire_node_url(node, &urlLength), urlLength)
            value.setLink(url: url ?? "", title: Self.string(quire_node_title(node, &titleLength), titleLength))
        case .table:
            let columns = Int(cmark_gfm_extensions_get_table_columns(node))
            var alignments: [MarkdownTableAlignment] = []
            alignments.reserveCapacity(columns)
            if let raw = cmark_gfm_extensions_get_table_alignments(node) {
                for column in 0..<columns {
                    switch raw[column] {
                    case UInt8(ascii: "l"): alignments.append(.left)
                    case UInt8(ascii: "c"): alignments.append(.center)
                    case UInt8(ascii: "r"): alignments.append(.right)
                    default: alignments.append(.none)
                    }
                }
            } else {
                alignments = Array(repeating: .none, count: columns)
            }
            value.tableAlignments = alignments
        case .tableRow:
            value.isTableHeader = cmark_gfm_extensions_get_table_row_is_header(node) != 0
        default:
            break
        }
        nodes.append(consume value)
        return nodes.count - 1
    }

    /// Copies a byte string from the shim into the document's literal buffer and points `value`
    /// at it (an empty string gives `""`).
    private mutating func storeLiteral(_ data: UnsafePointer<UInt8>?, _ length: Int, in value: inout MarkdownNode) {
        let count = data == nil ? 0 : max(length, 0)
        if literals.count > MarkdownLiteralBuffer.maximumCount - count {
            literals = MarkdownLiteralBuffer(capacity: count)
        }
        let start = literals.append(UnsafeBufferPointer(start: data, count: count))
        value.setLiteral(literals, start: start, count: count)
    }

    /// A paragraph directly followed by a GFM table (no blank line between) comes out of
    /// cmark-gfm 0.29 at position 0:0, its table starts on the paragraph's first line and the
    /// header row's cells are placed by their offset in the paragraph's text. The table's rows are
    /// one line each, so its header is on the line `end - rows`; the paragraph is the lines from
    /// the table's reported start up to the header. Checked against the source (the line after the
    /// header must be a delimiter row); when the check fails the position stays unknown.
    private mutating func repairParagraphBeforeTable(_ node: OpaquePointer, _ value: inout MarkdownNode) {
        // Rare, so cmark's public getters serve (on either path of the shim).
        guard let table = cmark_node_next(node), cmark_node_get_start_line(table) > 0 else { return }
        var rows = 0
        var row = cmark_node_first_child(table)
        while let current = row {
            rows += 1
            row = cmark_node_next(current)
        }
        var end = Int(cmark_node_get_end_line(table))
        if cmark_node_get_end_column(table) <= 0 { end -= 1 }
        let header = end - rows
        let start = Int(cmark_node_get_start_line(table))
        guard rows > 0, header > start, header + 1 <= lines.lineCount, isDelimiterRow(header + 1) else { return }
        let last = header - 1
        value.range = SourceRange(start, Int(cmark_node_get_start_column(table)),
                                  last, max(1, lines.contentEnd(of: last, in: source) - lines.start(of: last)))
        tableHeaderLine = header
        repairedParagraph = nodes.count
    }

    /// Whether a line is a GFM table delimiter row (`|---|:--:|`), after any block quote markers.
    private func isDelimiterRow(_ line: Int) -> Bool {
        var dashes = 0
        for offset in lines.start(of: line)..<lines.contentEnd(of: line, in: source) {
            switch source[offset] {
            case UInt8(ascii: "-"): dashes += 1
            case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ">"): continue
            default: return false
            }
        }
        return dashes > 0
    }

    /// Called once all of a node's descendants are in `nodes`.
    private mutating func finish(_ index: Int, quoteDepth: inout Int) {
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

    /// Whether the source lines of a block hold a backtick or a `<`, without which there is no
    /// code span and no inline HTML.
    private func mayHoldCodeOrHTML(_ range: SourceRange) -> Bool {
        mayHoldCodeOrHTML(from: lines.start(of: range.start.line), to: lines.next(after: max(range.start.line, range.end.line)))
    }

    /// Whether bytes `start..<end` of the source hold a backtick or a `<`.
    private func mayHoldCodeOrHTML(from start: Int, to end: Int) -> Bool {
        guard let base = source.baseAddress, end > start else { return false }
        return memchr(base + start, 0x60, end - start) != nil || memchr(base + start, 0x3C, end - start) != nil
    }

    /// Whether a node from `first` on (the inlines of the block just finished) is a code span or
    /// inline HTML.
    private func holdsCodeOrHTML(from first: Int) -> Bool {
        nodes.withUnsafeBufferPointer { nodes in
            for i in first..<nodes.count where nodes[i].kind == .code || nodes[i].kind == .htmlInline { return true }
            return false
        }
    }

    /// cmark ends some blocks at column 0 of the line after them; move such ends back to the last
    /// byte of the previous line.
    private mutating func normalizeBlockEnd(_ index: Int) {
        var range = nodes[index].range
        while range.end.column <= 0, range.end.line > range.start.line {
            let line = range.end.line - 1
            range.end = SourceLocation(
                line: line,
                column: lines.contentEnd(of: line, in: source) - lines.start(of: line)
            )
        }
        nodes[index].range = range
    }

    /// cmark-gfm ends an HTML block that closes on a later line (a multi-line `<!-- -->`) on its
    /// first line; its literal tells how many lines it really has.
    private mutating func extendHTMLBlockEnd(_ index: Int) {
        let counted: Int? = nodes[index].withLiteralBytes { bytes in
            guard let bytes else { return nil }
            var newlines = 0
            for byte in bytes where byte == 10 { newlines += 1 }
            if bytes.last != 10 { newlines += 1 }
            return newlines
        }
        guard let newlines = counted else { return }
        let range = nodes[index].range
        let lastLine = min(range.start.line + max(newlines - 1, 0), lines.lineCount)
        guard lastLine > range.end.line else { return }
        nodes[index].range.end = SourceLocation(
            line: lastLine,
            column: lines.contentEnd(of: lastLine, in: source) - lines.start(of: lastLine)
        )
    }

    /// The text of a byte string from the shim; `nil` when it is empty (see the shim's header on
    /// why both of its paths give the same bytes).
    private static func string(_ data: UnsafePointer<UInt8>?, _ length: Int) -> String? {
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: length), as: UTF8.self)
    }

    private static func kind(of type: UInt32, types: ExtensionTypes) -> MarkdownNodeKind {
        if type == types.table { return .table }
        if type == types.tableRow { return .tableRow }
        if type == types.tableCell { return .tableCell }
        if type == types.strikethrough { return .strikethrough }
        // The values of cmark_node_type (cmark-gfm.h): blocks 0x8001…, inlines 0xc001….
        switch type {
        case 0x8001: return .document
        case 0x8002: return .blockQuote
        case 0x8003: return .list
        case 0x8004: return .item
        case 0x8005: return .codeBlock
        case 0x8006: return .htmlBlock
        case 0x8007: return .customBlock
        case 0x8008: return .paragraph
        case 0x8009: return .heading
        case 0x800a: return .thematicBreak
        case 0x800b: return .footnoteDefinition
        case 0xc001: return .text
        case 0xc002: return .softBreak
        case 0xc003: return .lineBreak
        case 0xc004: return .code
        case 0xc005: return .htmlInline
        case 0xc006: return .customInline
        case 0xc007: return .emphasis
        case 0xc008: return .strong
        case 0xc009: return .link
        case 0xc00a: return .image
        case 0xc00b: return .footnoteReference
        default: return .other
        }
    }

    // MARK: - Inline positions

    /// Recomputes the source ranges of the inline nodes of one paragraph, heading or table cell.
    ///
    /// cmark-gfm positions inlines as (line of the subject, column relative to the last line ending
    /// the inline parser itself consumed, plus the paragraph's first-line indent). That is wrong on
    /// continuation lines whose container prefix differs from the first line's, after a code span or
    /// HTML tag that spans lines, after reference definitions, and for autolinks. Mapping each reported
    /// position back to an offset in cmark's paragraph content, and that offset to the source line it
    /// came from, recovers the exact position.
    private mutating func fixInlines(block: Int, quoteDepth: Int) {
        if nodes[block].range.start.line == nodes[block].range.end.line, fixSingleLine(block: block) { return }
        let first = block + 1
        let count = nodes.count - first
        raw.removeAll(keepingCapacity: true)
        // A repaired paragraph's inlines were placed from position 0:0 (0-based lines and
        // columns): seen from 1:1 they are ordinary subject positions.
        let repaired = repairedParagraph == block
        for index in first..<nodes.count {
            var range = nodes[index].range
            if repaired {
                range = SourceRange(range.start.line + 1, range.start.column + 1, range.end.line + 1, range.end.column + 1)
            }
            raw.append(range)
        }
        startOffsets.removeAll(keepingCapacity: true)
        startOffsets.append(contentsOf: repeatElement(-1, count: count))
        endOffsets.removeAll(keepingCapacity: true)
        endOffsets.append(contentsOf: repeatElement(-1, count: count))

        let blockRange = nodes[block].range
        let kind = nodes[block].kind
        let trusted = kind == .tableCell || (kind == .heading && blockRange.start.line == blockRange.end.line)
        let mapping: Mapping
        if trusted {
            mapping = .trusted
            buildSegments(firstLine: blockRange.start.line, lastLine: blockRange.start.line,
                          firstColumn: blockRange.start.column, quoteDepth: quoteDepth, skipped: 0)
            mapLeaves(first: first, mapping: mapping)
        } else {
            let startLine = blockRange.start.line
            let endLine = blockRange.end.line
            mapping = repaired ? .paragraph(startLine: 1, blockOffset: 0)
                : .paragraph(startLine: startLine, blockOffset: blockRange.start.column - 1)
            var breaks = 0
            for index in first..<nodes.count where nodes[index].kind == .softBreak || nodes[index].kind == .lineBreak {
                breaks += 1
            }
            let maxSkipped = kind == .paragraph ? min(endLine - startLine - breaks, 64) : 0
            var chosen = 0
            if maxSkipped > 0, opensWithBracket(line: startLine, column: blockRange.start.column) {
                // Reference definitions may have been cut from the front of the content; find how
                // many lines they took: the right guess puts text literals on their source bytes and
                // ends the last inline on the block's last line.
                var bestScore = Int.max
                for skipped in 0...maxSkipped {
                    buildSegments(firstLine: startLine, lastLine: endLine, firstColumn: blockRange.start.column,
                                  quoteDepth: quoteDepth, skipped: skipped)
                    let lastEnd = mapLeaves(first: first, mapping: mapping)
                    var score = textMismatches(first: first)
                    if lastEnd < 0 || lines.line(containing: lastEnd) != endLine { score += 1_000 }
                    if score < bestScore {
                        bestScore = score
                        chosen = skipped
                    }
                    if score == 0 { break }
                }
                if chosen != maxSkipped || bestScore != 0 {
                    buildSegments(firstLine: startLine, lastLine: endLine, firstColumn: blockRange.start.column,
                                  quoteDepth: quoteDepth, skipped: chosen)
                    mapLeaves(first: first, mapping: mapping)
                }
            } else {
                buildSegments(firstLine: startLine, lastLine: endLine, firstColumn: blockRange.start.column,
                              quoteDepth: quoteDepth, skipped: 0)
                mapLeaves(first: first, mapping: mapping)
            }
        }
        mapContainers(first: first, mapping: mapping)
        repairAutolinks(block: block, first: first)
        writeBack(first: first)
    }

    /// The common case: in a one-line block cmark's positions are exact except for code spans
    /// (content only) and autolinks. Returns false when the general path is needed.
    private mutating func fixSingleLine(block: Int) -> Bool {
        let line = nodes[block].range.start.line
        let lineStart = lines.start(of: line)
        for index in (block + 1)..<nodes.count {
            let range = nodes[index].range
            switch nodes[index].kind {
            case .code:
                guard range.start.line == line, range.end.line == line, range.start.column > 0 else { return false }
                var start = lineStart + range.start.column - 1
                var end = lineStart + range.end.column - 1
                guard start < source.count, end < source.count else { return false }
                var fence = 0
                while start > lineStart, source[start - 1] == UInt8(ascii: "`") {
                    start -= 1
                    fence += 1
                }
                var closing = 0
                while closing < fence, end + 1 < source.count, source[end + 1] == UInt8(ascii: "`") {
                    end += 1
                    closing += 1
                }
                nodes[index].range = SourceRange(line, start - lineStart + 1, line, end - lineStart + 1)
            case .link, .image:
                guard range.start.line == line, range.start.column > 0 else { return false }
                let start = lineStart + range.start.column - 1
                let opener = nodes[index].kind == .link ? UInt8(ascii: "[") : UInt8(ascii: "!")
                guard start < source.count, source[start] == opener else { return false }
            default:
                guard range.start.line == line, range.start.column > 0 else { return false }
            }
        }
        return true
    }

    /// How many text leaves do not start with their literal's first bytes at their mapped position.
    private func textMismatches(first: Int) -> Int {
        var mismatches = 0
        for slot in 0..<raw.count where nodes[first + slot].kind == .text {
            let start = startOffsets[slot]
            guard start >= 0 else { continue }
            let mismatch = nodes[first + slot].withLiteralBytes { bytes -> Bool in
                guard let bytes else { return false }
                var offset = start
                for byte in bytes.prefix(8) {
                    if offset >= source.count || source[offset] != byte { return true }
                    offset += 1
                }
                return false
            }
            if mismatch { mismatches += 1 }
        }
        return mismatches
    }

    private enum Mapping {
        /// Positions are (subject line, column relative to the last consumed line ending).
        case paragraph(startLine: Int, blockOffset: Int)
        /// Positions are already absolute (single-line blocks: table cells, ATX headings).
        case trusted
    }

    private func opensWithBracket(line: Int, column: Int) -> Bool {
        let offset = lines.start(of: line) + column - 1
        return offset < source.count && source[offset] == UInt8(ascii: "[")
    }

    /// Splits the block's lines into content segments, the way cmark built the paragraph content:
    /// each continuation line starts at its first non-blank byte after the container prefix.
    private mutating func buildSegments(firstLine: Int, lastLine: Int, firstColumn: Int, quoteDepth: Int, skipped: Int) {
        segments.removeAll(keepingCapacity: true)
        var content = 0
        let from = firstLine + skipped
        let to = min(max(from, lastLine), lines.lineCount)
        guard from <= to else {
            segments.append(Segment(line: firstLine, source: min(lines.start(of: firstLine) + firstColumn - 1, source.count), content: 0))
            return
        }
        for line in from...to {
            let next = lines.next(after: line)
            let start: Int
            if line == firstLine {
                start = min(lines.start(of: line) + max(firstColumn - 1, 0), next)
            } else {
                start = contentStart(of: line, quoteDepth: quoteDepth)
            }
            segments.append(Segment(line: line, source: start, content: content))
            content += next - start
        }
    }

    /// The first byte of paragraph content on a continuation line: after up to `quoteDepth` `>`
    /// markers (fewer on a lazy line) and any blanks.
    private func contentStart(of line: Int, quoteDepth: Int) -> Int {
        var offset = lines.start(of: line)
        let end = lines.contentEnd(of: line, in: source)
        var markers = quoteDepth
        while true {
            var probe = offset
            while probe < end, source[probe] == 32 || source[probe] == 9 { probe += 1 }
            if markers > 0, probe < end, source[probe] == UInt8(ascii: ">"), probe - offset <= 3 {
                offset = probe + 1
                markers -= 1
                continue
            }
            return probe
        }
    }

    /// The source offset of paragraph-content offset `content`.
    private func sourceOffset(ofContent content: Int) -> (offset: Int, segment: Int) {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].content <= content { low = mid } else { high = mid - 1 }
        }
        let segment = segments[low]
        let offset = segment.source + max(content - segment.content, 0)
        return (min(offset, max(source.count - 1, 0)), low)
    }

    /// The source offset of a position cmark reported, or -1 when it reported none.
    private func offset(line: Int, column: Int, mapping: Mapping) -> (offset: Int, segment: Int) {
        guard line > 0, column > 0 else { return (-1, 0) }
        switch mapping {
        case .trusted:
            return (min(lines.start(of: line) + column - 1, max(source.count - 1, 0)), 0)
        case let .paragraph(startLine, blockOffset):
            let handled = min(max(line - startLine, 0), bases.count - 1)
            return sourceOffset(ofContent: max(bases[handled] + column - 1 - blockOffset, 0))
        }
    }

    /// Maps leaves and line breaks; returns the largest end offset seen.
    @discardableResult
    private mutating func mapLeaves(first: Int, mapping: Mapping) -> Int {
        bases.removeAll(keepingCapacity: true)
        bases.append(0)
        var segment = 0
        var lastEnd = -1
        for slot in 0..<raw.count {
            switch nodes[first + slot].kind {
            case let kind where kind == .softBreak || kind == .lineBreak:
                let line = segments[segment].line
                let lineEnd = lines.contentEnd(of: line, in: source)
                startOffsets[slot] = lineEnd
                endOffsets[slot] = lineEnd
                // cmark's inline parser counts the line ending of a soft break or a two-space break,
                // but not the one after a backslash break: positions after it stay on the old line.
                if kind == .lineBreak, lineEnd > 0, source[lineEnd - 1] == UInt8(ascii: "\\") { continue }
                if segment + 1 < segments.count { segment += 1 }
                bases.append(segments[segment].content)
            case .emphasis, .strong, .link, .image, .strikethrough:
                continue
            case let kind:
                let range = raw[slot]
                let start = offset(line: range.start.line, column: range.start.column, mapping: mapping)
                guard start.offset >= 0 else {
                    startOffsets[slot] = -1
                    continue
                }
                let end = offset(line: range.end.line, column: range.end.column, mapping: mapping)
                var startOffset = start.offset
                var endOffset = max(end.offset, startOffset)
                if kind == .code {
                    // cmark reports the content only; widen to the backtick fences.
                    var fence = 0
                    while startOffset > 0, source[startOffset - 1] == UInt8(ascii: "`") {
                        startOffset -= 1
                        fence += 1
                    }
                    var closing = 0
                    while closing < fence, endOffset + 1 < source.count, source[endOffset + 1] == UInt8(ascii: "`") {
                        endOffset += 1
                        closing += 1
                    }
                }
                startOffsets[slot] = startOffset
                endOffsets[slot] = endOffset
                if case .paragraph = mapping { segment = max(segment, end.segment) }
                lastEnd = max(lastEnd, endOffset)
            }
        }
        return lastEnd
    }

    /// Maps emphasis, strong, strikethrough, links and images; marks extension autolinks with -2.
    private mutating func mapContainers(first: Int, mapping: Mapping) {
        for slot in 0..<raw.count {
            let kind = nodes[first + slot].kind
            guard kind == .emphasis || kind == .strong || kind == .link || kind == .image || kind == .strikethrough else {
                continue
            }
            let range = raw[slot]
            if kind == .link || kind == .image {
                guard range.start.line > 0, range.start.column > 0 else {
                    startOffsets[slot] = -2
                    continue
                }
                // cmark takes the start column from the opening bracket but the line from the closing
                // one; the first child sits on the bracket's line.
                var startLine = range.start.line
                let child = nodes[first + slot].firstChild.map { $0 - first }
                if let child, raw[child].start.line > 0 { startLine = raw[child].start.line }
                let start = offset(line: startLine, column: range.start.column, mapping: mapping).offset
                let end = offset(line: range.end.line, column: range.end.column, mapping: mapping).offset
                let opener = kind == .link ? UInt8(ascii: "[") : UInt8(ascii: "!")
                if start >= 0, start < source.count, source[start] == opener {
                    startOffsets[slot] = start
                    endOffsets[slot] = max(end, start)
                } else if let child, startOffsets[child] > 0, source[startOffsets[child] - 1] == UInt8(ascii: "<") {
                    // `<http://…>` and `<a@b.c>`: the text child is right, the link is not.
                    startOffsets[slot] = startOffsets[child] - 1
                    endOffsets[slot] = min(endOffsets[child] + 1, source.count - 1)
                } else {
                    startOffsets[slot] = -2
                }
            } else {
                let start = offset(line: range.start.line, column: range.start.column, mapping: mapping).offset
                let end = offset(line: range.end.line, column: range.end.column, mapping: mapping).offset
                startOffsets[slot] = start
                endOffsets[slot] = max(end, start)
            }
        }
    }

    /// Places the extension's autolinks (and the text the extension split off around them) by
    /// finding their text in the source after the previous sibling.
    private mutating func repairAutolinks(block: Int, first: Int) {
        let blockEnd: Int = {
            let end = nodes[block].range.end
            return min(lines.start(of: end.line) + max(end.column, 1), source.count)
        }()
        let blockStart = segments.first?.source ?? lines.start(of: nodes[block].range.start.line)
        for slot in 0..<raw.count {
            let index = first + slot
            let state = startOffsets[slot]
            if state >= 0 { continue }
            let previous = previousSibling(of: index)
            let previousStart = previous.map { startOffsets[$0 - first] } ?? -1
            let previousEnd = previous.map { endOffsets[$0 - first] } ?? -1
            let parentStart: Int = {
                guard let parent = nodes[index].parent, parent > block else { return blockStart }
                return max(startOffsets[parent - first], blockStart)
            }()
            let after = previousEnd >= 0 ? previousEnd + 1 : parentStart
            if state == -2 {
                let text = nodes[index].firstChild.flatMap { nodes[$0].literal } ?? (nodes[index].url ?? "")
                let searchFrom = previousStart >= 0 ? previousStart : parentStart
                let found = find(text, from: searchFrom, before: blockEnd) ?? after
                let end = min(found + max(text.utf8.count, 1) - 1, max(source.count - 1, 0))
                var descendant = index
                while descendant < nodes[index].subtreeEnd, descendant < nodes.count {
                    startOffsets[descendant - first] = found
                    endOffsets[descendant - first] = end
                    descendant += 1
                }
            } else {
                let length = max(nodes[index].literal?.utf8.count ?? 1, 1)
                let start = min(after, max(source.count - 1, 0))
                startOffsets[slot] = start
                endOffsets[slot] = min(start + length - 1, max(source.count - 1, 0))
            }
        }
        // Text the extension shortened keeps its old end; cut it at the next sibling.
        for slot in 0..<raw.count where nodes[first + slot].kind == .text {
            guard let next = nodes[first + slot].nextSibling else { continue }
            let nextStart = startOffsets[next - first]
            if nextStart >= 0, nextStart <= endOffsets[slot] {
                endOffsets[slot] = max(nextStart - 1, startOffsets[slot])
            }
        }
    }

    private func previousSibling(of index: Int) -> Int? {
        guard let parent = nodes[index].parent, var child = nodes[parent].firstChild, child != index else {
            return nil
        }
        while let next = nodes[child].nextSibling {
            if next == index { return child }
            child = next
        }
        return nil
    }

    private func find(_ text: String, from: Int, before end: Int) -> Int? {
        let needle = Array(text.utf8)
        guard let head = needle.first, from >= 0, end - from >= needle.count else { return nil }
        var position = from
        while position + needle.count <= end {
            if source[position] == head {
                var matched = 1
                while matched < needle.count, source[position + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return position }
            }
            position += 1
        }
        return nil
    }

    private mutating func writeBack(first: Int) {
        var hint = nodes[first - 1].range.start.line
        for slot in 0..<raw.count {
            let start = startOffsets[slot]
            guard start >= 0 else { continue }
            let end = max(endOffsets[slot], start)
            let startLine = lines.line(containing: start, hint: hint)
            let endLine = lines.line(containing: end, hint: startLine)
            hint = startLine
            nodes[first + slot].range = SourceRange(
                startLine, start - lines.start(of: startLine) + 1,
                endLine, end - lines.start(of: endLine) + 1
            )
        }
    }
}
