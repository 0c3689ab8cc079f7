/// A parsed Markdown document: a flat, pre-order array of ``MarkdownNode`` values.
///
/// Parsing runs cmark-gfm, copies every node into Swift values and frees the C tree before the
/// initializer returns; the document holds no C memory and can be shared freely between threads.
/// `nodes[0]` is the document; every node's descendants follow it directly
/// (`nodes[index + 1 ..< node.subtreeEnd]`). cmark moves footnote definitions to the end of the
/// document, so tree order is source order except for them.
public struct MarkdownDocument: Sendable {
    /// All nodes in pre-order (document order); `nodes[0]` is the document.
    public var nodes: [MarkdownNode]

    /// Parses UTF-8 Markdown.
    ///
    /// A UTF-8 byte order mark at the start is skipped (line 1's columns do not count it) and NUL
    /// bytes are replaced by U+FFFD, as cmark does itself. Any byte sequence is accepted.
    /// - Parameters:
    ///   - bytes: the Markdown source (for a note, the body after its front matter).
    ///   - options: the GFM extensions to enable.
    ///   - lineOffset: added to every line number, so ranges refer to lines of the whole file.
    public init(parsing bytes: some Collection<UInt8>, options: MarkdownParseOptions = .default, lineOffset: Int = 0) {
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            Self.parse(buffer, options: options, lineOffset: lineOffset)
        }
        if let parsed {
            nodes = parsed
        } else {
            let copy = Array(bytes)
            nodes = copy.withUnsafeBufferPointer { Self.parse($0, options: options, lineOffset: lineOffset) }
        }
    }

    /// Parses UTF-8 Markdown from raw memory; see the byte-collection initializer.
    /// The memory is only read during the call.
    public init(parsing buffer: UnsafeRawBufferPointer, options: MarkdownParseOptions = .default, lineOffset: Int = 0) {
        nodes = Self.parse(buffer.bindMemoryIfPossible(), options: options, lineOffset: lineOffset)
    }

    /// Parses a Markdown string; see the byte-collection initializer.
    public init(parsing text: String, options: MarkdownParseOptions = .default, lineOffset: Int = 0) {
        var text = text
        let parsed = text.withUTF8 { Self.parse($0, options: options, lineOffset: lineOffset) }
        nodes = parsed
    }

    /// The document node.
    public var root: MarkdownNode { nodes[0] }

    /// Whether parses take the fast path: cmark-gfm's node structs read directly, the inlines of
    /// bare paragraphs left unparsed (``MarkdownParseOptions/bareProseParagraphs``) and an arena
    /// allocator per thread. It is built only against the cmark-gfm version it was written for;
    /// with any other (or when forced at build time), cmark's public API is used. Both give the
    /// same documents; the fast path is quicker.
    public static var usesFastPath: Bool { CmarkRuntime.fastPath }

    /// The version of the cmark-gfm library in use, such as `0.29.0.gfm.6` (`quire doctor`).
    public static var libraryVersion: String { CmarkRuntime.version }

    /// The indices of the children of `nodes[index]`, in order.
    public func children(of index: Int) -> some Sequence<Int> {
        let nodes = self.nodes
        return sequence(state: nodes[index].firstChild) { next -> Int? in
            guard let current = next else { return nil }
            next = nodes[current].nextSibling
            return current
        }
    }

    /// The text of the inline content under `nodes[index]`: text and code span literals,
    /// soft and hard breaks as `"\n"`; markup, HTML and footnote references are dropped, so
    /// `**bold** and `code`` gives `bold and code`. Works for blocks too (their paragraphs are
    /// joined by `"\n"`).
    public func plainText(of index: Int) -> String {
        var result = ""
        let node = nodes[index]
        var position = index
        var lastBlockWithText: Int?
        while position < node.subtreeEnd {
            let current = nodes[position]
            switch current.kind {
            case .text, .code:
                if let owner = owningBlock(of: position), owner != lastBlockWithText {
                    if lastBlockWithText != nil { result += "\n" }
                    lastBlockWithText = owner
                }
                result += current.literal ?? ""
            case .softBreak, .lineBreak:
                result += "\n"
            case .codeBlock:
                if lastBlockWithText != nil { result += "\n" }
                lastBlockWithText = position
                var literal = current.literal ?? ""
                if literal.hasSuffix("\n") { literal.removeLast() }
                result += literal
            default:
                break
            }
            position += 1
        }
        return result
    }

    private func owningBlock(of index: Int) -> Int? {
        var current = nodes[index].parent
        while let parent = current {
            if nodes[parent].kind.isBlock { return parent }
            current = nodes[parent].parent
        }
        return nil
    }

    /// Walks the tree in document order; see ``MarkdownWalker``. Iterative: nesting depth is
    /// not limited by the stack.
    public func walk<W: MarkdownWalker>(_ walker: inout W) {
        var open: [Int] = []
        var index = 0
        while index < nodes.count {
            while let top = open.last, nodes[top].subtreeEnd <= index {
                open.removeLast()
                walker.leave(nodes[top], at: top, in: self)
            }
            let node = nodes[index]
            switch walker.visit(node, at: index, in: self) {
            case .visitChildren:
                open.append(index)
                index += 1
            case .skipChildren:
                walker.leave(node, at: index, in: self)
                index = node.subtreeEnd
            }
        }
        while let top = open.popLast() {
            walker.leave(nodes[top], at: top, in: self)
        }
    }

    // MARK: - Parsing

    private static func parse(_ input: UnsafeBufferPointer<UInt8>, options: MarkdownParseOptions, lineOffset: Int) -> [MarkdownNode] {
        let parsed = CmarkParse.withPreparedInput(input) { MarkdownConverter.convert($0, options: options) }
        var nodes = parsed.result
        let bomShift = parsed.bomLength
        if bomShift != 0 || lineOffset != 0 {
            for index in nodes.indices {
                var range = nodes[index].range
                if range.start.line == 1 { range.start.column += bomShift }
                if range.end.line == 1 { range.end.column += bomShift }
                range.start.line += lineOffset
                range.end.line += lineOffset
                nodes[index].range = range
            }
        }
        return nodes
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func bindMemoryIfPossible() -> UnsafeBufferPointer<UInt8> {
        guard let base = baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }
}
