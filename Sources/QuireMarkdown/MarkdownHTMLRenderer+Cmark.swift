internal import CCmarkGFM
internal import CCmarkGFMShim

// MARK: - Rendering with cmark-gfm
//
// The renderer's only calls into cmark-gfm and the shim: one parse, the marks turned into custom
// inline nodes, cmark's HTML renderer, all within renderHTML(_:).

extension MarkdownHTMLRenderer {
    /// The HTML of `text` (prepared by ``CmarkParse/withPreparedInput(_:_:)``, within the limits).
    func renderHTML(_ text: UnsafeBufferPointer<UInt8>) -> String {
        let options = MarkdownParseOptions.default
        let html: String? = CmarkParse.run(text, options: options, memory: .cmarkDefault, beforeFinish: { _ in }) {
            parser, document in
            // cmark leaves text split wherever a character might have started markup; one text
            // node per run lets a mark be found whole.
            cmark_consolidate_text_nodes(document)
            for container in Self.inlineContainers(under: document) {
                replaceMarks(in: container.node, findsWikilinks: !container.isInsideLink)
            }
            let renderOptions = (allowsRawHTML ? Int32(CMARK_OPT_UNSAFE) : 0) | (lineBreaks ? Int32(CMARK_OPT_HARDBREAKS) : 0)
            let allocator = cmark_get_default_mem_allocator()
            guard let rendered = cmark_render_html_with_mem(
                document, renderOptions, cmark_parser_get_syntax_extensions(parser), allocator
            ) else { return "" }
            defer { allocator?.pointee.free(UnsafeMutableRawPointer(rendered)) }
            return String(cString: rendered)
        }
        return html ?? ""
    }

    /// Every node whose children are inlines, children before parents (so that replacing the marks of
    /// a container never frees one still to be visited), and whether it is inside a link. Images
    /// are left out with their contents: their text becomes an `alt` attribute.
    private static func inlineContainers(under root: OpaquePointer) -> [(node: OpaquePointer, isInsideLink: Bool)] {
        var containers: [(node: OpaquePointer, isInsideLink: Bool)] = []
        var links = 0  // links entered and not yet left
        var node = root
        descend: while true {
            let type = cmark_node_get_type(node)
            if type != CMARK_NODE_IMAGE, let child = cmark_node_first_child(node) {
                if type == CMARK_NODE_LINK { links += 1 }
                node = child
                continue
            }
            // `node` has no children to visit: climb, leaving the nodes whose last child is done.
            var current = node
            while current != root {
                if let next = cmark_node_next(current) {
                    node = next
                    continue descend
                }
                guard let parent = cmark_node_parent(current) else { break descend }
                current = parent
                let type = cmark_node_get_type(current)
                if type == CMARK_NODE_LINK { links -= 1 }
                if isInline(cmark_node_first_child(current)) {
                    containers.append((current, links > 0 || type == CMARK_NODE_LINK))
                }
            }
            break
        }
        return containers
    }

    private static func isInline(_ node: OpaquePointer?) -> Bool {
        guard let node else { return false }
        return cmark_node_get_type(node).rawValue & 0xC000 == 0xC000
    }

    /// Finds the marks among `container`'s children and, when one renders as more than its text,
    /// rebuilds the children with custom inline nodes for the marks.
    private func replaceMarks(in container: OpaquePointer, findsWikilinks: Bool) {
        var children: [OpaquePointer] = []
        var child = cmark_node_first_child(container)
        while let current = child {
            children.append(current)
            child = cmark_node_next(current)
        }
        var marks = InlineMarks(findsWikilinks: findsWikilinks)
        var index = 0
        while index < children.count {
            let node = children[index]
            if cmark_node_get_type(node) == CMARK_NODE_TEXT {
                var length = 0
                let literal = quire_node_literal(node, &length)
                marks.addText(UnsafeBufferPointer(start: literal, count: literal == nil ? 0 : length))
            } else {
                if marks.isInsideMark, let rest = Self.shortenAutolink(node, marks: marks) {
                    children.insert(rest, at: index + 1)
                }
                marks.addNode(index)
            }
            index += 1
        }
        guard rendersAny(marks) else { return }
        rebuild(container, children: children, marks: marks)
    }

    /// Whether any of the marks renders as more than its text.
    private func rendersAny(_ marks: InlineMarks) -> Bool {
        if marks.marks.contains(where: renders) { return true }
        return marks.items.contains {
            switch $0 {
            case .wikilink: wikilinkURL != nil
            case .embed: embedHTML != nil
            default: false
            }
        }
    }

