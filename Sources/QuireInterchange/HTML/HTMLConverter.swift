enum MarkKind {
    case bold, italic, strike, link
}

/// An inline construct written as an opening and a closing marker.
struct Mark {
    var kind: MarkKind
    var open: String
    var close: String
    /// Whether the opening marker is on the current line (it is written lazily, just
    /// before the first content, so empty elements write nothing).
    var written = false
}

/// A block construct that prefixes every line it contains.
struct Container {
    enum Kind {
        case quote
        case item(marker: String)
        /// A list nested directly in a list, indented like an item's content.
        case indent(Int)
    }

    var id: Int
    var kind: Kind
    /// Nothing has been written inside yet: line breaks requested now are ignored, so
    /// the first line carries the list marker.
    var fresh = true
    var markerUsed = false

    var continuation: String {
        switch kind {
        case .quote: return "> "
        case .item(let marker): return spaces(marker.unicodeScalars.count)
        case .indent(let width): return spaces(width)
        }
    }
}

struct Frame {
    enum Kind {
        case transparent
        case mark
        case block(separation: Int)
        case heading
        case list(ordered: Bool, next: Int, markerWidth: Int, indented: Bool)
        case item(container: Bool)
        case quote(container: Bool)
        case row(cells: Int)
        case cell
    }

    var name: String
    var kind: Kind
}

enum MathKind: Int, CaseIterable {
    case paren, bracket, dollar, doubleDollar, latex

    static let opens: [[Scalar]] = ["\\(", "\\[", "[$]", "[$$]", "[latex]"].map { Array($0.unicodeScalars) }
    static let closes: [[Scalar]] = ["\\)", "\\]", "[/$]", "[/$$]", "[/latex]"].map { Array($0.unicodeScalars) }

    /// The kinds whose opening delimiter starts with `[` (`[$$]` before `[$]`).
    static let bracketed: [MathKind] = [.doubleDollar, .dollar, .latex]

    var open: [Scalar] { Self.opens[rawValue] }
    var close: [Scalar] { Self.closes[rawValue] }
    var isDisplay: Bool { self == .bracket || self == .doubleDollar || self == .latex }
}

enum Mode {
    case normal
    /// Collecting the text of a code span.
    case code
    /// Collecting the verbatim text of a `<pre>` block.
    case pre
    /// Collecting MathJax content up to the closing delimiter.
    case math(MathKind)
}

let soundOpen = Array("[sound:".unicodeScalars)

let droppedElements: Set<String> = [
    "script", "style", "iframe", "object", "embed", "head", "title", "template", "svg", "math",
]

let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta",
    "param", "source", "track", "wbr",
]

/// Elements laid out like `<div>`: on their own lines, separated by a single line break.
let divLikeElements: Set<String> = [
    "div", "address", "article", "aside", "caption", "center", "dd", "details", "dialog", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "main", "nav",
    "section", "summary", "table",
]

/// Elements that end a code span and become line breaks inside `<pre>` and display math.
let blockElements: Set<String> = divLikeElements.union([
    "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "tbody",
    "td", "tfoot", "th", "thead", "tr", "ul",
])

/// More nested quotes and lists than this are laid out as plain blocks, which bounds the
/// length of line prefixes.
let maximumContainerDepth = 32

struct HTMLConverter {
    private let tokens: [Token]
    private let mediaTarget: (String) -> String

    // Results.
    private var media: [String] = []
    private var mediaSeen: Set<String> = []
    private var targets: [String: String] = [:]
    private var dropped: [String] = []

    // Structure.
    private var frames: [Frame] = []
    /// Indices in `frames` of the open elements, by name.
    private var openPositions: [String: [Int]] = [:]
    private var containers: [Container] = []
    private var nextContainerID = 0
    private var cellDepth = 0

