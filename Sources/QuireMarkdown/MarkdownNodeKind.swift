/// The kind of a ``MarkdownNode``: the CommonMark node types plus the GFM extensions.
public enum MarkdownNodeKind: UInt8, Sendable, CaseIterable {
    /// The root; always `nodes[0]`.
    case document
    /// `> quoted` block.
    case blockQuote
    /// A bullet or ordered list; see ``MarkdownNode/isOrderedList``.
    case list
    /// A list item; task list items carry ``MarkdownNode/taskState``.
    case item
    /// Fenced or indented code; ``MarkdownNode/literal`` holds the code, ``MarkdownNode/fenceInfo`` the info string.
    case codeBlock
    /// Raw HTML block, including `<!-- comments -->`; ``MarkdownNode/literal`` holds the source.
    case htmlBlock
    /// A custom block (unused by the parser; kept for completeness).
    case customBlock
    /// A paragraph.
    case paragraph
    /// An ATX or setext heading; see ``MarkdownNode/headingLevel``.
    case heading
    /// `---`, `***` or `___`.
    case thematicBreak
    /// `[^label]: text` (GFM footnotes). cmark moves these to the end of the document.
    case footnoteDefinition
    /// A GFM table; ``MarkdownNode/tableAlignments`` gives the column alignments.
    case table
    /// A table row; ``MarkdownNode/isTableHeader`` marks the header row.
    case tableRow
    /// A table cell.
    case tableCell
    /// Plain text; ``MarkdownNode/literal`` holds it with escapes and entities resolved.
    case text
    /// A line ending inside a paragraph.
    case softBreak
    /// A hard line break (two trailing spaces or a trailing backslash).
    case lineBreak
    /// An inline code span; ``MarkdownNode/literal`` holds its content.
    case code
    /// Inline raw HTML, including `<!-- comments -->`; ``MarkdownNode/literal`` holds the source.
    case htmlInline
    /// A custom inline (unused by the parser; kept for completeness).
    case customInline
    /// `*emphasis*`.
    case emphasis
    /// `**strong**`.
    case strong
    /// A link (inline, reference or autolink); ``MarkdownNode/url`` holds the destination.
    case link
    /// An image; ``MarkdownNode/url`` holds the source.
    case image
    /// `[^label]` (GFM footnotes); ``MarkdownNode/literal`` holds the label.
    case footnoteReference
    /// `~~struck~~` (GFM).
    case strikethrough
    /// A node of an extension this wrapper does not know.
    case other

    /// Whether the kind is a block (container or leaf block).
    public var isBlock: Bool {
        switch self {
        case .document, .blockQuote, .list, .item, .codeBlock, .htmlBlock, .customBlock, .paragraph,
             .heading, .thematicBreak, .footnoteDefinition, .table, .tableRow, .tableCell:
            return true
        default:
            return false
        }
    }

    /// Whether the kind is inline content (inside a paragraph, heading or table cell).
    public var isInline: Bool {
        switch self {
        case .text, .softBreak, .lineBreak, .code, .htmlInline, .customInline, .emphasis, .strong, .link,
             .image, .footnoteReference, .strikethrough:
            return true
        default:
            return false
        }
    }
}
