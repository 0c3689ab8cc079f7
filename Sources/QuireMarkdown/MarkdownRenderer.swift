/// Renders Markdown for a terminal, as `quire show` and the review screen display notes.
///
/// Layout: headings as `#`… lines, paragraphs word-wrapped to `width` display columns (East Asian
/// wide characters count two, combining marks none), fenced code indented four spaces, bullets
/// `•` `◦` `▪` by depth, numbers for ordered lists, `☐`/`☑` for task items, `│ ` before quoted lines,
/// tables in box characters with aligned columns cut to `width`, links as `text (url)`,
/// `─` rules; HTML comments are hidden. With colour, headings are bold and coloured, code
/// cyan/green, URLs and decorations dim, and emphasis, strong and strikethrough use the terminal's
/// italic, bold and crossed-out. Without colour the output is the same text with no escape codes,
/// so `plain(x)` equals `ansi(x, color: true)` with its escape sequences removed.
public enum MarkdownRenderer {
    /// Renders `markdown` with ANSI styles (`color: true`) or the same layout without them.
    /// - Parameters:
    ///   - markdown: the Markdown source (no front matter).
    ///   - color: whether to emit SGR escape sequences.
    ///   - width: the terminal width in columns; at least 10 is used.
    ///   - lineBreaks: whether a line break inside a paragraph is a line break, as a card's side
    ///     shows it (as Anki and Obsidian show it), rather than a space.
    /// - Returns: the rendered lines, each ending in `"\n"`; empty for an empty document.
    public static func ansi(_ markdown: String, color: Bool, width: Int = 80, lineBreaks: Bool = false) -> String {
        // The marks of revealed cloze text come only from ``ansi(revealing:hiddenIn:color:width:lineBreaks:)``.
        render(ClozeReveal.withoutMarks(markdown), color: color, width: width, lineBreaks: lineBreaks)
    }

    /// Renders a cloze card's back with the text its front hid highlighted: bold and coloured, or
    /// between brackets without colour (then unlike ``plain(_:width:)``).
    /// - Parameters:
    ///   - back: the card's back.
    ///   - front: the card's front, where `[...]` or `[hint]` stands for each hidden deletion.
    ///   - lineBreaks: whether a line break inside a paragraph is a line break.
    public static func ansi(revealing back: String, hiddenIn front: String, color: Bool, width: Int = 80, lineBreaks: Bool = false) -> String {
        render(ClozeReveal.marking(front: ClozeReveal.withoutMarks(front), back: ClozeReveal.withoutMarks(back)),
               color: color, width: width, lineBreaks: lineBreaks)
    }

