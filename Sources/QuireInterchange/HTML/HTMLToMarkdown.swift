/// Converts the HTML fragments that Anki's editor stores in note fields into Markdown.
///
/// The converter is a single forward pass over the input with an explicit element stack,
/// so it runs in time and memory linear in the size of the input whatever the nesting,
/// and it never traps on malformed markup or unusual Unicode. Element nesting deeper than
/// ``maximumNestingDepth`` is ignored (the deeper tags are treated like unknown inline
/// tags: the tag is dropped, its text kept).
///
/// Literal text is backslash-escaped so that it can never be read as Markdown syntax,
/// while Anki's own syntax — cloze deletions (`{{c1::…::…}}`), `[sound:…]` tags and
/// MathJax — is carried over in a Markdown-friendly form:
///
/// - `<b>`/`<strong>` → `**x**`, `<i>`/`<em>` → `*x*`, `<s>`/`<strike>`/`<del>` → `~~x~~`,
///   `<code>` → a code span; other inline tags are dropped and their text kept.
/// - `<br>` → a line break (two or more → an empty line); `<div>` lines are separated by a
///   line break, `<p>`, headings and quotes by an empty line; headings → `#`…`######`;
///   `<blockquote>` → `> ` lines; table rows → lines of cells joined with ` | `.
/// - `<ul>`/`<ol>` → `- `/`1. ` items, nested lists indented by the parent marker's width.
/// - `<pre>` → a fenced code block; `<img>` → `![alt](target)`; `[sound:NAME]` →
///   `[NAME](target)`; `<a href>` → `[text](href)`.
/// - `\(…\)` and `[$]…[/$]` → `$…$`; `\[…\]`, `[$$]…[/$$]` and `[latex]…[/latex]` → `$$…$$`.
/// - `script`, `style`, `iframe`, `object`, `embed`, `head`, `title`, `template`, `svg`
///   and `math` are dropped with their content, as are comments.
public enum HTMLToMarkdown {
    /// The result of converting one field.
    public struct Conversion: Sendable, Equatable {
        /// The Markdown text, without leading or trailing whitespace.
        public var markdown: String
        /// Media file names referenced by the field (`<img src>` values that are not URLs,
        /// and `[sound:…]` names), as written after entity decoding, in order of first use
        /// and without duplicates.
        public var media: [String]
        /// Names of the elements whose content was dropped (such as `script`, `style` or
        /// `iframe`), in order of first use and without duplicates. Elements nested inside
        /// an element that is already being dropped are not listed.
        public var dropped: [String]

        /// Creates a conversion result.
        /// - Parameters:
        ///   - markdown: The Markdown text.
        ///   - media: The referenced media file names.
        ///   - dropped: The names of the elements whose content was dropped.
        public init(markdown: String, media: [String] = [], dropped: [String] = []) {
            self.markdown = markdown
            self.media = media
            self.dropped = dropped
        }
    }

    /// The deepest element nesting that is honoured; start tags opened below this depth
    /// are ignored (their text is kept).
    public static let maximumNestingDepth = 256

    /// Converts one HTML field to Markdown.
    ///
    /// - Parameters:
    ///   - html: The field content as stored by Anki (an HTML fragment).
    ///   - media: Maps a media file name, exactly as written in the field after entity
    ///     decoding (the `src` of an `<img>` or the name in `[sound:NAME]`), to the link
    ///     target to write, for example `{ "assets/" + $0 }`. It is called at most once per
    ///     distinct name, and never for `src` values that are URLs with a scheme.
    /// - Returns: The Markdown text together with the media files it references and the
    ///   names of the elements whose content was dropped.
    public static func convert(_ html: String, media: (String) -> String) -> Conversion {
        var tokenizer = Tokenizer(normalizedScalars(html))
        let tokens = tokenizer.run()
        return withoutActuallyEscaping(media) { target in
            var converter = Converter(tokens: tokens, mediaTarget: target)
            return converter.run()
        }
    }