    // Modes.
    private var mode = Mode.normal
    private var dropName = ""
    private var dropDepth = 0
    private var codeBuffer: [Scalar] = []
    private var codeCloser = "code"
    private var codeNesting = 0
    private var preBuffer: [Scalar] = []
    private var mathBuffer: [Scalar] = []
    /// Where the last closing delimiter of each math kind is (token index, offset).
    private var lastMathClose: [(token: Int, offset: Int)?] = Array(repeating: nil, count: MathKind.allCases.count)

    // Output.
    private var outLines: [String] = []
    private var line = ""
    private var linePrefix = ""
    private var lineContainerIDs: [Int] = []
    private var lastLineContainerIDs: [Int] = []
    /// The current line begins with literal text, so its start may need escaping.
    private var lineLiteralStart = false
    private var pendingSpace = false
    /// 0: continue the line; 1: start a new line; 2: leave an empty line first.
    private var pendingBreak = 0
    private var pendingHeading: Int?
    private var marks: [Mark] = []
    /// The emphasis closed last and the UTF-8 length of the line right after it, so that
    /// `<b>a</b><b>b</b>` can be merged into `**ab**`.
    private var lastClose: (kind: MarkKind, end: Int)?

    init(tokens: [Token], mediaTarget: @escaping (String) -> String) {
        self.tokens = tokens
        self.mediaTarget = mediaTarget
    }

    mutating func run() -> HTMLToMarkdown.Conversion {
        locateMathCloses()
        for index in tokens.indices {
            switch tokens[index] {
            case .text(let text): handleText(text, token: index)
            case .start(let tag): handleTag(tag.name, start: tag)
            case .end(let name): handleTag(name, start: nil)
            }
        }
        finish()
        return HTMLToMarkdown.Conversion(markdown: trimmedOutput(), media: media, dropped: dropped)
    }

    private mutating func locateMathCloses() {
        for index in tokens.indices {
            guard case .text(let text) = tokens[index] else { continue }
            for offset in text.indices where text[offset] == "\\" || text[offset] == "[" {
                for kind in MathKind.allCases where matches(text, kind.close, at: offset) {
                    lastMathClose[kind.rawValue] = (index, offset)
                }
            }
        }
    }

    private func matches(_ text: [Scalar], _ pattern: [Scalar], at offset: Int) -> Bool {
        guard offset + pattern.count <= text.count else { return false }
        var position = 0
        while position < pattern.count {
            if text[offset + position] != pattern[position] { return false }
            position += 1
        }
        return true
    }

    private func isTerminated(_ kind: MathKind, token: Int, from offset: Int) -> Bool {
        guard let close = lastMathClose[kind.rawValue] else { return false }
        return close.token > token || (close.token == token && close.offset >= offset)
    }

    // MARK: Tokens

    private mutating func handleText(_ text: [Scalar], token: Int) {
        if dropDepth > 0 { return }
        switch mode {
        case .code:
            for scalar in text { appendCode(scalar) }
            return
        case .pre:
            preBuffer.append(contentsOf: text)
            return
        case .normal, .math:
            break
        }
        let count = text.count
        var index = 0
        var segment = 0
        // Cache for the search of the `]` (or line break) that ends a `[sound:` tag.
        var searchedFrom = -1
        var stop = -1
        while index < count {
            if case .math(let kind) = mode {
                let close = kind.close
                var closed = false
                while index < count {
                    if text[index] == close[0], matches(text, close, at: index) {
                        index += close.count
                        closed = true
                        break
                    }
                    mathBuffer.append(text[index])
                    index += 1
                }
                if closed { finishMath(kind) }
                segment = index
                continue
            }
            let scalar = text[index]
            if scalar == "\\", index + 1 < count, text[index + 1] == "(" || text[index + 1] == "[" {
                let kind: MathKind = text[index + 1] == "(" ? .paren : .bracket
                if isTerminated(kind, token: token, from: index + 2) {
                    writeText(text[segment..<index])
                    startMath(kind)
                    index += 2
                    segment = index
                    continue
                }
            } else if scalar == "[" {
                if index + 1 < count, text[index + 1] == "s", matches(text, soundOpen, at: index) {
                    let nameStart = index + soundOpen.count
                    if !(searchedFrom <= nameStart && nameStart <= stop) {
                        var position = nameStart
                        while position < count, text[position] != "]", text[position] != "\n" { position += 1 }
                        searchedFrom = nameStart
                        stop = position
                    }
                    if stop < count, text[stop] == "]", stop > nameStart {
                        writeText(text[segment..<index])
                        sound(makeString(text[nameStart..<stop]))
                        index = stop + 1
                        segment = index
                        continue
                    }
                } else if let kind = MathKind.bracketed.first(where: { matches(text, $0.open, at: index) }),
                    isTerminated(kind, token: token, from: index + kind.open.count)
                {
                    writeText(text[segment..<index])
                    startMath(kind)
                    index += kind.open.count
                    segment = index
                    continue
                }
            }
            index += 1
        }
        if case .normal = mode, segment < count {
            writeText(text[segment..<count])
        }
    }