    private static func render(_ markdown: String, color: Bool, width: Int, lineBreaks: Bool) -> String {
        // The note's own control characters are shown, never sent (``TerminalText``).
        let document = MarkdownDocument(parsing: TerminalMarkup.prepare(TerminalText.visible(markdown)), options: .default)
        var renderer = TerminalRenderer(document: document, color: color, width: max(width, 10), lineBreaks: lineBreaks)
        let lines = renderer.renderDocument()
        guard !lines.isEmpty else { return "" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The files a card embeds or shows as images (`![[diagram.png]]`, `![alt](img/cat.png)`), as
    /// written, web addresses left out: what the review screen's `o` opens.
    public static func embeds(in markdown: String) -> [String] { TerminalMarkup.embeds(in: markdown) }

    /// Renders `markdown` without escape codes; the same as `ansi(markdown, color: false, width: width, lineBreaks: lineBreaks)`.
    public static func plain(_ markdown: String, width: Int = 80, lineBreaks: Bool = false) -> String {
        ansi(markdown, color: false, width: width, lineBreaks: lineBreaks)
    }
}

/// A set of SGR attributes for a run of text.
struct TextStyle: OptionSet, Hashable {
    let rawValue: UInt16

    static let bold = TextStyle(rawValue: 1 << 0)
    static let dim = TextStyle(rawValue: 1 << 1)
    static let italic = TextStyle(rawValue: 1 << 2)
    static let underline = TextStyle(rawValue: 1 << 3)
    static let strike = TextStyle(rawValue: 1 << 4)
    static let code = TextStyle(rawValue: 1 << 5)
    static let codeBlock = TextStyle(rawValue: 1 << 6)
    static let heading1 = TextStyle(rawValue: 1 << 7)
    static let heading2 = TextStyle(rawValue: 1 << 8)
    static let heading3 = TextStyle(rawValue: 1 << 9)
    /// Text a cloze answer reveals (``ClozeReveal``).
    static let highlight = TextStyle(rawValue: 1 << 10)

    /// The SGR parameters, e.g. `1;35`.
    var parameters: String {
        var codes: [String] = []
        if contains(.bold) { codes.append("1") }
        if contains(.dim) { codes.append("2") }
        if contains(.italic) { codes.append("3") }
        if contains(.underline) { codes.append("4") }
        if contains(.strike) { codes.append("9") }
        if contains(.highlight) {
            codes += ["1", "33"]
        } else if contains(.heading1) {
            codes.append("35")
        } else if contains(.heading2) {
            codes.append("34")
        } else if contains(.heading3) {
            codes.append("33")
        } else if contains(.code) {
            codes.append("36")
        } else if contains(.codeBlock) {
            codes.append("32")
        }
        return codes.joined(separator: ";")
    }
}

/// Lays out a parsed document as terminal lines.
struct TerminalRenderer {
    /// A piece of text in one style.
    struct Run {
        var text: String
        var style: TextStyle
    }

    /// A word (no spaces) made of styled pieces, or a forced line break.
    struct Word {
        var runs: [Run] = []
        var width = 0
        var isBreak = false
    }

    let document: MarkdownDocument
    let color: Bool
    let width: Int
    /// Whether a line break inside a paragraph is a line break (else a space).
    let lineBreaks: Bool
    /// Beyond this depth nested blocks are flattened to text, so the recursion stays shallow.
    let maxDepth = 48
    private var footnoteNumber = 0

    init(document: MarkdownDocument, color: Bool, width: Int, lineBreaks: Bool = false) {
        self.document = document
        self.color = color
        self.width = width
        self.lineBreaks = lineBreaks
    }

    mutating func renderDocument() -> [String] {
        renderChildren(of: 0, width: width, depth: 0, tight: false)
    }

    func styled(_ text: String, _ style: TextStyle) -> String {
        guard color, !style.isEmpty, !text.isEmpty else { return text }
        return "\u{1B}[\(style.parameters)m\(text)\u{1B}[0m"
    }

    // MARK: - Blocks

    private mutating func renderChildren(of parent: Int, width: Int, depth: Int, tight: Bool) -> [String] {
        var lines: [String] = []
        for child in document.children(of: parent) {
            let block = renderBlock(child, width: width, depth: depth)
            if block.isEmpty { continue }
            if !lines.isEmpty, !tight { lines.append("") }
            lines.append(contentsOf: block)
        }
        return lines
    }

    private mutating func renderBlock(_ index: Int, width: Int, depth: Int) -> [String] {
        let node = document.nodes[index]
        let width = max(width, 4)
        if depth > maxDepth {
            return wrap(words(from: [Run(text: document.plainText(of: index), style: [])]), width: width)
        }
        switch node.kind {
        case .paragraph:
            return wrap(words(from: inlineRuns(of: index, base: [])), width: width)
        case .heading:
            let level = max(node.headingLevel, 1)
            let style: TextStyle = level == 1 ? [.bold, .heading1] : level == 2 ? [.bold, .heading2] : [.bold, .heading3]
            let marker = Run(text: String(repeating: "#", count: level) + " ", style: style)
            return wrap(words(from: [marker] + inlineRuns(of: index, base: style)), width: width)
        case .codeBlock:
            var code = node.literal ?? ""
            if code.hasSuffix("\n") { code.removeLast() }
            return code.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.isEmpty ? "" : "    " + styled(String(line), .codeBlock)
            }
        case .htmlBlock:
            let html = (node.literal ?? "").trimmingTrailingNewlines()
            if html.hasPrefix("<!--") && html.hasSuffix("-->") { return [] }
            return html.split(separator: "\n", omittingEmptySubsequences: false).map { styled(String($0), .dim) }
        case .thematicBreak:
            return [styled(String(repeating: "─", count: width), .dim)]
        case .blockQuote:
            let inner = renderChildren(of: index, width: width - 2, depth: depth + 1, tight: false)
            let bar = styled("│", .dim)
            return inner.map { $0.isEmpty ? bar : bar + " " + $0 }
        case .list:
            return renderList(index, width: width, depth: depth)
        case .table:
            return renderTable(index, width: width)
        case .footnoteDefinition:
            footnoteNumber += 1
            let marker = "[\(footnoteNumber)] "
            let inner = renderChildren(of: index, width: width - DisplayWidth.of(marker), depth: depth + 1, tight: false)
            return hang(inner, marker: styled(marker, .dim), markerWidth: DisplayWidth.of(marker))
        default:
            return renderChildren(of: index, width: width, depth: depth + 1, tight: false)
        }
    }

    private mutating func renderList(_ index: Int, width: Int, depth: Int) -> [String] {
        let list = document.nodes[index]
        var listDepth = 0
        var ancestor = list.parent
        while let current = ancestor {
            if document.nodes[current].kind == .list { listDepth += 1 }
            ancestor = document.nodes[current].parent
        }
        let bullets = ["•", "◦", "▪"]
        let items = Array(document.children(of: index))
        let lastNumber = list.listStart + items.count - 1
        let numberWidth = String(lastNumber).count
        var lines: [String] = []
        for (position, item) in items.enumerated() {
            var marker: String
            if let checked = document.nodes[item].taskState {
                marker = checked ? "☑" : "☐"
            } else if list.isOrderedList {
                let number = String(list.listStart + position)
                marker = String(repeating: " ", count: numberWidth - number.count) + number + "."
            } else {
                marker = bullets[listDepth % bullets.count]
            }
            marker += " "
            let markerWidth = DisplayWidth.of(marker)
            var inner = renderChildren(of: item, width: width - markerWidth, depth: depth + 1, tight: list.isTightList)
            if inner.isEmpty { inner = [""] }
            if !lines.isEmpty, !list.isTightList { lines.append("") }
            lines.append(contentsOf: hang(inner, marker: marker, markerWidth: markerWidth))
        }
        return lines
    }

    /// Puts `marker` before the first line and indents the others to match.
    private func hang(_ lines: [String], marker: String, markerWidth: Int) -> [String] {
        let indent = String(repeating: " ", count: markerWidth)
        return lines.enumerated().map { offset, line in
            if offset == 0 { return line.isEmpty ? marker.trimmingTrailingSpaces() : marker + line }
            return line.isEmpty ? "" : indent + line
        }
    }

    // MARK: - Tables

    private func renderTable(_ index: Int, width: Int) -> [String] {
        let table = document.nodes[index]
        let alignments = table.tableAlignments ?? []
        var rows: [[[Run]]] = []
        var headerRows = 0
        for row in document.children(of: index) {
            if document.nodes[row].isTableHeader { headerRows += 1 }
            let style: TextStyle = document.nodes[row].isTableHeader ? .bold : []
            rows.append(document.children(of: row).map { inlineRuns(of: $0, base: style).map(flattenSpaces) })
        }
        let columns = max(alignments.count, rows.map(\.count).max() ?? 0)
        guard columns > 0 else { return [] }
        var widths = Array(repeating: 1, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() where column < columns {
                widths[column] = max(widths[column], cell.reduce(0) { $0 + DisplayWidth.of($1.text) })
            }
        }
        // Borders and padding take 3 columns per column plus one.
        while widths.reduce(0, +) + 3 * columns + 1 > width {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 1 else { break }
            widths[widest] -= 1
        }
        func border(_ left: String, _ middle: String, _ right: String) -> String {
            styled(left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right, .dim)
        }
        let bar = styled("│", .dim)
        var lines = [border("┌", "┬", "┐")]
        for (rowIndex, row) in rows.enumerated() {
            var line = bar
            for column in 0..<columns {
                let runs = column < row.count ? truncate(row[column], to: widths[column]) : []
                let textWidth = runs.reduce(0) { $0 + DisplayWidth.of($1.text) }
                let spare = max(widths[column] - textWidth, 0)
                let alignment = column < alignments.count ? alignments[column] : .none
                let left = alignment == .right ? spare : alignment == .center ? spare / 2 : 0
                line += " " + String(repeating: " ", count: left)
                line += runs.map { styled($0.text, $0.style) }.joined()
                line += String(repeating: " ", count: spare - left) + " " + bar
            }
            lines.append(line)
            if rowIndex + 1 == headerRows, rows.count > headerRows { lines.append(border("├", "┼", "┤")) }
        }
        lines.append(border("└", "┴", "┘"))
        return lines
    }

    private func flattenSpaces(_ run: Run) -> Run {
        Run(text: run.text.replacingNewlines(), style: run.style)
    }

    /// Cuts runs to `limit` columns, ending in `…` when something was cut.
    private func truncate(_ runs: [Run], to limit: Int) -> [Run] {
        let total = runs.reduce(0) { $0 + DisplayWidth.of($1.text) }
        guard total > limit else { return runs }
        var result: [Run] = []
        var used = 0
        let budget = limit - 1
        outer: for run in runs {
            var text = ""
            for character in run.text {
                let characterWidth = DisplayWidth.of(String(character))
                if used + characterWidth > budget {
                    if !text.isEmpty { result.append(Run(text: text, style: run.style)) }
                    break outer
                }
                text.append(character)
                used += characterWidth
            }
            if !text.isEmpty { result.append(Run(text: text, style: run.style)) }
        }
        result.append(Run(text: "…", style: []))
        return result
    }

    // MARK: - Inlines

    /// The styled text of a block's inline content; `\n` marks a hard break.
    func inlineRuns(of block: Int, base: TextStyle) -> [Run] {
        var state = InlineRunState(base: base, color: color)
        let end = document.nodes[block].subtreeEnd
        var index = block + 1
        while index < end {
            state.close(before: index)
            let node = document.nodes[index]
            let style = state.style
            switch node.kind {
            case .text:
                state.text(node.literal ?? "", style)
            case .code:
                state.text(node.literal ?? "", style.union(.code))
            case .softBreak:
                state.runs.append(Run(text: lineBreaks ? "\n" : " ", style: style))
            case .lineBreak:
                state.runs.append(Run(text: "\n", style: style))
            case .htmlInline:
                let html = (node.literal ?? "").lowercased()
                if html.hasPrefix("<br") { state.runs.append(Run(text: "\n", style: style)) }
            case .footnoteReference:
                state.runs.append(Run(text: "[\(node.literal ?? "")]", style: style.union(.dim)))
            case .emphasis, .strong, .strikethrough, .link, .image:
                let container = styledContainer(node, at: index, style: style, base: base)
                if let prefix = container.prefix { state.runs.append(prefix) }
                state.open(until: node.subtreeEnd, adding: container.added, suffix: container.suffix)
            default:
                break
            }
            index += 1
        }
        state.close(before: Int.max)
        return state.runs
    }

    /// What an inline container (emphasis, strong, strikethrough, link, image) adds: a run
    /// before its content, a style for it, and a run after it (an image's or a link's URL).
    private func styledContainer(_ node: MarkdownNode, at index: Int, style: TextStyle, base: TextStyle)
        -> (prefix: Run?, added: TextStyle, suffix: Run?) {
        var added: TextStyle
        var prefix: Run?
        var suffix: Run?
        switch node.kind {
        case .emphasis: added = .italic
        case .strong: added = .bold
        case .strikethrough: added = .strike
        case .link: added = .underline
        default: added = []
        }
        let url = node.url ?? ""
        if node.kind == .image {
            let embed = url.hasPrefix(TerminalMarkup.embedScheme)
            prefix = Run(text: embed ? "[embed: " : "[image: ", style: style.union(.dim))
            suffix = Run(text: url.isEmpty || embed ? "]" : "] (\(url))", style: style.union(.dim))
            added = .dim
        } else if node.kind == .link {
            let text = document.plainText(of: index)
            if !url.isEmpty, url != text, url != "mailto:" + text, url != "http://" + text,
               !url.hasPrefix(TerminalMarkup.wikilinkScheme) {
                suffix = Run(text: " (\(url))", style: base.union(.dim))
            }
        }
        return (prefix, added, suffix)
    }

    /// The runs of a block's inline content as they are made, with the inline containers open.
    private struct InlineRunState {
        /// The block's own style.
        let base: TextStyle
        /// Whether colour is on (else a revealed cloze is bracketed).
        let color: Bool
        var runs: [Run] = []
        /// Open inline containers: where they end, the style they add, and text to add after them.
        var open: [(end: Int, style: TextStyle, suffix: Run?)] = []
        /// The style of the innermost open container.
        var style: TextStyle
        /// Between ClozeReveal's marks: highlighted, or bracketed without colour.
        var highlighted = false

        /// No container open yet.
        init(base: TextStyle, color: Bool) {
            self.base = base
            self.color = color
            self.style = base
        }

        /// Opens a container ending at node `end` whose content takes `added` too.
        mutating func open(until end: Int, adding added: TextStyle, suffix: Run?) {
            let newStyle = style.union(added)
            open.append((end, newStyle, suffix))
            style = newStyle
        }

        /// Closes the containers that end at or before node `position`, adding their suffixes.
        mutating func close(before position: Int) {
            while let top = open.last, top.end <= position {
                open.removeLast()
                style = open.last.map { $0.style } ?? base
                if let suffix = top.suffix { runs.append(suffix) }
            }
        }

        /// Adds text in `style`, the parts between ClozeReveal's marks highlighted.
        mutating func text(_ literal: String, _ style: TextStyle) {
            guard literal.unicodeScalars.contains(where: { $0.value == 0xE000 || $0.value == 0xE001 }) else {
                runs.append(Run(text: literal, style: highlighted ? style.union(.highlight) : style))
                return
            }
            var piece = ""
            for c in literal {
                if c == ClozeReveal.start || c == ClozeReveal.end {
                    if !piece.isEmpty { runs.append(Run(text: piece, style: highlighted ? style.union(.highlight) : style)) }
                    piece = ""
                    highlighted = c == ClozeReveal.start
                    if !color { runs.append(Run(text: highlighted ? "[" : "]", style: style)) }
                } else {
                    piece.append(c)
                }
            }
            if !piece.isEmpty { runs.append(Run(text: piece, style: highlighted ? style.union(.highlight) : style)) }
        }
    }

    /// Splits runs into words at spaces; `\n` becomes a forced break.
    func words(from runs: [Run]) -> [Word] {
        var words: [Word] = []
        var current = Word()
        func flush() {
            if !current.runs.isEmpty { words.append(current) }
            current = Word()
        }
        for run in runs {
            var piece = ""
            for character in run.text {
                if character == " " || character == "\n" || character == "\t" {
                    if !piece.isEmpty {
                        current.runs.append(Run(text: piece, style: run.style))
                        current.width += DisplayWidth.of(piece)
                        piece = ""
                    }
                    flush()
                    if character == "\n" {
                        var lineBreak = Word()
                        lineBreak.isBreak = true
                        words.append(lineBreak)
                    }
                } else {
                    piece.append(character)
                }
            }
            if !piece.isEmpty {
                current.runs.append(Run(text: piece, style: run.style))
                current.width += DisplayWidth.of(piece)
            }
        }
        flush()
        return words
    }

    /// Greedy word wrap to `width` columns; words wider than a line are split.
    func wrap(_ words: [Word], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var lineHasWords = false
        func finish() {
            lines.append(line)
            line = ""
            lineWidth = 0
            lineHasWords = false
        }
        for word in words {
            if word.isBreak {
                finish()
                continue
            }
            for part in split(word, width: width) {
                if lineHasWords, lineWidth + 1 + part.width > width { finish() }
                if lineHasWords {
                    line += " "
                    lineWidth += 1
                }
                line += part.runs.map { styled($0.text, $0.style) }.joined()
                lineWidth += part.width
                lineHasWords = true
            }
        }
        if lineHasWords || !line.isEmpty { finish() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines
    }

    /// Splits a word wider than `width` into pieces that fit.
    private func split(_ word: Word, width: Int) -> [Word] {
        guard word.width > width else { return [word] }
        var parts: [Word] = []
        var current = Word()
        for run in word.runs {
            var text = ""
            for character in run.text {
                let characterWidth = DisplayWidth.of(String(character))
                if current.width + DisplayWidth.of(text) + characterWidth > width, current.width + DisplayWidth.of(text) > 0 {
                    if !text.isEmpty { current.runs.append(Run(text: text, style: run.style)) }
                    current.width += DisplayWidth.of(text)
                    parts.append(current)
                    current = Word()
                    text = ""
                }
                text.append(character)
            }
            if !text.isEmpty {
                current.runs.append(Run(text: text, style: run.style))
                current.width += DisplayWidth.of(text)
            }
        }
        if !current.runs.isEmpty { parts.append(current) }
        return parts
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var result = self
        while let last = result.last, last == "\n" || last == "\r\n" || last == "\r" { result.removeLast() }
        return result
    }

    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }

    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