    /// Escapes plain (non-HTML) text so that Markdown renders it literally.
    ///
    /// Backslash-escapes `\`, `*`, `_`, `` ` ``, `[`, `]`, `<`, `>`, `$` and `~` everywhere,
    /// `&` where it would start a character reference, and `#`, `+`, `-`, `=` or the `.`
    /// or `)` after leading digits at the start of a line. Line breaks are kept (CR LF and CR become LF); spaces and tabs
    /// at the start and end of each line are removed, and control characters are dropped.
    /// Anki syntax such as `{{c1::…}}` is left untouched.
    ///
    /// - Parameter text: The plain text, for example a CSV field imported without HTML.
    /// - Returns: Markdown that reads as the same text.
    public static func escaped(_ text: String) -> String {
        let scalars = normalizedScalars(text)
        var lines: [String] = []
        var start = 0
        var index = 0
        while index <= scalars.count {
            if index == scalars.count || scalars[index] == "\n" {
                var lower = start
                var upper = index
                while lower < upper, scalars[lower].isLineSpace { lower += 1 }
                while upper > lower, scalars[upper - 1].isLineSpace { upper -= 1 }
                var buffer = ""
                let slice = scalars[lower..<upper]
                for position in slice.indices {
                    appendEscaped(slice[position], in: slice, at: position, to: &buffer)
                }
                lines.append(escapingLineStart(buffer))
                start = index + 1
            }
            index += 1
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Shared helpers

private typealias Scalar = Unicode.Scalar

extension Unicode.Scalar {
    /// ASCII whitespace as HTML collapses it.
    fileprivate var isHTMLSpace: Bool {
        switch value {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D: return true
        default: return false
        }
    }

    /// Whitespace trimmed from the ends of a plain-text line.
    fileprivate var isLineSpace: Bool { value == 0x20 || value == 0x09 || value == 0x0C }

    fileprivate var isASCIILetter: Bool {
        (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
    }

    fileprivate var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }

    fileprivate var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }

    fileprivate var isASCIIPunctuation: Bool {
        (value >= 0x21 && value <= 0x2F) || (value >= 0x3A && value <= 0x40)
            || (value >= 0x5B && value <= 0x60) || (value >= 0x7B && value <= 0x7E)
    }

    /// C0 controls other than tab and line feed, DEL and the C1 controls.
    fileprivate var isUnwantedControl: Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A) || (value >= 0x7F && value <= 0x9F)
    }

    fileprivate var asciiLowercased: Unicode.Scalar {
        value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value + 0x20)) : self
    }
}

/// The scalars of `text` with CR LF and lone CR turned into LF.
private func normalizedScalars(_ text: String) -> [Scalar] {
    var result: [Scalar] = []
    result.reserveCapacity(text.utf8.count)
    var afterCR = false
    for scalar in text.unicodeScalars {
        if scalar == "\r" {
            result.append("\n")
            afterCR = true
            continue
        }
        if scalar == "\n" && afterCR {
            afterCR = false
            continue
        }
        afterCR = false
        result.append(scalar)
    }
    return result
}

private func makeString<S: Sequence>(_ scalars: S) -> String where S.Element == Scalar {
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
}

private func spaces(_ count: Int) -> String {
    String(repeating: " ", count: max(0, count))
}

private func trimmingTrailingSpaces(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    while let last = scalars.last, last == " " { scalars.removeLast() }
    return String(scalars)
}

/// Appends `scalar` (found at `position` in `context`) to `buffer`, backslash-escaped when
/// Markdown could read it as syntax anywhere in a line. Unwanted control characters are
/// dropped.
private func appendEscaped(
    _ scalar: Scalar, in context: ArraySlice<Scalar>, at position: Int, to buffer: inout String
) {
    switch scalar {
    case "\\", "*", "_", "`", "[", "]", "<", ">", "$", "~":
        buffer.unicodeScalars.append("\\")
        buffer.unicodeScalars.append(scalar)
    case "&":
        buffer += startsCharacterReference(context, at: position) ? "\\&" : "&"
    default:
        if !scalar.isUnwantedControl { buffer.unicodeScalars.append(scalar) }
    }
}