    /// A start or end tag: skipped inside a dropped element, taken by the code, pre or math text
    /// being gathered, else an element opened or closed.
    private mutating func handleTag(_ name: String, start tag: StartTag?) {
        let isEnd = tag == nil, selfClosing = tag?.selfClosing ?? false
        if dropDepth > 0 {
            if name == dropName { dropDepth += isEnd ? -1 : (selfClosing ? 0 : 1) }
            return
        }
        if let tag, droppedElements.contains(name) {
            if !dropped.contains(name) { dropped.append(name) }
            if !tag.selfClosing && name != "embed" {
                dropName = name
                dropDepth = 1
            }
            return
        }
        if takenByMode(name, isEnd: isEnd, selfClosing: selfClosing) { return }
        if let tag { return openElement(tag) }
        if name == "br" { return lineBreak() }
        guard let index = innermost(name) else { return }
        closeFrames(downTo: index)
    }

    /// What a tag does to the code, pre or math text being gathered; true when that is all it
    /// does (a block element ends inline code, and is then opened or closed as usual).
    private mutating func takenByMode(_ name: String, isEnd: Bool, selfClosing: Bool) -> Bool {
        switch mode {
        case .code:
            if name == codeCloser {
                if isEnd {
                    codeNesting -= 1
                    if codeNesting <= 0 { finishCode() }
                } else if !selfClosing {
                    codeNesting += 1
                }
                return true
            }
            if name == "br" {
                appendCode(" ")
                return true
            }
            guard blockElements.contains(name) else { return true }
            finishCode()
            return false
        case .pre:
            if isEnd, name == "pre" {
                finishPre()
            } else if name == "br" {
                preBuffer.append("\n")
            } else if !isEnd, blockElements.contains(name), let last = preBuffer.last, last != "\n" {
                preBuffer.append("\n")
            }
            return true
        case .math(let kind):
            if name == "br" || blockElements.contains(name) { mathBuffer.append(kind.isDisplay ? "\n" : " ") }
            return true
        case .normal:
            return false
        }
    }

    private mutating func closeFrames(downTo index: Int) {
        while frames.count > index, let frame = frames.popLast() {
            openPositions[frame.name]?.removeLast()
            if openPositions[frame.name]?.isEmpty == true { openPositions[frame.name] = nil }
            close(frame)
        }
    }

    private mutating func push(_ name: String, _ kind: Frame.Kind) {
        openPositions[name, default: []].append(frames.count)
        frames.append(Frame(name: name, kind: kind))
    }

    /// The index of the innermost open element named one of `names`.
    private func innermost(_ names: String...) -> Int? {
        var result: Int?
        for name in names {
            if let index = openPositions[name]?.last, index > result ?? -1 { result = index }
        }
        return result
    }

    private mutating func finish() {
        switch mode {
        case .code:
            finishCode()
        case .pre:
            finishPre()
        case .math(let kind):
            // Only reachable when the closing delimiter sat somewhere ignored (such as a
            // dropped element): keep the opening delimiter as text.
            mode = .normal
            let text = kind.open + mathBuffer
            mathBuffer = []
            writeText(text[...])
        case .normal:
            break
        }
        closeFrames(downTo: 0)
        finishLine()
    }

