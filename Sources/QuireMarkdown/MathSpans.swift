/// Math in Markdown (`$…$`, `$$…$$`) kept out of the Markdown renderer, which would take `\{`,
/// `\\`, `\,` for escapes and drop their backslashes: the TeX is put back byte for byte, in the
/// form the page reading it wants (Anki's MathJax `\(…\)` and `\[…\]`, KaTeX's elements).
///
/// The spans are cut out before the Markdown is rendered, each replaced by a placeholder a
/// renderer keeps as text, and put back in the HTML afterwards. Code spans and fenced code blocks
/// are left alone; `\$` is a dollar sign. An inline `$…$` stays on one line, opens before a
/// non-space and closes after one, and is not followed by a digit (so `$5 and $6` is text).
/// Linear in the text's length.
public enum MathSpans {
    /// A math span cut out of Markdown.
    public struct Span: Equatable, Sendable {
        /// The TeX between the dollar signs.
        public var tex: String
        /// Whether it was `$$…$$` (a display formula).
        public var display: Bool
    }

    /// Placeholder delimiters: private-use characters, which Markdown leaves as text.
    static let open: Character = "\u{E010}", close: Character = "\u{E011}"

    /// The Markdown with its math replaced by placeholders, and the spans in order.
    public static func protect(_ markdown: String) -> (markdown: String, spans: [Span]) {
        // The text already holding a placeholder character is left as it is (nothing to protect
        // then: the spans could not be told from it).
        guard !markdown.contains(open), !markdown.contains(close), markdown.contains("$") else { return (markdown, []) }
        var protector = Protector(Array(markdown.unicodeScalars))
        while protector.i < protector.s.count { protector.step() }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: protector.out)
        return (String(text), protector.spans)
    }

    /// The state of ``protect(_:)`` as it goes through the text once, scalar by scalar.
    private struct Protector {
        /// The Markdown's scalars.
        let s: [Unicode.Scalar]
        /// Scalars gathered in an array: appending a string to a `String.UnicodeScalarView` copies
        /// all it holds (one card of 64,000 formulas took 10 s to export).
        var out: [Unicode.Scalar] = []
        /// The spans cut out so far.
        var spans: [Span] = []
        /// Every backtick run's start by its length, and where each blank line is: an opener's
        /// closing run is the next of its length, if it comes before the paragraph ends. (Searching
        /// the rest of the paragraph from each opener is quadratic: runs of every length, never
        /// closed.) `next` keeps, for each list, how far earlier openers have read it.
        var runs: [Int: [Int]] = [:], breaks: [Int] = []
        var next: [Int: Int] = [:], nextBreak = 0
        /// The scalar read next.
        var i = 0
        var atLineStart = true
        /// The fence of the code block the text is in, if any.
        var fence: (char: Unicode.Scalar, count: Int)?

        /// A protector at the start of `s`, with its backtick runs and blank lines found.
        init(_ s: [Unicode.Scalar]) {
            self.s = s
            out.reserveCapacity(s.count)
            var k = 0
            while k < s.count {
                if s[k] == "`" {
                    let start = k
                    while k < s.count, s[k] == "`" { k += 1 }
                    runs[k - start, default: []].append(start)
                    continue
                }
                if s[k] == "\n", k + 1 < s.count, s[k + 1] == "\n" { breaks.append(k) }
                k += 1
            }
        }

        /// Copies scalar `k` to the output.
        mutating func put(_ k: Int) {
            out.append(s[k])
        }

        /// Reads at `i`: code is copied as it is, math replaced by its placeholder.
        mutating func step() {
            let c = s[i]
            if atLineStart { readFence() }
            if fence != nil || c == "\n" {
                atLineStart = c == "\n"
                put(i)
                i += 1
                return
            }
            atLineStart = false
            if c == "\\", i + 1 < s.count {
                put(i)
                put(i + 1)
                i += 2
                return
            }
            if c == "`" {
                copyCodeSpan()
                return
            }
            if c == "$", takeMath() { return }
            put(i)
            i += 1
        }

        /// At a line's start: a fence line opens or closes a code block.
        mutating func readFence() {
            var j = i
            while j < s.count, s[j] == " " { j += 1 }
            let run = s[j...].prefix { $0 == "`" || $0 == "~" }
            let char = run.first
            let count = run.prefix { $0 == char }.count
            if let char, count >= 3 {
                if let f = fence {
                    if f.char == char && count >= f.count { fence = nil }
                } else {
                    fence = (char, count)
                }
            }
        }

        /// Copies the code span opening at `i`: the same run of backticks closes it (on any line
        /// of the paragraph); an unclosed run is copied alone.
        mutating func copyCodeSpan() {
            let run = s[i...].prefix { $0 == "`" }.count
            // The first run of this length after the opener, and the paragraph's end.
            let after = i + run
            let starts = runs[run] ?? []
            var n = next[run] ?? 0
            while n < starts.count, starts[n] < after { n += 1 }
            next[run] = n
            while nextBreak < breaks.count, breaks[nextBreak] < after { nextBreak += 1 }
            let paragraphEnd = nextBreak < breaks.count ? breaks[nextBreak] : s.count
            let closed: Int? = n < starts.count && starts[n] < paragraphEnd ? starts[n] + run : nil
            let end = closed ?? i + run
            for k in i..<end { put(k) }
            i = end
        }

        /// Cuts out the math span opening with the `$` at `i`, if one does; returns whether it did.
        mutating func takeMath() -> Bool {
            let display = i + 1 < s.count && s[i + 1] == "$"
            if display, let end = find(s, "$$", from: i + 2) {
                spans.append(Span(tex: String(String.UnicodeScalarView(s[(i + 2)..<end])), display: true))
                out += placeholder(spans.count - 1).unicodeScalars
                i = end + 2
                return true
            }
            guard !display, i + 1 < s.count, !s[i + 1].properties.isWhitespace else { return false }
            var j = i + 1
            var end: Int?
            while j < s.count, s[j] != "\n" {
                if s[j] == "\\" { j += 2; continue }
                if s[j] == "$" {
                    if !s[j - 1].properties.isWhitespace, j + 1 >= s.count || !("0"..."9").contains(s[j + 1]) { end = j }
                    break
                }
                j += 1
            }
            guard let end else { return false }
            spans.append(Span(tex: String(String.UnicodeScalarView(s[(i + 1)..<end])), display: false))
            out += placeholder(spans.count - 1).unicodeScalars
            i = end + 1
            return true
        }
    }

    /// The first `$$` at or after `start`, not escaped, before a blank line.
    private static func find(_ s: [Unicode.Scalar], _ marker: String, from start: Int) -> Int? {
        var j = start
        while j + 1 < s.count {
            if s[j] == "\\" { j += 2; continue }
            if s[j] == "\n", s[j + 1] == "\n" { return nil }
            if s[j] == "$", s[j + 1] == "$" { return j }
            j += 1
        }
        return nil
    }

    static func placeholder(_ k: Int) -> String { "\(open)\(k)\(close)" }

    /// The HTML with each placeholder replaced by what `replacement` makes of its span (which
    /// must escape the TeX for HTML).
    public static func restore(_ html: String, _ spans: [Span], _ replacement: (Span) -> String) -> String {
        guard !spans.isEmpty else { return html }
        var out = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: Self.open), let close = rest[open...].firstIndex(of: Self.close),
              let k = Int(rest[rest.index(after: open)..<close]), spans.indices.contains(k) {
            out += rest[..<open]
            let span = spans[k]
            out += replacement(span)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
