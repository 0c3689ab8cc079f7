/// Which GFM extensions and cmark options to use when parsing.
///
/// Cost on realistic 3 KB notes, relative to plain CommonMark, is measured by the benchmark; see
/// ``indexing``.
public struct MarkdownParseOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: UInt32

    /// Creates options from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// GFM tables.
    public static let tables = MarkdownParseOptions(rawValue: 1 << 0)
    /// `~~strikethrough~~`.
    public static let strikethrough = MarkdownParseOptions(rawValue: 1 << 1)
    /// Extended autolinks: bare `www.…`, `http://…` and e-mail addresses become links.
    public static let autolinks = MarkdownParseOptions(rawValue: 1 << 2)
    /// `- [ ]` / `- [x]` task list items.
    public static let taskLists = MarkdownParseOptions(rawValue: 1 << 3)
    /// The GFM tag filter; it only affects HTML output, so it changes nothing in the tree.
    public static let tagFilter = MarkdownParseOptions(rawValue: 1 << 4)
    /// `[^label]` footnotes.
    public static let footnotes = MarkdownParseOptions(rawValue: 1 << 5)
    /// Smart punctuation: curly quotes, dashes and ellipses in text literals.
    public static let smartPunctuation = MarkdownParseOptions(rawValue: 1 << 6)

    /// Only code spans and inline HTML (and the blocks) get exact source ranges; the other inline
    /// nodes of a paragraph without code or HTML keep cmark-gfm's own positions, which can be off
    /// on continuation lines. It changes no node, kind, literal or block range, and saves
    /// recomputing positions nobody reads when only code and HTML spans matter (the indexer).
    public static let exactCodeSpansOnly = MarkdownParseOptions(rawValue: 1 << 7)

    /// A paragraph whose source lines hold no backtick and no `<` — so no code span and no inline
    /// HTML — gets no inline nodes (it is a leaf). Blocks, headings and table cells are whole.
    /// For readers that take paragraph text from the source and need only the code and HTML spans
    /// inside it (the indexer): most prose then costs no inline nodes and no literal copies. cmark
    /// does not even parse the inlines of such a paragraph unless it holds a footnote reference
    /// (`[^`) or is the last one of an input whose last line has no line ending.
    public static let bareProseParagraphs = MarkdownParseOptions(rawValue: 1 << 8)

    /// Everything GitHub renders: tables, strikethrough, autolinks, task lists, tag filter, footnotes.
    public static let `default`: MarkdownParseOptions = [
        .tables, .strikethrough, .autolinks, .taskLists, .tagFilter, .footnotes,
    ]

    /// What the vault indexer needs: tables and footnotes, with exact positions for code spans
    /// and inline HTML (``exactCodeSpansOnly``), and inline nodes only in paragraphs that may hold
    /// them (``bareProseParagraphs``).
    ///
    /// Autolinks and task lists are left out: they cost time and change nothing about where cards
    /// and code are (measured numbers are in the package's benchmark report). Strikethrough is
    /// left out so that the indexer's parses never wait for each other (see
    /// ``switchesCharacterTables``); it changes only the plain text of a heading holding `~`, and
    /// the indexer parses such a note again with it.
    public static let indexing: MarkdownParseOptions = [.tables, .footnotes, .exactCodeSpansOnly, .bareProseParagraphs]

    /// Whether the options include an extension that switches cmark-gfm's process-wide inline
    /// character tables (strikethrough, autolinks): such parses finish one at a time, the others
    /// side by side.
    public var switchesCharacterTables: Bool { !isDisjoint(with: [.strikethrough, .autolinks]) }
}