    /// An autolink that swallowed an open mark's closer (``InlineMarks/cut(in:)``) ends before
    /// it; the rest becomes a text node after the link, which is returned. Only links whose
    /// destination ends with their one text child, as the autolink extension makes them.
    private static func shortenAutolink(_ link: OpaquePointer, marks: InlineMarks) -> OpaquePointer? {
        guard cmark_node_get_type(link) == CMARK_NODE_LINK, let textNode = cmark_node_first_child(link),
              cmark_node_next(textNode) == nil, cmark_node_get_type(textNode) == CMARK_NODE_TEXT,
              let textPointer = cmark_node_get_literal(textNode), let urlPointer = cmark_node_get_url(link) else {
            return nil
        }
        let text = Array(String(cString: textPointer).utf8)
        let url = Array(String(cString: urlPointer).utf8)
        guard url.count >= text.count, url.suffix(text.count).elementsEqual(text), let cut = marks.cut(in: text),
              let rest = cmark_node_new(CMARK_NODE_TEXT) else {
            return nil
        }
        setLiteral(rest, text[cut...])
        guard cmark_node_insert_after(link, rest) != 0 else {
            cmark_node_free(rest)
            return nil
        }
        setLiteral(textNode, text[..<cut])
        (Array(url.dropLast(text.count - cut)) + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_url(link, $0.baseAddress) }
        }
        return rest
    }

    // MARK: Rebuilding a container

    /// Where content goes while the container is rebuilt.
    private enum Sink {
        case node(OpaquePointer)
        /// A hidden answer or a hint not shown: its nodes are freed.
        case discard
    }

    /// Replaces `container`'s children by what `marks.items` say, in order.
    private func rebuild(_ container: OpaquePointer, children: [OpaquePointer], marks: InlineMarks) {
        // Take the children out; text nodes are rebuilt from the bytes `marks` holds.
        for child in children {
            cmark_node_unlink(child)
            if cmark_node_get_type(child) == CMARK_NODE_TEXT { cmark_node_free(child) }
        }
        var build = Rebuild(container: container, bytes: marks.bytes)
        for item in marks.items {
            switch item {
            case .text(let range):
                build.write(range)
            case .node(let index):
                build.flush()
                if case .node(let parent)? = build.sinks.last, Self.append(children[index], to: parent) { continue }
                cmark_node_free(children[index])
            case .wikilink(let link, let range):
                addWikilink(link, source: range, to: &build)
            case .embed(let link, let range):
                if case .node? = build.sinks.last, let html = embedHTML?(link) {
                    _ = build.custom(html, "")
                } else if case .node? = build.sinks.last {
                    build.write(range)
                }
            case .open(let index):
                open(index, of: marks, in: &build)
            case .separator(let index):
                let mark = marks.marks[index]
                guard renders(mark) else {
                    if let separator = mark.separator { build.write(separator) }
                    continue
                }
                build.pop()
                if case .cloze(let number) = mark.kind, role(ofCloze: number) == .hidden, let span = build.spans[index] {
                    Self.appendText("[".utf8[...], to: span)
                    build.push(span)
                } else {
                    build.push(nil)
                }
            case .close(let index):
                let mark = marks.marks[index]
                guard renders(mark) else {
                    if let closer = mark.closer { build.write(closer) }
                    continue
                }
                build.pop()
                if case .cloze(let number) = mark.kind, role(ofCloze: number) == .hidden, let span = build.spans[index] {
                    Self.appendText((mark.separator == nil ? "[...]" : "]").utf8[...], to: span)
                }
            }
        }
        build.flush()
    }

    /// A wikilink as a link (or a missing page's span) when the renderer links them, else its
    /// source text.
    private func addWikilink(_ link: MarkdownWikilink, source range: Range<Int>, to build: inout Rebuild) {
        guard let wikilinkURL else {
            build.write(range)
            return
        }
        // A link in a hidden answer or an unshown hint is not asked about.
        guard case .node? = build.sinks.last else { return }
        let url = wikilinkURL(link)
        let element = url.map { $0.isEmpty ? ("<span class=\"wikilink\">", "</span>") : ("<a class=\"wikilink\" href=\"\(hrefAttribute($0))\">", "</a>") }
            ?? ("<span class=\"wikilink missing\">", "</span>")
        if let node = build.custom(element.0, element.1) { Self.appendText(link.label.utf8[...], to: node) }
    }

    /// Opens mark `index`: a `<mark>`, a cloze's span (its answer discarded when hidden), or,
    /// when it renders as its text, its opener.
    private func open(_ index: Int, of marks: InlineMarks, in build: inout Rebuild) {
        let mark = marks.marks[index]
        guard renders(mark) else {
            build.write(mark.opener)
            return
        }
        switch mark.kind {
        case .highlight:
            build.push(build.custom("<mark>", "</mark>"))
        case .cloze(let number):
            switch role(ofCloze: number) {
            case .hidden:
                build.spans[index] = build.custom("<span class=\"cloze\">", "</span>")
                build.push(nil)
            case .revealed:
                let span = build.custom("<span class=\"cloze\">", "</span>")
                build.spans[index] = span
                build.push(span)
            case .other:
                // Its answer is plain content where it stands.
                if case .node(let parent)? = build.sinks.last { build.push(parent) } else { build.push(nil) }
            }
        }
    }

    /// Where a container's rebuilding stands: the sinks content goes to, the text not yet
    /// appended, and the cloze spans made.
    private struct Rebuild {
        /// The bytes the marks' ranges are in.
        let bytes: [UInt8]
        /// Where content goes, innermost last; the container at the bottom.
        var sinks: [Sink]
        /// Text written and not yet appended as a node.
        var pending: [UInt8] = []
        /// The span of a hidden or revealed cloze, by mark index.
        var spans: [Int: OpaquePointer] = [:]

        /// A rebuild of `container`, whose marks' ranges are in `bytes`.
        init(container: OpaquePointer, bytes: [UInt8]) {
            self.bytes = bytes
            sinks = [.node(container)]
        }

        /// Appends the pending text to the current sink as one text node.
        mutating func flush() {
            guard !pending.isEmpty else { return }
            if case .node(let parent)? = sinks.last { MarkdownHTMLRenderer.appendText(pending[...], to: parent) }
            pending.removeAll(keepingCapacity: true)
        }

        /// Writes `bytes[range]` as text, unless the content is discarded.
        mutating func write(_ range: Range<Int>) {
            if case .node? = sinks.last { pending += bytes[range] }
        }

        /// A custom inline node under the current sink, or nil when the content is discarded.
        mutating func custom(_ onEnter: String, _ onExit: String) -> OpaquePointer? {
            flush()
            guard case .node(let parent)? = sinks.last else { return nil }
            return MarkdownHTMLRenderer.appendCustom(onEnter, onExit, to: parent)
        }

        /// Sends content into `node`, or discards it when nil.
        mutating func push(_ node: OpaquePointer?) {
            flush()
            sinks.append(node.map { .node($0) } ?? .discard)
        }

        /// Sends content back where it went before the last push.
        mutating func pop() {
            flush()
            if sinks.count > 1 { sinks.removeLast() }
        }
    }

    /// What a cloze is on the card being rendered.
    private enum ClozeRole {
        case hidden, revealed, other
    }

    private func role(ofCloze number: Int) -> ClozeRole {
        switch clozes {
        case .hidden(number: number): return .hidden
        case .revealed(number: number): return .revealed
        default: return .other
        }
    }

    /// Appends a text node holding `bytes` to `parent`.
    private static func appendText<Bytes: Collection<UInt8>>(_ bytes: Bytes, to parent: OpaquePointer) {
        guard !bytes.isEmpty, let node = cmark_node_new(CMARK_NODE_TEXT) else { return }
        setLiteral(node, bytes)
        if !append(node, to: parent) { cmark_node_free(node) }
    }

    /// Appends a custom inline node that writes `onEnter` and `onExit` around its children.
    private static func appendCustom(_ onEnter: String, _ onExit: String, to parent: OpaquePointer) -> OpaquePointer? {
        guard let node = cmark_node_new(CMARK_NODE_CUSTOM_INLINE) else { return nil }
        cmark_node_set_on_enter(node, onEnter)
        cmark_node_set_on_exit(node, onExit)
        guard append(node, to: parent) else {
            cmark_node_free(node)
            return nil
        }
        return node
    }

    /// Appends `node` to `parent`'s children. cmark-gfm's table extension lets a cell hold only
    /// the inline kinds it knows, and cmark checks what a node may hold only when a child is
    /// linked in; so a cell refusing a custom inline node is lent an extension that accepts any
    /// inline while the node goes in, and gets the table extension back at once.
    private static func append(_ node: OpaquePointer, to parent: OpaquePointer) -> Bool {
        if cmark_node_append_child(parent, node) != 0 { return true }
        guard let host = InlineHost.shared.extension else { return false }
        let own = cmark_node_get_syntax_extension(parent)
        cmark_node_set_syntax_extension(parent, host)
        defer { cmark_node_set_syntax_extension(parent, own) }
        return cmark_node_append_child(parent, node) != 0
    }

    private static func setLiteral<Bytes: Collection<UInt8>>(_ node: OpaquePointer, _ bytes: Bytes) {
        (Array(bytes) + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = cmark_node_set_literal(node, $0.baseAddress) }
        }
    }
}

/// A syntax extension whose nodes may hold any inline node; see `append(_:to:)`. Made once,
/// never attached to a parser and never freed (cmark's registered extensions live as long).
private struct InlineHost: @unchecked Sendable {
    let `extension`: OpaquePointer?

    static let shared: InlineHost = {
        guard let host = cmark_syntax_extension_new("quire-inline-host") else { return InlineHost(extension: nil) }
        cmark_syntax_extension_set_can_contain_func(host) { _, _, type in
            type.rawValue & 0xC000 == 0xC000 ? 1 : 0
        }
        return InlineHost(extension: host)
    }()
}