/// Whether the `&` at `position` starts something a Markdown renderer could decode as a
/// character reference: `&name;`, `&#123;` or `&#x1F;` (names and numbers are bounded in
/// length, as renderers bound them).
private func startsCharacterReference(_ context: ArraySlice<Scalar>, at position: Int) -> Bool {
    var index = position + 1
    guard index < context.endIndex else { return false }
    let isDigit: (Scalar) -> Bool
    if context[index] == "#" {
        index += 1
        if index < context.endIndex, context[index] == "x" || context[index] == "X" {
            index += 1
            isDigit = { $0.isASCIIDigit || ("a"..."f").contains($0) || ("A"..."F").contains($0) }
        } else {
            isDigit = { $0.isASCIIDigit }
        }
    } else {
        guard context[index].isASCIILetter else { return false }
        isDigit = { $0.isASCIIAlphanumeric }
    }
    let start = index
    while index < context.endIndex, index - start <= 32, isDigit(context[index]) { index += 1 }
    return index > start && index - start <= 32 && index < context.endIndex && context[index] == ";"
}

/// Escapes what would make the start of a line of literal text a heading, list item,
/// quote, setext underline or thematic break.
private func escapingLineStart(_ line: String) -> String {
    let scalars = Array(line.unicodeScalars)
    guard let first = scalars.first else { return line }
    switch first {
    case "#", "+", "-", "=":
        return "\\" + line
    default:
        guard first.isASCIIDigit else { return line }
        var index = 0
        while index < scalars.count, scalars[index].isASCIIDigit { index += 1 }
        guard index < scalars.count, scalars[index] == "." || scalars[index] == ")" else {
            return line
        }
        return makeString(scalars[..<index]) + "\\" + makeString(scalars[index...])
    }
}

/// Whether `text` starts with a URL scheme (`^[a-zA-Z][a-zA-Z0-9+.-]*:`).
private func hasScheme(_ text: String) -> Bool {
    var iterator = text.unicodeScalars.makeIterator()
    guard let first = iterator.next(), first.isASCIILetter else { return false }
    while let scalar = iterator.next() {
        if scalar == ":" { return true }
        guard scalar.isASCIIAlphanumeric || scalar == "+" || scalar == "." || scalar == "-" else {
            return false
        }
    }
    return false
}

/// A URL attribute value with tabs, line breaks and control characters removed and
/// surrounding spaces trimmed.
private func cleanedURL(_ text: String) -> String {
    var scalars = text.unicodeScalars.filter { !$0.isUnwantedControl && $0 != "\t" && $0 != "\n" }
    while let first = scalars.first, first == " " || first == "\u{0C}" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\u{0C}" { scalars.removeLast() }
    return makeString(scalars)
}

/// Formats a link or image target. Targets containing spaces, parentheses or angle
/// brackets are wrapped in `<…>` (with `<` and `>` written as `%3C` and `%3E`); a
/// backslash that Markdown would read as an escape is doubled.
private func linkDestination(_ target: String) -> String {
    let scalars = Array(target.unicodeScalars.filter { !$0.isUnwantedControl && $0 != "\n" && $0 != "\t" })
    var result = ""
    var wrap = false
    for (index, scalar) in scalars.enumerated() {
        switch scalar {
        case " ", "(", ")":
            wrap = true
            result.unicodeScalars.append(scalar)
        case "<":
            wrap = true
            result += "%3C"
        case ">":
            wrap = true
            result += "%3E"
        case "\\":
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            result += next.map { $0.isASCIIPunctuation } ?? true ? "\\\\" : "\\"
        default:
            result.unicodeScalars.append(scalar)
        }
    }
    return wrap || result.isEmpty ? "<" + result + ">" : result
}

