/// Note syntax beyond CommonMark, made ready for the terminal renderer before it parses: Obsidian
/// wikilinks and embeds, and LaTeX math.
///
/// - `[[Note|alias]]` shows `alias` and `[[Note]]` shows `Note`, underlined as links are;
/// - `![[file]]` shows as a labelled placeholder, `[embed: file]` (``embeds(in:)`` lists what a
///   card embeds, for the review screen to open);
/// - `$…$` and `$$…$$` are rendered by ``TeXUnicode`` (`$x^2$` shows `x²`); math it cannot
///   render is kept as written, untouched by Markdown.
///
/// Code spans and fenced or indented code blocks are left alone. A `$` opens math only when a
/// non-space follows it, and closes it only when a non-space comes before it and no digit after it
/// (`$5 and $10` stays text). Lines longer than ``maximumLineBytes`` are left as they are, which
/// bounds the work per line.
enum TerminalMarkup {
    /// The URL scheme of a link made from a wikilink: the renderer shows no URL for it.
    static let wikilinkScheme = "quire-wikilink:"
    /// The URL scheme of an image made from an embed.
    static let embedScheme = "quire-embed:"

    /// Lines longer than this are shown as written.
    static let maximumLineBytes = 4096

    /// `markdown` with wikilinks, embeds and math rewritten as plain Markdown.
    static func prepare(_ markdown: String) -> String {
        guard markdown.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "$") }) else { return markdown }
        var out = ""
        var fence: (marker: Character, count: Int)?
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        var skipUntil = -1
        for line in lines.enumerated() {
            if line.offset <= skipUntil { continue }
            if line.offset > 0 { out += "\n" }
            let text = line.element
            if fence == nil, let (block, last) = displayMath(lines, at: line.offset) {
                out += block
                skipUntil = last
                continue
            }
            if let open = fence {
                if Self.fence(in: text).map({ $0.marker == open.marker && $0.count >= open.count && $0.rest.allSatisfy(\.isWhitespace) }) ?? false {
                    fence = nil
                }
                out += text
                continue
            }
            if let found = Self.fence(in: text) {
                fence = (found.marker, found.count)
                out += text
                continue
            }
            // An indented code block line (four spaces or a tab) is code; a very long line is
            // left as it is, so that the scans below stay linear in the text.
            if text.hasPrefix("    ") || text.hasPrefix("\t") || text.utf8.count > maximumLineBytes {
                out += text
                continue
            }
            out += rewrite(text)
        }
        return out
    }

    /// Display math over several lines — a line opening with `$$` that does not close it, up to
    /// the line that ends with `$$` (at most 64 lines, before a blank line) — at line `i`: a
    /// paragraph of its own holding the math rendered (or its source, escaped, backslashes and
    /// all), and the index of its last line.
    private static func displayMath(_ lines: [Substring], at i: Int) -> (String, Int)? {
        let first = lines[i].drop { $0 == " " }
        guard first.hasPrefix("$$"), first.utf8.count <= maximumLineBytes else { return nil }
        let opening = first.dropFirst(2)
        if opening.contains("$$") { return nil }
        var source = [String(opening)]
        var j = i + 1
        while j < lines.count, j - i <= 64 {
            let line = lines[j].drop { $0 == " " }
            if line.allSatisfy(\.isWhitespace) || line.utf8.count > maximumLineBytes { return nil }
            let trimmed = String(String(line.reversed().drop(while: \.isWhitespace)).reversed())
            if trimmed.hasSuffix("$$") {
                source.append(String(trimmed.dropLast(2)))
                func strip(_ s: String) -> String { String(String(String(s.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace)).reversed()) }
                let tex = strip(source.joined(separator: " "))
                guard !tex.isEmpty else { return nil }
                let shown = TeXUnicode.render(tex).map(escaped)
                    ?? source.map { escaped(strip($0)) }.filter { !$0.isEmpty }.joined(separator: "\\\n")
                return ("\n" + shown + "\n", j)
            }
            if line.contains("$$") { return nil }
            source.append(String(line))
            j += 1
        }
        return nil
    }

    /// A fence line: up to three spaces, then three or more backticks or tildes.
    private static func fence(in line: Substring) -> (marker: Character, count: Int, rest: Substring)? {
        var rest = line
        var indent = 0
        while rest.first == " ", indent < 4 { rest.removeFirst(); indent += 1 }
        guard indent < 4, let marker = rest.first, marker == "`" || marker == "~" else { return nil }
        let count = rest.prefix { $0 == marker }.count
        guard count >= 3 else { return nil }
        return (marker, count, rest.dropFirst(count))
    }

    /// One line outside code blocks: code spans kept, the rest rewritten.
    private static func rewrite(_ line: Substring) -> String {
        let chars = Array(line)
        var out = ""
        var i = 0
        var plainStart = 0
        func flushPlain(to end: Int) {
            if plainStart < end { out += String(chars[plainStart..<end]) }
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count {
                i += 2
                continue
            }
            if c == "`" {
                // A code span: the same number of backticks closes it.
                let run = chars[i...].prefix { $0 == "`" }.count
                var j = i + run
                var closed: Int?
                while j < chars.count {
                    if chars[j] == "`" {
                        let other = chars[j...].prefix { $0 == "`" }.count
                        if other == run { closed = j + other; break }
                        j += other
                    } else {
                        j += 1
                    }
                }
                i = closed ?? (i + run)
                continue
            }
            if c == "[" || (c == "!" && i + 1 < chars.count && chars[i + 1] == "["), let (text, end) = wikilink(chars, at: i) {
                flushPlain(to: i)
                out += text
                i = end
                plainStart = i
                continue
            }
            if c == "$", let (text, end) = math(chars, at: i) {
                flushPlain(to: i)
                out += text
                i = end
                plainStart = i
                continue
            }
            i += 1
        }
        flushPlain(to: chars.count)
        return out
    }

    /// `[[…]]` or `![[…]]` at `i`: its Markdown and the index after it.
    private static func wikilink(_ chars: [Character], at i: Int) -> (String, Int)? {
        let embed = chars[i] == "!"
        let open = embed ? i + 1 : i
        guard open + 1 < chars.count, chars[open] == "[", chars[open + 1] == "[" else { return nil }
        var j = open + 2
        while j + 1 < chars.count, !(chars[j] == "]" && chars[j + 1] == "]") {
            if chars[j] == "[" || chars[j] == "]" || chars[j] == "<" || chars[j] == ">" { return nil }
            j += 1
        }
        guard j + 1 < chars.count else { return nil }
        let inner = String(chars[(open + 2)..<j])
        guard let link = MarkdownWikilink(between: Array(inner.utf8)) else { return nil }
        let target = link.note + (link.heading.map { "#" + $0 } ?? "")
        let destination = "<" + (embed ? embedScheme : wikilinkScheme) + escapedDestination(target) + ">"
        let label = escaped(embed ? target : link.label)
        return ((embed ? "![" : "[") + label + "](" + destination + ")", j + 2)
    }

    /// `$…$` or `$$…$$` at `i`: the rendered math (or the source, escaped) and the index after it.
    private static func math(_ chars: [Character], at i: Int) -> (String, Int)? {
        let display = i + 1 < chars.count && chars[i + 1] == "$"
        let open = display ? 2 : 1
        let start = i + open
        guard start < chars.count, !chars[start].isWhitespace, chars[start] != "$" else { return nil }
        var j = start
        while j < chars.count {
            if chars[j] == "\\" { j += 2; continue }
            // Math never runs into a code span.
            if chars[j] == "`" { return nil }
            if chars[j] == "$" {
                if display {
                    if j + 1 < chars.count, chars[j + 1] == "$" { break }
                } else if !chars[j - 1].isWhitespace, !(j + 1 < chars.count && chars[j + 1].isNumber) {
                    break
                }
            }
            j += 1
        }
        guard j < chars.count else { return nil }
        let source = String(chars[start..<j])
        let end = j + open
        guard let rendered = TeXUnicode.render(source) else {
            return (escaped(String(chars[i..<end])), end)
        }
        return (escaped(rendered), end)
    }

    /// Text that Markdown shows as it is: every ASCII punctuation character escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            if let a = c.asciiValue, (33...47).contains(a) || (58...64).contains(a) || (91...96).contains(a) || (123...126).contains(a) {
                out.append("\\")
            }
            out.append(c)
        }
        return out
    }

    /// A link destination inside `<…>`: no `<`, `>` or line break (checked by the caller), and a
    /// backslash escaped.
    private static func escapedDestination(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The files a card embeds or shows as images, as written (`![[diagram.png]]`,
    /// `![alt](img/cat.png)`), outside code; web addresses left out.
    static func embeds(in markdown: String) -> [String] {
        let document = MarkdownDocument(parsing: prepare(markdown), options: .default)
        var found: [String] = []
        for node in document.nodes where node.kind == .image {
            guard var url = node.url, !url.isEmpty else { continue }
            if url.hasPrefix(embedScheme) { url.removeFirst(embedScheme.count) }
            if url.contains("://") || url.hasPrefix("data:") || url.hasPrefix("mailto:") { continue }
            if !found.contains(url) { found.append(url) }
        }
        return found
    }
}
