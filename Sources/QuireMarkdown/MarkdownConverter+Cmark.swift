internal import CCmarkGFM
internal import CCmarkGFMShim

// MARK: - Reading cmark's trees
//
// The converter's only calls into cmark-gfm and the shim: the walks over cmark's trees and the
// reading of node fields. The rest of the converter works on Swift values and the source bytes.

extension MarkdownConverter {
    /// Before cmark parses inlines (fast path of the shim only): has cmark leave unparsed the
    /// inlines of each paragraph of the block tree that ``leavesInlinesUnparsed(firstLine:lastLine:open:lastLineUnended:)``
    /// picks. Stops at the first paragraph the shim cannot mark (public-API path).
    func leaveBareParagraphsUnparsed(_ parser: OpaquePointer) {
        guard let root = quire_parser_block_root(parser) else { return }
        let lastLineUnended = source.last.map { $0 != 10 && $0 != 13 } ?? false
        var node = root
        var fields = quire_node_fields()
        quire_node_read(node, &fields)
        while true {
            if fields.type == 0x8008 {  // a paragraph (see CmarkRuntime.NodeTypes.kind(of:))
                if leavesInlinesUnparsed(firstLine: Int(fields.start_line), lastLine: Int(fields.end_line),
                                         open: fields.open != 0, lastLineUnended: lastLineUnended),
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

    /// Copies the finished tree under `root` into `nodes`, in pre-order.
    mutating func traverse(root: OpaquePointer, types: CmarkRuntime.NodeTypes) {
        // Open nodes: their index and the index of their last child so far (-1: none).
        var open: [(index: Int, lastChild: Int)] = []
        open.reserveCapacity(32)
        var quoteDepth = 0
        var node = root
        var fields = quire_node_fields()
        quire_node_read(node, &fields)

        descend: while true {
            let parent = open.last?.index ?? -1
            if let index = enter(node, fields, parent: parent, types: types) {
                if let top = open.last {
                    if top.lastChild >= 0 {
                        nodes[top.lastChild].nextSibling = index
                    } else {
                        nodes[top.index].firstChild = index
                    }
                    open[open.count - 1].lastChild = index
                }
                if nodes[index].kind == .blockQuote { quoteDepth += 1 }
                // A bare prose paragraph (``MarkdownParseOptions/bareProseParagraphs``) gets no
                // inline nodes. (Tested here rather than in a method: a method of the converter
                // called from this mutating loop would be handed a copy of it for every node.)
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
        _ node: OpaquePointer, _ fields: quire_node_fields, parent: Int, types: CmarkRuntime.NodeTypes
    ) -> Int? {
        let kind = types.kind(of: fields.type)
        let range = SourceRange(
            Int(fields.start_line), Int(fields.start_column), Int(fields.end_line), Int(fields.end_column)
        )
        var value = MarkdownNode(kind: kind, range: range)
        if parent >= 0 { value.parent = parent }
        repairTableRanges(&value, cmarkRange: range, parent: parent)
        if kind == .paragraph {
            paragraph = (nodes.count, node)
            if range.start.line <= 0 { repairParagraphBeforeTable(&value, following: Self.block(after: node)) }
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

    /// What ``repairParagraphBeforeTable(_:following:)`` needs to know of the block after a
    /// paragraph. Rare, so cmark's public getters serve (on either path of the shim).
    private static func block(after paragraph: OpaquePointer) -> FollowingBlock? {
        guard let block = cmark_node_next(paragraph) else { return nil }
        var children = 0
        var child = cmark_node_first_child(block)
        while let current = child {
            children += 1
            child = cmark_node_next(current)
        }
        return FollowingBlock(
            start: SourceLocation(line: Int(cmark_node_get_start_line(block)), column: Int(cmark_node_get_start_column(block))),
            end: SourceLocation(line: Int(cmark_node_get_end_line(block)), column: Int(cmark_node_get_end_column(block))),
            children: children
        )
    }

    /// How many lines the content of paragraph `nodes[index]` had when cmark parsed its inlines,
    /// or nil when the paragraph is not the one being traversed. The content is the paragraph's
    /// text after cmark took out the link reference definitions opening it; each of its lines
    /// keeps its line ending (`\n`, `\r\n` or `\r`). Rare, so cmark's public getter serves.
    func paragraphContentLines(_ index: Int) -> Int? {
        guard let paragraph, paragraph.index == index else { return nil }
        guard let content = cmark_node_get_string_content(paragraph.node) else { return 0 }
        var count = 0
        while content[count] != 0 { count += 1 }
        return content.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            var lines = 0
            var i = 0
            while i < count {
                if bytes[i] == 10 {
                    lines += 1
                } else if bytes[i] == 13 {
                    lines += 1
                    if i + 1 < count, bytes[i + 1] == 10 { i += 1 }
                }
                i += 1
            }
            if count > 0, bytes[count - 1] != 10, bytes[count - 1] != 13 { lines += 1 }
            return lines
        }
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

    /// The text of a byte string from the shim; `nil` when it is empty (see the shim's header on
    /// why both of its paths give the same bytes).
    private static func string(_ data: UnsafePointer<UInt8>?, _ length: Int) -> String? {
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