/// Collapses whitespace runs to single spaces (treating no-break spaces as spaces), trims
/// the ends and escapes the result as literal text.
private func escapedInlineText(_ text: String) -> String {
    var collapsed: [Scalar] = []
    for scalar in text.unicodeScalars {
        if scalar.isHTMLSpace || scalar == "\u{A0}" {
            if let last = collapsed.last, last != " " { collapsed.append(" ") }
        } else if !scalar.isUnwantedControl {
            collapsed.append(scalar)
        }
    }
    while let last = collapsed.last, last == " " { collapsed.removeLast() }
    let slice = collapsed[...]
    var result = ""
    for index in slice.indices { appendEscaped(slice[index], in: slice, at: index, to: &result) }
    return result
}

// MARK: - Entity decoding

/// Decodes character references in `text`. Unknown or malformed references (including
/// ones without the closing `;`) are kept literally. Unwanted control characters are
/// dropped; in text content a no-break space becomes a plain space.
private func decodeEntities(_ text: ArraySlice<Scalar>, inText: Bool) -> [Scalar] {
    var result: [Scalar] = []
    result.reserveCapacity(text.count)
    var index = text.startIndex
    while index < text.endIndex {
        let scalar = text[index]
        if scalar == "&", let reference = characterReference(in: text, at: index) {
            if let decoded = reference.scalar {
                if inText && decoded == "\u{A0}" {
                    result.append(" ")
                } else if !decoded.isUnwantedControl {
                    result.append(decoded)
                }
            }
            index = reference.end
            continue
        }
        if inText && scalar == "\u{A0}" {
            result.append(" ")
        } else if !scalar.isUnwantedControl {
            result.append(scalar)
        }
        index += 1
    }
    return result
}

/// Parses the character reference starting with the `&` at `start`.
private func characterReference(
    in text: ArraySlice<Scalar>, at start: Int
) -> (scalar: Scalar?, end: Int)? {
    var index = start + 1
    guard index < text.endIndex else { return nil }
    if text[index] == "#" {
        index += 1
        var hex = false
        if index < text.endIndex, text[index] == "x" || text[index] == "X" {
            hex = true
            index += 1
        }
        let digitsStart = index
        var value: UInt32 = 0
        var outOfRange = false
        while index < text.endIndex {
            let code = text[index].value
            let digit: UInt32
            if code >= 0x30 && code <= 0x39 {
                digit = code - 0x30
            } else if hex && code >= 0x61 && code <= 0x66 {
                digit = code - 0x61 + 10
            } else if hex && code >= 0x41 && code <= 0x46 {
                digit = code - 0x41 + 10
            } else {
                break
            }
            if !outOfRange {
                value = value * (hex ? 16 : 10) + digit
                if value > 0x10FFFF { outOfRange = true }
            }
            index += 1
        }
        guard index > digitsStart, index < text.endIndex, text[index] == ";" else { return nil }
        return (HTMLEntities.numeric(value, outOfRange: outOfRange), index + 1)
    }
    let nameStart = index
    while index < text.endIndex, index - nameStart < 32, text[index].isASCIIAlphanumeric {
        index += 1
    }
    guard index > nameStart, index < text.endIndex, text[index] == ";" else { return nil }
    guard let code = HTMLEntities.named[makeString(text[nameStart..<index])],
        let scalar = Unicode.Scalar(code)
    else { return nil }
    return (scalar, index + 1)
}

// MARK: - Tokenizer

/// A start tag with the attributes the converter uses.
private struct StartTag {
    var name: String
    var selfClosing = false
    var href: String?
    var src: String?
    var alt: String?
    var start: String?
}

private enum Token {
    /// Decoded text (references resolved, control characters dropped).
    case text([Scalar])
    case start(StartTag)
    case end(String)
}

/// Splits the input into text, start tags and end tags. Comments, doctypes and processing
/// instructions are skipped; the content of raw-text elements (`script`, `style`, `title`,
/// `iframe`) is skipped and reported as an empty element.
///
/// A tag that never reaches its closing `>` makes the rest of the input text. Every scan
/// either consumes what it scanned or ends tokenization, which keeps the pass linear.
private struct Tokenizer {
    private static let rawTextElements: Set<String> = ["script", "style", "title", "iframe"]

