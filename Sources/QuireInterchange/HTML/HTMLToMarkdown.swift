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
        var tokenizer = HTMLTokenizer(normalizedScalars(html))
        let tokens = tokenizer.run()
        return withoutActuallyEscaping(media) { target in
            var converter = HTMLConverter(tokens: tokens, mediaTarget: target)
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

typealias Scalar = Unicode.Scalar

extension Unicode.Scalar {
    /// ASCII whitespace as HTML collapses it.
    var isHTMLSpace: Bool {
        switch value {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D: return true
        default: return false
        }
    }

    /// Whitespace trimmed from the ends of a plain-text line.
    var isLineSpace: Bool { value == 0x20 || value == 0x09 || value == 0x0C }

    var isASCIILetter: Bool {
        (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
    }

    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }

    var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }

    var isASCIIPunctuation: Bool {
        (value >= 0x21 && value <= 0x2F) || (value >= 0x3A && value <= 0x40)
            || (value >= 0x5B && value <= 0x60) || (value >= 0x7B && value <= 0x7E)
    }

    /// C0 controls other than tab and line feed, DEL and the C1 controls.
    var isUnwantedControl: Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A) || (value >= 0x7F && value <= 0x9F)
    }

    var asciiLowercased: Unicode.Scalar {
        value >= 0x41 && value <= 0x5A ? Unicode.Scalar(UInt8(value + 0x20)) : self
    }
}

/// The scalars of `text` with CR LF and lone CR turned into LF.
func normalizedScalars(_ text: String) -> [Scalar] {
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

func makeString<S: Sequence>(_ scalars: S) -> String where S.Element == Scalar {
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
}

func spaces(_ count: Int) -> String {
    String(repeating: " ", count: max(0, count))
}

func trimmingTrailingSpaces(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    while let last = scalars.last, last == " " { scalars.removeLast() }
    return String(scalars)
}

/// Appends `scalar` (found at `position` in `context`) to `buffer`, backslash-escaped when
/// Markdown could read it as syntax anywhere in a line. Unwanted control characters are
/// dropped.
func appendEscaped(
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
func startsCharacterReference(_ context: ArraySlice<Scalar>, at position: Int) -> Bool {
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
func escapingLineStart(_ line: String) -> String {
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
func hasScheme(_ text: String) -> Bool {
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
func cleanedURL(_ text: String) -> String {
    let kept = text.unicodeScalars.filter { !$0.isUnwantedControl && $0 != "\t" && $0 != "\n" }
    // A slice: taking the first of an array moves all the rest (many leading spaces, quadratic).
    var scalars = kept[...]
    while let first = scalars.first, first == " " || first == "\u{0C}" { scalars.removeFirst() }
    while let last = scalars.last, last == " " || last == "\u{0C}" { scalars.removeLast() }
    return makeString(scalars)
}

/// Formats a link or image target. Targets containing spaces, parentheses or angle
/// brackets are wrapped in `<…>` (with `<` and `>` written as `%3C` and `%3E`); a
/// backslash that Markdown would read as an escape is doubled.
func linkDestination(_ target: String) -> String {
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
func escapedInlineText(_ text: String) -> String {
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
