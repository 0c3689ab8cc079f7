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
    let tokens: [Token]
    let mediaTarget: (String) -> String

    // Results.
    var media: [String] = []
    var mediaSeen: Set<String> = []
    var targets: [String: String] = [:]
    var dropped: [String] = []

    // Structure.
    var frames: [Frame] = []
    /// Indices in `frames` of the open elements, by name.
    var openPositions: [String: [Int]] = [:]
    var containers: [Container] = []
    var nextContainerID = 0
    var cellDepth = 0

    // Modes.
    var mode = Mode.normal
    var dropName = ""
    var dropDepth = 0
    var codeBuffer: [Scalar] = []
    var codeCloser = "code"
    var codeNesting = 0
    var preBuffer: [Scalar] = []
    var mathBuffer: [Scalar] = []
    /// Where the last closing delimiter of each math kind is (token index, offset).
    var lastMathClose: [(token: Int, offset: Int)?] = Array(repeating: nil, count: MathKind.allCases.count)

    // Output.
    var outLines: [String] = []
    var line = ""
    var linePrefix = ""
    var lineContainerIDs: [Int] = []
    var lastLineContainerIDs: [Int] = []
    /// The current line begins with literal text, so its start may need escaping.
    var lineLiteralStart = false
    var pendingSpace = false
    /// 0: continue the line; 1: start a new line; 2: leave an empty line first.
    var pendingBreak = 0
    var pendingHeading: Int?
    var marks: [Mark] = []
    /// The emphasis closed last and the UTF-8 length of the line right after it, so that
    /// `<b>a</b><b>b</b>` can be merged into `**ab**`.
    var lastClose: (kind: MarkKind, end: Int)?

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

    mutating func locateMathCloses() {
        for index in tokens.indices {
            guard case .text(let text) = tokens[index] else { continue }
            for offset in text.indices where text[offset] == "\\" || text[offset] == "[" {
                for kind in MathKind.allCases where matches(text, kind.close, at: offset) {
                    lastMathClose[kind.rawValue] = (index, offset)
                }
            }
        }
    }

    func matches(_ text: [Scalar], _ pattern: [Scalar], at offset: Int) -> Bool {
        guard offset + pattern.count <= text.count else { return false }
        var position = 0
        while position < pattern.count {
            if text[offset + position] != pattern[position] { return false }
            position += 1
        }
        return true
    }

    func isTerminated(_ kind: MathKind, token: Int, from offset: Int) -> Bool {
        guard let close = lastMathClose[kind.rawValue] else { return false }
        return close.token > token || (close.token == token && close.offset >= offset)
    }

    // MARK: Tokens

    mutating func handleText(_ text: [Scalar], token: Int) {
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
    mutating func handleTag(_ name: String, start tag: StartTag?) {
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
    mutating func takenByMode(_ name: String, isEnd: Bool, selfClosing: Bool) -> Bool {
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

    mutating func closeFrames(downTo index: Int) {
        while frames.count > index, let frame = frames.popLast() {
            openPositions[frame.name]?.removeLast()
            if openPositions[frame.name]?.isEmpty == true { openPositions[frame.name] = nil }
            close(frame)
        }
    }

    mutating func push(_ name: String, _ kind: Frame.Kind) {
        openPositions[name, default: []].append(frames.count)
        frames.append(Frame(name: name, kind: kind))
    }

    /// The index of the innermost open element named one of `names`.
    func innermost(_ names: String...) -> Int? {
        var result: Int?
        for name in names {
            if let index = openPositions[name]?.last, index > result ?? -1 { result = index }
        }
        return result
    }

    mutating func finish() {
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

    // MARK: Writing

    /// Asks for a line break (`1`) or an empty line (`2`) before the next content.
    mutating func requestBreak(_ kind: Int) {
        if cellDepth > 0 {
            pendingSpace = true
            return
        }
        if let innermost = containers.last, innermost.fresh { return }
        pendingBreak = max(pendingBreak, kind)
    }

    /// A `<br>`: breaks add up, so two of them leave an empty line.
    mutating func lineBreak() {
        if cellDepth > 0 {
            pendingSpace = true
            return
        }
        if let innermost = containers.last, innermost.fresh { return }
        if line.isEmpty && outLines.isEmpty { return }
        pendingBreak = min(2, pendingBreak + 1)
    }

    /// Writes escaped literal text, collapsing whitespace as HTML does.
    mutating func writeText(_ text: ArraySlice<Scalar>) {
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
    mutating func emit(_ text: String, literal: Bool) {
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
    mutating func emitBlock(_ lines: [String]) {
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

    mutating func beginLine() {
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

    func continuationPrefix() -> String {
        containers.map(\.continuation).joined()
    }

    /// An empty line, prefixed by the quotes shared by the previous and the next line.
    func emptyLine() -> String {
        var prefix = ""
        for (index, container) in containers.enumerated() {
            guard index < lastLineContainerIDs.count, lastLineContainerIDs[index] == container.id else { break }
            prefix += container.continuation
        }
        return trimmingTrailingSpaces(prefix)
    }

    mutating func finishLine() {
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

    func trimmedOutput() -> String {
        var scalars = Substring(outLines.joined(separator: "\n")).unicodeScalars
        while let first = scalars.first, first.isHTMLSpace { scalars.removeFirst() }
        while let last = scalars.last, last.isHTMLSpace { scalars.removeLast() }
        return String(scalars)
    }
}