    private let input: [Scalar]
    private var tokens: [Token] = []
    /// Positions from which no `"` (or `'`) occurs any more.
    private var noDoubleQuoteFrom = Int.max
    private var noSingleQuoteFrom = Int.max

    init(_ input: [Scalar]) {
        self.input = input
    }

    private enum Markup {
        case text
        case restIsText
        case consumed(end: Int, tokens: [Token])
    }

    mutating func run() -> [Token] {
        let count = input.count
        var index = 0
        var textStart = 0
        scanning: while index < count {
            guard input[index] == "<" else {
                index += 1
                continue
            }
            switch markup(at: index) {
            case .text:
                index += 1
            case .restIsText:
                break scanning
            case .consumed(let end, let found):
                flushText(from: textStart, to: index)
                tokens.append(contentsOf: found)
                index = end
                textStart = end
            }
        }
        flushText(from: textStart, to: count)
        return tokens
    }

    private mutating func flushText(from start: Int, to end: Int) {
        guard start < end else { return }
        let decoded = decodeEntities(input[start..<end], inText: true)
        guard !decoded.isEmpty else { return }
        if case .text(var previous) = tokens.last {
            tokens.removeLast()
            previous.append(contentsOf: decoded)
            tokens.append(.text(previous))
        } else {
            tokens.append(.text(decoded))
        }
    }

    private mutating func markup(at start: Int) -> Markup {
        let count = input.count
        guard start + 1 < count else { return .text }
        let next = input[start + 1]
        if next == "!" {
            if start + 3 < count, input[start + 2] == "-", input[start + 3] == "-" {
                return .consumed(end: commentEnd(from: start + 4), tokens: [])
            }
            guard let close = firstIndex(of: ">", from: start + 2) else { return .restIsText }
            return .consumed(end: close + 1, tokens: [])
        }
        if next == "?" {
            guard let close = firstIndex(of: ">", from: start + 2) else { return .restIsText }
            return .consumed(end: close + 1, tokens: [])
        }
        if next == "/" {
            guard start + 2 < count, input[start + 2].isASCIILetter else { return .text }
            let (name, afterName) = tagName(from: start + 2)
            var ignored = StartTag(name: name)
            guard let end = attributes(from: afterName, into: &ignored) else { return .restIsText }
            return .consumed(end: end, tokens: [.end(name)])
        }
        guard next.isASCIILetter else { return .text }
        let (name, afterName) = tagName(from: start + 1)
        var tag = StartTag(name: name)
        guard let end = attributes(from: afterName, into: &tag) else { return .restIsText }
        guard Self.rawTextElements.contains(name), !tag.selfClosing else {
            return .consumed(end: end, tokens: [.start(tag)])
        }
        return .consumed(end: rawTextEnd(of: name, from: end), tokens: [.start(tag), .end(name)])
    }

    /// The end of a comment whose `<!--` ends just before `start` (the end of the input
    /// when it is unterminated).
    private func commentEnd(from start: Int) -> Int {
        let count = input.count
        if start < count, input[start] == ">" { return start + 1 }
        if start + 1 < count, input[start] == "-", input[start + 1] == ">" { return start + 2 }
        var index = start
        while index + 2 < count {
            if input[index] == "-", input[index + 1] == "-", input[index + 2] == ">" {
                return index + 3
            }
            index += 1
        }
        return count
    }

    /// The end of the matching `</name …>` of a raw-text element (the end of the input
    /// when there is none).
    private func rawTextEnd(of name: String, from start: Int) -> Int {
        let target = Array(name.unicodeScalars)
        let count = input.count
        var index = start
        while index + 1 < count {
            if input[index] == "<", input[index + 1] == "/", matchesLowercased(target, at: index + 2) {
                let after = index + 2 + target.count
                if after >= count || input[after].isHTMLSpace || input[after] == "/" || input[after] == ">" {
                    return firstIndex(of: ">", from: after).map { $0 + 1 } ?? count
                }
            }
            index += 1
        }
        return count
    }

