/// Renders a Markdown note as HTML with cmark-gfm's own HTML renderer, for reports, Anki export
/// and web pages.
///
/// The GFM extensions are on (tables, strikethrough, autolinks, task lists, footnotes, and the tag
/// filter), and the output is safe by default: a vault is untrusted input, so raw HTML is left
/// out (`<!-- raw HTML omitted -->`) and links to `javascript:`, `vbscript:`, `file:` and
/// non-image `data:` URLs lose their destination, unless ``allowsRawHTML`` is set.
///
/// On top of Markdown the renderer knows three marks, which it finds outside code spans and code
/// blocks only (inside them they are code):
/// - cloze deletions `{{c1::answer}}` and `{{c1::answer::hint}}` (Anki's syntax), rendered as
///   ``ClozeStyle`` says: verbatim, or one cloze hidden or revealed;
/// - highlights `==text==`, verbatim or as `<mark>` (``HighlightStyle``);
/// - wikilinks `[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]`, as links to the URL that
///   ``wikilinkURL`` gives (`<a class="wikilink" href="…">label</a>`), or
///   `<span class="wikilink missing">label</span>` when it gives none (`<span class="wikilink">`
///   when it gives an empty one);
/// - Obsidian embeds `![[file.png]]`, `![[Note#Heading]]`, as the HTML ``embedHTML`` gives.
///
/// ## Design
/// The renderer parses the note itself, through the same cmark-gfm setup as ``MarkdownDocument``
/// (extensions, locking, BOM and NUL handling, ``MarkdownLimits``). It does not work from a
/// ``MarkdownDocument``: that is a Swift copy of the tree whose C tree is freed before it exists,
/// and `cmark_render_html` needs cmark's tree, which rebuilding from the copy would duplicate
/// cmark's own node construction. So the renderer keeps cmark's tree for the length of one call:
/// it parses with cmark's default allocator (so that nodes it makes may join the tree), merges
/// adjacent text nodes, replaces the marks in each inline container by cmark custom inline nodes
/// (whose HTML is written as given, while their text children are escaped by cmark), renders, copies
/// the HTML into a `String` and frees everything before returning. Nothing of cmark escapes the
/// call, and no public declaration mentions a C type.
///
/// Time is linear in the note's size: cmark-gfm's is, once ``MarkdownLimits`` has refused the
/// shapes where it is not, and the marks are found in one pass (see `InlineMarks`). The output
/// depends on the input and the options only.
public struct MarkdownHTMLRenderer: Sendable {
    /// How cloze deletions render.
    public enum ClozeStyle: Hashable, Sendable {
        /// As written, `{{c1::answer::hint}}` (what Anki imports; ``MarkdownHTMLRenderer`` only
        /// keeps an autolink from swallowing a closing `}}`).
        case text
        /// Cloze `number` hidden: `<span class="cloze">[...]</span>`, or `[hint]` when it has a
        /// hint. Every other cloze shows its answer as plain content.
        case hidden(number: Int)
        /// Cloze `number` revealed: `<span class="cloze">answer</span>`. Every other cloze shows
        /// its answer as plain content. Hints are not shown.
        case revealed(number: Int)
    }

    /// How `==highlights==` render.
    public enum HighlightStyle: Hashable, Sendable {
        /// As written, `==text==`.
        case text
        /// `<mark>text</mark>`.
        case mark
    }

    /// How cloze deletions render; verbatim by default.
    public var clozes: ClozeStyle
    /// How highlights render; verbatim by default.
    public var highlights: HighlightStyle
    /// Whether raw HTML in the note is passed through (cmark's `CMARK_OPT_UNSAFE`), and link
    /// destinations are not checked; off by default, as a vault is untrusted input. The tag filter
    /// still escapes `<script>`, `<iframe>`, `<style>` and the other tags GFM filters.
    public var allowsRawHTML: Bool
    /// Whether a line break inside a paragraph is a line break (`<br />`), as a card's side shows
    /// it — as Anki and Obsidian show it — rather than a space; off by default.
    public var lineBreaks: Bool
    /// The URL of a wikilink's target, or nil for a target that does not exist; nil (the default)
    /// leaves wikilinks as written. The URL is escaped for the `href` attribute as cmark escapes a
    /// link destination (`%20` for a space, `&amp;` for `&`, …).
    public var wikilinkURL: (@Sendable (MarkdownWikilink) -> String?)?
    /// The HTML an Obsidian embed `![[target]]` shows (an image, a player, a note's section),
    /// which the caller makes safe; nil (from the function, or as the function) leaves the embed
    /// as written.
    public var embedHTML: (@Sendable (MarkdownWikilink) -> String?)?

