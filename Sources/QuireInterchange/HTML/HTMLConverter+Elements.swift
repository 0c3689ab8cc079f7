/// The elements: opened and closed, blocks, lists, cells, marks, code, math and media.
extension HTMLConverter {
    // MARK: Elements

    mutating func openElement(_ tag: StartTag) {
        let name = tag.name
        switch name {
        case "br":
            lineBreak()
            return
        case "img":
            image(tag)
            return
        case "hr":
            horizontalRule()
            return
        default:
            if voidElements.contains(name) { return }
        }
        guard frames.count < HTMLToMarkdown.maximumNestingDepth else { return }
        switch name {
        case "b", "strong":
            openMark(name, .bold, "**", "**")
        case "i", "em":
            openMark(name, .italic, "*", "*")
        case "s", "strike", "del":
            openMark(name, .strike, "~~", "~~")
        case "a":
            let href = cleanedURL(tag.href ?? "")
            if href.isEmpty {
                push(name, .transparent)
            } else {
                openMark(name, .link, "[", "](" + linkDestination(href) + ")")
            }
        case "code":
            startCode(closer: "code")
        case "pre":
            if cellDepth > 0 {
                startCode(closer: "pre")
            } else {
                requestBreak(2)
                mode = .pre
                preBuffer = []
            }
        case "p":
            openBlock(name, separation: 2)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            requestBreak(2)
            if cellDepth == 0, let level = name.unicodeScalars.last.map({ Int($0.value) - 0x30 }) {
                pendingHeading = level
            }
            push(name, .heading)
        case "blockquote":
            if cellDepth > 0 {
                push(name, .transparent)
            } else {
                requestBreak(2)
                push(name, .quote(container: pushContainer(.quote)))
            }
        case "ul", "ol":
            openList(name, ordered: name == "ol", start: tag.start)
        case "li":
            openItem()
        case "tr":
            if let index = innermost("tr", "table"),
                frames[index].name == "tr"
            {
                closeFrames(downTo: index)
            }
            requestBreak(1)
            push(name, .row(cells: 0))
        case "td", "th":
            openCell(name)
        default:
            if divLikeElements.contains(name) {
                openBlock(name, separation: 1)
            } else {
                push(name, .transparent)
            }
        }
        if tag.selfClosing { handleTag(name, start: nil) }
    }

    mutating func close(_ frame: Frame) {
        switch frame.kind {
        case .transparent:
            break
        case .mark:
            closeMark()
        case .block(let separation):
            requestBreak(separation)
        case .heading:
            pendingHeading = nil
            requestBreak(2)
        case .list(_, _, _, let indented):
            if indented { containers.removeLast() }
            // Text right after a top-level list would be read as its last item's lazy
            // continuation: an empty line ends the list (a nested one stays in its item).
            requestBreak(innermost("li", "ul", "ol") == nil && cellDepth == 0 ? 2 : 1)
        case .item(let container):
            if container { containers.removeLast() }
            requestBreak(1)
        case .quote(let container):
            if container { containers.removeLast() }
            requestBreak(2)
        case .row:
            requestBreak(1)
        case .cell:
            cellDepth -= 1
        }
    }

    mutating func openBlock(_ name: String, separation: Int) {
        requestBreak(separation)
        push(name, .block(separation: separation))
    }

    mutating func pushContainer(_ kind: Container.Kind) -> Bool {
        guard containers.count < maximumContainerDepth else { return false }
        containers.append(Container(id: nextContainerID, kind: kind))
        nextContainerID += 1
        return true
    }

    mutating func openList(_ name: String, ordered: Bool, start: String?) {
        if cellDepth > 0 {
            push(name, .transparent)
            return
        }
        requestBreak(1)
        var indented = false
        if let index = innermost("ul", "ol", "li"), case .list(_, _, let width, _) = frames[index].kind {
            indented = pushContainer(.indent(width))
        }
        var first = 1
        if ordered, let start, let value = Self.listStart(start) { first = value }
        let width = ordered ? "\(first). ".unicodeScalars.count : 2
        push(name, .list(ordered: ordered, next: first, markerWidth: width, indented: indented))
    }