    private func matchesLowercased(_ target: [Scalar], at start: Int) -> Bool {
        guard start + target.count <= input.count else { return false }
        for (offset, scalar) in target.enumerated() where input[start + offset].asciiLowercased != scalar {
            return false
        }
        return true
    }

    private func firstIndex(of scalar: Scalar, from start: Int) -> Int? {
        var index = start
        while index < input.count {
            if input[index] == scalar { return index }
            index += 1
        }
        return nil
    }

    private func tagName(from start: Int) -> (String, Int) {
        var index = start
        var name = ""
        while index < input.count, !input[index].isHTMLSpace, input[index] != "/", input[index] != ">" {
            name.unicodeScalars.append(input[index].asciiLowercased)
            index += 1
        }
        return (name, index)
    }

    /// The position of the closing `quote` at or after `start`, if any.
    private mutating func closingQuote(_ quote: Scalar, from start: Int) -> Int? {
        let double = quote == "\""
        if start >= (double ? noDoubleQuoteFrom : noSingleQuoteFrom) { return nil }
        if let found = firstIndex(of: quote, from: start) { return found }
        if double { noDoubleQuoteFrom = start } else { noSingleQuoteFrom = start }
        return nil
    }

    /// Parses attributes up to the end of the tag; returns the position after `>` or `nil`
    /// when the input ends first. A quote without a closing quote starts an unquoted value.
    private mutating func attributes(from start: Int, into tag: inout StartTag) -> Int? {
        let count = input.count
        var index = start
        while index < count {
            let scalar = input[index]
            if scalar.isHTMLSpace {
                index += 1
                continue
            }
            if scalar == ">" { return index + 1 }
            if scalar == "/" {
                if index + 1 < count, input[index + 1] == ">" {
                    tag.selfClosing = true
                    return index + 2
                }
                index += 1
                continue
            }
            let nameStart = index
            index += 1
            while index < count, !input[index].isHTMLSpace, input[index] != "/",
                input[index] != ">", input[index] != "="
            {
                index += 1
            }
            let nameEnd = index
            while index < count, input[index].isHTMLSpace { index += 1 }
            var value: Range<Int>?
            if index < count, input[index] == "=" {
                index += 1
                while index < count, input[index].isHTMLSpace { index += 1 }
                if index < count, input[index] == "\"" || input[index] == "'",
                    let close = closingQuote(input[index], from: index + 1)
                {
                    value = (index + 1)..<close
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < count, !input[index].isHTMLSpace, input[index] != ">" { index += 1 }
                    var valueEnd = index
                    // `src=a.png/>`: read the slash as the end of the tag, not part of the value.
                    if index < count, valueEnd > valueStart, input[valueEnd - 1] == "/" { valueEnd -= 1 }
                    value = valueStart..<valueEnd
                }
            }
            assign(name: nameStart..<nameEnd, value: value, to: &tag)
        }
        return nil
    }

    private func assign(name: Range<Int>, value: Range<Int>?, to tag: inout StartTag) {
        guard name.count >= 3, name.count <= 5 else { return }
        let lowered = makeString(input[name].map { $0.asciiLowercased })
        func decoded() -> String {
            value.map { makeString(decodeEntities(input[$0], inText: false)) } ?? ""
        }
        switch lowered {
        case "href" where tag.href == nil: tag.href = decoded()
        case "src" where tag.src == nil: tag.src = decoded()
        case "alt" where tag.alt == nil: tag.alt = decoded()
        case "start" where tag.start == nil: tag.start = decoded()
        default: break
        }
    }
}

// MARK: - Converter

private enum MarkKind {
    case bold, italic, strike, link
}

/// An inline construct written as an opening and a closing marker.
private struct Mark {
    var kind: MarkKind
    var open: String
    var close: String
    /// Whether the opening marker is on the current line (it is written lazily, just
    /// before the first content, so empty elements write nothing).
    var written = false
}

/// A block construct that prefixes every line it contains.
private struct Container {
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

private struct Frame {
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

private enum MathKind: Int, CaseIterable {
    case paren, bracket, dollar, doubleDollar, latex