    // MARK: Elements

    private mutating func openElement(_ tag: StartTag) {
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

    private mutating func close(_ frame: Frame) {
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

    private mutating func openBlock(_ name: String, separation: Int) {
        requestBreak(separation)
        push(name, .block(separation: separation))
    }

    private mutating func pushContainer(_ kind: Container.Kind) -> Bool {
        guard containers.count < maximumContainerDepth else { return false }
        containers.append(Container(id: nextContainerID, kind: kind))
        nextContainerID += 1
        return true
    }

    private mutating func openList(_ name: String, ordered: Bool, start: String?) {
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
    private static func listStart(_ text: String) -> Int? {
        var value = 0
        var digits = 0
        for scalar in text.unicodeScalars where !scalar.isHTMLSpace {
            guard scalar.isASCIIDigit, digits < 9 else { return nil }
            value = value * 10 + Int(scalar.value - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    private mutating func openItem() {
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

    private mutating func openCell(_ name: String) {
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

    private mutating func openMark(_ name: String, _ kind: MarkKind, _ open: String, _ close: String) {
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

    private mutating func closeMark() {
        guard let mark = marks.popLast(), mark.written else { return }
        line += mark.close
        lastClose = (mark.kind, line.utf8.count)
    }

    private mutating func startCode(closer: String) {
        mode = .code
        codeCloser = closer
        codeNesting = 1
        codeBuffer = []
    }

    private mutating func appendCode(_ scalar: Scalar) {
        if scalar.isHTMLSpace {
            if codeBuffer.last != " " { codeBuffer.append(" ") }
        } else {
            codeBuffer.append(scalar)
        }
    }

    private mutating func finishCode() {
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

    private mutating func finishPre() {
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

    private func longestRun(of target: Scalar, in text: ArraySlice<Scalar>) -> Int {
        var longest = 0
        var current = 0
        for scalar in text {
            current = scalar == target ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    private mutating func startMath(_ kind: MathKind) {
        mode = .math(kind)
        mathBuffer = []
    }

    private mutating func finishMath(_ kind: MathKind) {
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

    private mutating func image(_ tag: StartTag) {
        let source = cleanedURL(tag.src ?? "")
        guard !source.isEmpty else { return }
        let target = hasScheme(source) ? source : mediaLink(source)
        emit("![" + escapedInlineText(tag.alt ?? "") + "](" + linkDestination(target) + ")", literal: false)
    }

    private mutating func sound(_ name: String) {
        emit("[" + escapedInlineText(name) + "](" + linkDestination(mediaLink(name)) + ")", literal: false)
    }

    /// Records a media file and returns its link target.
    private mutating func mediaLink(_ name: String) -> String {
        if !mediaSeen.contains(name) {
            mediaSeen.insert(name)
            media.append(name)
        }
        if let known = targets[name] { return known }
        let target = mediaTarget(name)
        targets[name] = target
        return target
    }

    private mutating func horizontalRule() {
        if cellDepth > 0 {
            pendingSpace = true
            return
        }
        requestBreak(2)
        emitBlock(["---"])
    }

    // MARK: Writing

    /// Asks for a line break (`1`) or an empty line (`2`) before the next content.
    private mutating func requestBreak(_ kind: Int) {
        if cellDepth > 0 {
            pendingSpace = true
            return
        }
        if let innermost = containers.last, innermost.fresh { return }
        pendingBreak = max(pendingBreak, kind)
    }

    /// A `<br>`: breaks add up, so two of them leave an empty line.
    private mutating func lineBreak() {
        if cellDepth > 0 {
            pendingSpace = true
            return
        }
        if let innermost = containers.last, innermost.fresh { return }
        if line.isEmpty && outLines.isEmpty { return }
        pendingBreak = min(2, pendingBreak + 1)
    }

    /// Writes escaped literal text, collapsing whitespace as HTML does.
    private mutating func writeText(_ text: ArraySlice<Scalar>) {
        var buffer = ""
        var leading = false
        var gap = false
        for index in text.indices {
            let scalar = text[index]
            if scalar.isHTMLSpace {
                if buffer.isEmpty { leading = true } else { gap = true }
                continue
            }
            if gap {
                buffer += " "
                gap = false
            }
            appendEscaped(scalar, in: text, at: index, to: &buffer)
        }
        if leading { pendingSpace = true }
        emit(buffer, literal: true)
        if gap { pendingSpace = true }
    }

    /// Writes a piece of content: applies pending line breaks, the line prefix, a pending
    /// heading marker, a pending space and the opening markers of pending emphasis.
    private mutating func emit(_ text: String, literal: Bool) {
        guard !text.isEmpty else { return }
        beginLine()
        var atStart = line.isEmpty
        if pendingSpace && !atStart { line += " " }
        pendingSpace = false
        if let level = pendingHeading {
            pendingHeading = nil
            if atStart {
                line += String(repeating: "#", count: level) + " "
                atStart = false
            }
        }
        for index in marks.indices where !marks[index].written {
            line += marks[index].open
            marks[index].written = true
            atStart = false
        }
        if atStart { lineLiteralStart = literal }
        line += text
        lastClose = nil
        var index = containers.count - 1
        while index >= 0, containers[index].fresh {
            containers[index].fresh = false
            index -= 1
        }
    }

    /// Writes whole lines of block content (a fenced code block, a thematic break).
    private mutating func emitBlock(_ lines: [String]) {
        guard let first = lines.first else { return }
        if !line.isEmpty && pendingBreak == 0 { pendingBreak = 1 }
        beginLine()
        let continuation = continuationPrefix()
        line = first
        for next in lines.dropFirst() {
            line += "\n"
            line += next.isEmpty ? trimmingTrailingSpaces(continuation) : continuation + next
        }
        lineLiteralStart = false
        var index = containers.count - 1
        while index >= 0, containers[index].fresh {
            containers[index].fresh = false
            index -= 1
        }
        finishLine()
        pendingBreak = 2
    }

    private mutating func beginLine() {
        if pendingBreak > 0 {
            if !line.isEmpty || !outLines.isEmpty {
                let empty = pendingBreak >= 2
                finishLine()
                if empty { outLines.append(emptyLine()) }
            }
            pendingBreak = 0
            pendingSpace = false
        }
        if line.isEmpty {
            linePrefix = ""
            lineContainerIDs = []
            for index in containers.indices {
                lineContainerIDs.append(containers[index].id)
                if case .item(let marker) = containers[index].kind, !containers[index].markerUsed {
                    containers[index].markerUsed = true
                    linePrefix += marker
                } else {
                    linePrefix += containers[index].continuation
                }
            }
        }
    }

    private func continuationPrefix() -> String {
        containers.map(\.continuation).joined()
    }

    /// An empty line, prefixed by the quotes shared by the previous and the next line.
    private func emptyLine() -> String {
        var prefix = ""
        for (index, container) in containers.enumerated() {
            guard index < lastLineContainerIDs.count, lastLineContainerIDs[index] == container.id else { break }
            prefix += container.continuation
        }
        return trimmingTrailingSpaces(prefix)
    }

    private mutating func finishLine() {
        guard !line.isEmpty else { return }
        for index in marks.indices.reversed() where marks[index].written {
            line += marks[index].close
            marks[index].written = false
        }
        outLines.append(linePrefix + (lineLiteralStart ? escapingLineStart(line) : line))
        lastLineContainerIDs = lineContainerIDs
        line = ""
        lineLiteralStart = false
        lastClose = nil
        pendingSpace = false
    }

    private func trimmedOutput() -> String {
        var scalars = Substring(outLines.joined(separator: "\n")).unicodeScalars
        while let first = scalars.first, first.isHTMLSpace { scalars.removeFirst() }
        while let last = scalars.last, last.isHTMLSpace { scalars.removeLast() }
        return String(scalars)
    }
}