    /// A `start` attribute of up to nine digits (the longest ordered marker CommonMark allows).
    static func listStart(_ text: String) -> Int? {
        var value = 0
        var digits = 0
        for scalar in text.unicodeScalars where !scalar.isHTMLSpace {
            guard scalar.isASCIIDigit, digits < 9 else { return nil }
            value = value * 10 + Int(scalar.value - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    mutating func openItem() {
        if cellDepth > 0 {
            push("li", .transparent)
            return
        }
        // An open item of the same list is closed implicitly (`<li>a<li>b`).
        if let index = innermost("li", "ul", "ol"),
            frames[index].name == "li"
        {
            closeFrames(downTo: index)
        }
        requestBreak(1)
        var marker = "- "
        if let index = innermost("ul", "ol"),
            case .list(let ordered, let next, _, let indented) = frames[index].kind
        {
            if ordered {
                marker = "\(next). "
                frames[index].kind = .list(
                    ordered: true, next: next + 1, markerWidth: marker.unicodeScalars.count, indented: indented)
            }
        }
        push("li", .item(container: pushContainer(.item(marker: marker))))
    }

    mutating func openCell(_ name: String) {
        if let index = innermost("td", "th", "tr", "table"),
            frames[index].name == "td" || frames[index].name == "th"
        {
            closeFrames(downTo: index)
        }
        if let index = innermost("tr"), case .row(let cells) = frames[index].kind {
            if cells > 0 {
                pendingSpace = true
                emit("|", literal: false)
                pendingSpace = true
            }
            frames[index].kind = .row(cells: cells + 1)
        }
        cellDepth += 1
        push(name, .cell)
    }

    mutating func openMark(_ name: String, _ kind: MarkKind, _ open: String, _ close: String) {
        if marks.contains(where: { $0.kind == kind }) {
            push(name, .transparent)
            return
        }
        push(name, .mark)
        if kind != .link, let last = lastClose, last.kind == kind, !pendingSpace, pendingBreak == 0,
            line.utf8.count == last.end, marks.allSatisfy({ $0.written })
        {
            // Directly after the same emphasis closed: continue it instead.
            line.unicodeScalars.removeLast(close.unicodeScalars.count)
            marks.append(Mark(kind: kind, open: open, close: close, written: true))
            lastClose = nil
            return
        }
        marks.append(Mark(kind: kind, open: open, close: close))
    }

    mutating func closeMark() {
        guard let mark = marks.popLast(), mark.written else { return }
        line += mark.close
        lastClose = (mark.kind, line.utf8.count)
    }

    mutating func startCode(closer: String) {
        mode = .code
        codeCloser = closer
        codeNesting = 1
        codeBuffer = []
    }

    mutating func appendCode(_ scalar: Scalar) {
        if scalar.isHTMLSpace {
            if codeBuffer.last != " " { codeBuffer.append(" ") }
        } else {
            codeBuffer.append(scalar)
        }
    }

    mutating func finishCode() {
        mode = .normal
        var content = codeBuffer[...]
        codeBuffer = []
        let leading = content.first == " "
        let trailing = content.last == " "
        while content.first == " " { content.removeFirst() }
        while content.last == " " { content.removeLast() }
        if leading { pendingSpace = true }
        guard !content.isEmpty else { return }
        let fence = String(repeating: "`", count: longestRun(of: "`", in: content) + 1)
        let padding = content.first == "`" || content.last == "`" ? " " : ""
        emit(fence + padding + makeString(content) + padding + fence, literal: false)
        if trailing { pendingSpace = true }
    }

    mutating func finishPre() {
        mode = .normal
        var content = preBuffer[...]
        preBuffer = []
        if content.first == "\n" { content.removeFirst() }
        if content.last == "\n" { content.removeLast() }
        guard !content.isEmpty else {
            requestBreak(2)
            return
        }
        let run = longestRun(of: "`", in: content)
        let fence = String(repeating: "`", count: run >= 3 ? run + 1 : 3)
        var lines = [fence]
        for contentLine in content.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(makeString(contentLine))
        }
        lines.append(fence)
        emitBlock(lines)
    }

    func longestRun(of target: Scalar, in text: ArraySlice<Scalar>) -> Int {
        var longest = 0
        var current = 0
        for scalar in text {
            current = scalar == target ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    mutating func startMath(_ kind: MathKind) {
        mode = .math(kind)
        mathBuffer = []
    }

    mutating func finishMath(_ kind: MathKind) {
        mode = .normal
        var content = mathBuffer[...]
        mathBuffer = []
        while let first = content.first, first.isHTMLSpace { content.removeFirst() }
        while let last = content.last, last.isHTMLSpace { content.removeLast() }
        guard !content.isEmpty else { return }
        if kind.isDisplay {
            let lines = content.split(separator: "\n").filter { !$0.allSatisfy(\.isHTMLSpace) }.map { makeString($0) }
            emit("$$" + lines.joined(separator: "\n" + continuationPrefix()) + "$$", literal: false)
        } else {
            emit("$" + makeString(content.map { $0 == "\n" ? " " : $0 }) + "$", literal: false)
        }
    }

    mutating func image(_ tag: StartTag) {
        let source = cleanedURL(tag.src ?? "")
        guard !source.isEmpty else { return }
        let target = hasScheme(source) ? source : mediaLink(source)
        emit("![" + escapedInlineText(tag.alt ?? "") + "](" + linkDestination(target) + ")", literal: false)
    }

    mutating func sound(_ name: String) {
        emit("[" + escapedInlineText(name) + "](" + linkDestination(mediaLink(name)) + ")", literal: false)
    }

    /// Records a media file and returns its link target.
    mutating func mediaLink(_ name: String) -> String {
        if !mediaSeen.contains(name) {
            mediaSeen.insert(name)
            media.append(name)
        }
        if let known = targets[name] { return known }
        let target = mediaTarget(name)
        targets[name] = target
        return target
    }

    mutating func horizontalRule() {
        if cellDepth > 0 {
            pendingSpace = true
            return
        }
        requestBreak(2)
        emitBlock(["---"])
    }
}