    static let opens: [[Scalar]] = ["\\(", "\\[", "[$]", "[$$]", "[latex]"].map { Array($0.unicodeScalars) }
    static let closes: [[Scalar]] = ["\\)", "\\]", "[/$]", "[/$$]", "[/latex]"].map { Array($0.unicodeScalars) }

    /// The kinds whose opening delimiter starts with `[` (`[$$]` before `[$]`).
    static let bracketed: [MathKind] = [.doubleDollar, .dollar, .latex]

    var open: [Scalar] { Self.opens[rawValue] }
    var close: [Scalar] { Self.closes[rawValue] }
    var isDisplay: Bool { self == .bracket || self == .doubleDollar || self == .latex }
}

private enum Mode {
    case normal
    /// Collecting the text of a code span.
    case code
    /// Collecting the verbatim text of a `<pre>` block.
    case pre
    /// Collecting MathJax content up to the closing delimiter.
    case math(MathKind)
}

private let soundOpen = Array("[sound:".unicodeScalars)

private let droppedElements: Set<String> = [
    "script", "style", "iframe", "object", "embed", "head", "title", "template", "svg", "math",
]

private let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta",
    "param", "source", "track", "wbr",
]

/// Elements laid out like `<div>`: on their own lines, separated by a single line break.
private let divLikeElements: Set<String> = [
    "div", "address", "article", "aside", "caption", "center", "dd", "details", "dialog", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "main", "nav",
    "section", "summary", "table",
]

/// Elements that end a code span and become line breaks inside `<pre>` and display math.
private let blockElements: Set<String> = divLikeElements.union([
    "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre", "tbody",
    "td", "tfoot", "th", "thead", "tr", "ul",
])

/// More nested quotes and lists than this are laid out as plain blocks, which bounds the
/// length of line prefixes.
private let maximumContainerDepth = 32

private struct Converter {
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
            case .start(let tag): handleStart(tag)
            case .end(let name): handleEnd(name)
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

    private mutating func handleStart(_ tag: StartTag) {
        let name = tag.name
        if dropDepth > 0 {
            if name == dropName && !tag.selfClosing { dropDepth += 1 }
            return
        }
        if droppedElements.contains(name) {
            if !dropped.contains(name) { dropped.append(name) }
            if !tag.selfClosing && name != "embed" {
                dropName = name
                dropDepth = 1
            }
            return
        }
        switch mode {
        case .code:
            if name == codeCloser {
                if !tag.selfClosing { codeNesting += 1 }
                return
            }
            if name == "br" {
                appendCode(" ")
                return
            }
            guard blockElements.contains(name) else { return }
            finishCode()
        case .pre:
            if name == "br" {
                preBuffer.append("\n")
            } else if blockElements.contains(name), let last = preBuffer.last, last != "\n" {
                preBuffer.append("\n")
            }
            return
        case .math(let kind):
            if name == "br" || blockElements.contains(name) { mathBuffer.append(kind.isDisplay ? "\n" : " ") }
            return
        case .normal:
            break
        }
        openElement(tag)
    }

    private mutating func handleEnd(_ name: String) {
        if dropDepth > 0 {
            if name == dropName { dropDepth -= 1 }
            return
        }
        switch mode {
        case .code:
            if name == codeCloser {
                codeNesting -= 1
                if codeNesting <= 0 { finishCode() }
                return
            }
            if name == "br" {
                appendCode(" ")
                return
            }
            guard blockElements.contains(name) else { return }
            finishCode()
        case .pre:
            if name == "pre" {
                finishPre()
            } else if name == "br" {
                preBuffer.append("\n")
            }
            return
        case .math(let kind):
            if name == "br" || blockElements.contains(name) { mathBuffer.append(kind.isDisplay ? "\n" : " ") }
            return
        case .normal:
            break
        }
        if name == "br" {
            lineBreak()
            return
        }
        guard let index = innermost(name) else { return }
        closeFrames(downTo: index)
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
        if tag.selfClosing { handleEnd(name) }
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