    /// Creates a renderer.
    /// - Parameters:
    ///   - clozes: how cloze deletions render.
    ///   - highlights: how highlights render.
    ///   - allowsRawHTML: whether raw HTML passes through.
    ///   - lineBreaks: whether a line break inside a paragraph is a line break.
    ///   - wikilinkURL: the URL of a wikilink's target, nil for a missing one, empty for its
    ///     label without a link; nil to leave wikilinks as written.
    ///   - embedHTML: the HTML of an embed `![[target]]`; nil to leave embeds as written.
    public init(
        clozes: ClozeStyle = .text,
        highlights: HighlightStyle = .text,
        allowsRawHTML: Bool = false,
        lineBreaks: Bool = false,
        wikilinkURL: (@Sendable (MarkdownWikilink) -> String?)? = nil,
        embedHTML: (@Sendable (MarkdownWikilink) -> String?)? = nil
    ) {
        self.embedHTML = embedHTML
        self.clozes = clozes
        self.highlights = highlights
        self.allowsRawHTML = allowsRawHTML
        self.lineBreaks = lineBreaks
        self.wikilinkURL = wikilinkURL
    }

    /// Renders UTF-8 Markdown (a note's body, without its front matter) as HTML.
    ///
    /// A UTF-8 byte order mark at the start is skipped, NUL bytes become U+FFFD, and any line
    /// endings (`\n`, `\r\n`, `\r`) give the same HTML, whose lines end in `\n`.
    /// - Parameters:
    ///   - markdown: the Markdown source.
    ///   - lineOffset: added to the line of an error's location, so that it refers to the file.
    /// - Returns: the HTML; empty for an empty note.
    /// - Throws: ``MarkdownError/limitExceeded(message:at:)`` for a shape ``MarkdownLimits``
    ///   refuses (the same check and message as the indexer's), before cmark sees the note.
    public func render(_ markdown: String, lineOffset: Int = 0) throws(MarkdownError) -> String {
        var text = markdown
        let result = text.withUTF8 { render(buffer: $0, lineOffset: lineOffset) }
        return try result.get()
    }

    /// Renders UTF-8 Markdown bytes as HTML; see the string variant.
    public func render(bytes: some Collection<UInt8>, lineOffset: Int = 0) throws(MarkdownError) -> String {
        let result = bytes.withContiguousStorageIfAvailable { render(buffer: $0, lineOffset: lineOffset) }
            ?? Array(bytes).withUnsafeBufferPointer { render(buffer: $0, lineOffset: lineOffset) }
        return try result.get()
    }

    private func render(buffer: UnsafeBufferPointer<UInt8>, lineOffset: Int) -> Result<String, MarkdownError> {
        CmarkParse.withPreparedInput(buffer) { text -> Result<String, MarkdownError> in
            if let excess = MarkdownLimits.firstExcess(in: text) {
                let lines = LineTable(text)
                let line = lines.line(containing: excess.offset)
                let at = SourceLocation(line: line + lineOffset, column: excess.offset - lines.start(of: line) + 1)
                return .failure(.limitExceeded(message: excess.message, at: at))
            }
            return .success(renderHTML(text))
        }.result
    }

    /// Whether mark `mark` renders as something other than its text.
    func renders(_ mark: InlineMarks.Mark) -> Bool {
        guard mark.isMatched else { return false }
        switch mark.kind {
        case .cloze: return clozes != .text
        case .highlight: return highlights == .mark
        }
    }

    // MARK: - Attribute values

    /// `url` escaped for an `href` attribute the way cmark escapes link destinations
    /// (houdini_escape_href): bytes that may stand in a URL are kept, `&` and `'` become
    /// entities, every other byte `%XX`. An empty string for a dangerous URL unless raw HTML is
    /// allowed, as cmark does for links.
    func hrefAttribute(_ url: String) -> String {
        if !allowsRawHTML, Self.isDangerous(url) { return "" }
        var result = ""
        result.reserveCapacity(url.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;"
            case UInt8(ascii: "'"): result += "&#x27;"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                if Self.hrefKept.contains(byte) {
                    result.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    result += "%"
                    result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                    result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 15)]))
                }
            }
        }
        return result
    }

    /// The punctuation houdini_escape_href keeps.
    private static let hrefKept = Set("-_.+!*(),%#@?=;:/$~".utf8)

    /// cmark's test for links it renders without a destination in safe mode
    /// (`_scan_dangerous_url`): `javascript:`, `vbscript:`, `file:`, and `data:` except
    /// `data:image/png`, `gif`, `jpeg` and `webp`, in any case.
    static func isDangerous(_ url: String) -> Bool {
        let lower = String(url.lowercased().prefix(16))
        if lower.hasPrefix("javascript:") || lower.hasPrefix("vbscript:") || lower.hasPrefix("file:") { return true }
        guard lower.hasPrefix("data:") else { return false }
        return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains { lower.hasPrefix($0) }
    }
}
