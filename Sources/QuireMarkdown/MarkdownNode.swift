/// The alignment of a GFM table column, from its delimiter row (`:--`, `:-:`, `--:`).
public enum MarkdownTableAlignment: UInt8, Sendable {
    /// No colon in the delimiter row.
    case none
    /// `:--`
    case left
    /// `:-:`
    case center
    /// `--:`
    case right
}

/// One node of a ``MarkdownDocument``: a plain value that refers to its relatives by index.
///
/// ## Source ranges
/// `range` is 1-based, columns in UTF-8 bytes, both ends inclusive, shifted by the document's
/// `lineOffset`. What is exact (checked by the tests against cmark-gfm 0.29.0.gfm.6):
/// - Blocks: as cmark reports them, except that an end at column 0 (cmark's way of ending a list,
///   item or code block on the following blank line) is moved back to the last byte of the previous line.
/// - `code`: the whole span *including* its backtick fences (cmark itself reports only the content).
/// - `htmlInline`: from `<` to `>`, also when the tag or comment spans lines.
/// - `text`, `code`, `htmlInline`, `emphasis`, `strong`, `strikethrough`, `link`, `image`,
///   `footnoteReference`: exact start and end on every line of a paragraph — continuation lines,
///   lazy continuation lines, lines inside block quotes and list items, after a code span, HTML tag or
///   link that spans lines, and after link reference definitions that open a paragraph. cmark-gfm
///   gets several of these wrong and the wrapper recomputes them from the source.
/// - Autolinks (`<http://…>`, `www.…`, `http://…`, `a@b.c`): the link covers the source of the URL
///   (and its angle brackets); cmark-gfm reports no or wrong positions for the extension's links.
/// - `softBreak` / `lineBreak`: a one-byte range at the line ending that ends the line.
/// - Table cells and ATX headings use cmark's positions; a `\|` escape inside a cell shifts the
///   inline columns after it in that cell by one byte.
/// - A paragraph directly followed by a table (no blank line): cmark-gfm reports the paragraph at
///   0:0 and the table from the paragraph's first line, with the header cells placed by their offset
///   in the paragraph; the wrapper recovers all of them from the table's end and row count.
/// - Tabs are counted as one byte; a NUL byte counts as the three bytes of U+FFFD that replace it; a
///   UTF-8 byte order mark at the start is not counted in line 1's columns.
public struct MarkdownNode: Sendable {
    // Stored compactly (Int32 links, flags, rare attributes in a shared box) because a vault scan
    // creates millions of nodes; the public properties below are computed views of this storage.
    private var startLine: Int32
    private var startColumn: Int32
    private var endLine: Int32
    private var endColumn: Int32
    private var parentIndex: Int32 = -1
    private var firstChildIndex: Int32 = -1
    private var nextSiblingIndex: Int32 = -1
    private var subtreeEndIndex: Int32 = 0
    private var listStartValue: Int32 = 0
    /// What the node is.
    public var kind: MarkdownNodeKind
    private var level: UInt8 = 0
    private var flags: UInt8 = 0
    // The literal lives in a byte buffer shared by all nodes of a parsed document (one allocation
    // per document instead of one String per node); `nil` buffer: no literal.
    private var literalBuffer: MarkdownLiteralBuffer?
    private var literalStart: Int32 = 0
    private var literalCount: Int32 = 0
    private var extra: MarkdownNodeAttributes?

    private static let orderedFlag: UInt8 = 1
    private static let tightFlag: UInt8 = 2
    private static let headerFlag: UInt8 = 4
    private static let taskFlag: UInt8 = 8
    private static let checkedFlag: UInt8 = 16

    /// Creates a node with no relatives and no attributes.
    public init(kind: MarkdownNodeKind, range: SourceRange) {
        self.kind = kind
        self.startLine = Self.clamp(range.start.line)
        self.startColumn = Self.clamp(range.start.column)
        self.endLine = Self.clamp(range.end.line)
        self.endColumn = Self.clamp(range.end.column)
    }

    private static func clamp(_ value: Int) -> Int32 {
        Int32(clamping: value)
    }

    private static func index(_ value: Int?) -> Int32 {
        guard let value else { return -1 }
        return Int32(clamping: value)
    }

    private func flag(_ bit: UInt8) -> Bool { flags & bit != 0 }

    private mutating func setFlag(_ bit: UInt8, _ on: Bool) {
        if on { flags |= bit } else { flags &= ~bit }
    }

    /// The text of `text`, `code`, `codeBlock`, `htmlBlock`, `htmlInline` and `footnoteReference`
    /// (its label) nodes, and the label of a `footnoteDefinition`; `nil` for other kinds.
    ///
    /// Parsed nodes keep the bytes in a buffer shared by the document and make the `String` when
    /// it is read, so read it once per use rather than in a loop.
    public var literal: String? {
        get { withLiteralBytes { $0.map { String(decoding: $0, as: UTF8.self) } } }
        set {
            guard let newValue else {
                literalBuffer = nil
                literalStart = 0
                literalCount = 0
                return
            }
            let buffer = MarkdownLiteralBuffer(capacity: newValue.utf8.count)
            var copy = newValue
            let start = copy.withUTF8 { buffer.append($0) }
            setLiteral(buffer, start: start, count: buffer.count - start)
        }
    }

    /// Points the literal at `count` bytes of `buffer` from `start` (used by the converter; both
    /// fit in `Int32`, which ``MarkdownLiteralBuffer/maximumCount`` guarantees for parsed nodes).
    mutating func setLiteral(_ buffer: MarkdownLiteralBuffer, start: Int, count: Int) {
        literalBuffer = buffer
        literalStart = Int32(truncatingIfNeeded: start)
        literalCount = Int32(truncatingIfNeeded: count)
    }

    /// Calls `body` with the literal's UTF-8 bytes, or with `nil` when the node has none.
    func withLiteralBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard let literalBuffer else { return body(nil) }
        return literalBuffer.withBytes(start: Int(literalStart), count: Int(literalCount), body)
    }

    /// Where the node is in the source; see the type's discussion for exactness.
    public var range: SourceRange {
        get {
            SourceRange(Int(startLine), Int(startColumn), Int(endLine), Int(endColumn))
        }
        set {
            startLine = Self.clamp(newValue.start.line)
            startColumn = Self.clamp(newValue.start.column)
            endLine = Self.clamp(newValue.end.line)
            endColumn = Self.clamp(newValue.end.column)
        }
    }

    /// Index of the parent node; `nil` only for the document.
    public var parent: Int? {
        get { parentIndex < 0 ? nil : Int(parentIndex) }
        set { parentIndex = Self.index(newValue) }
    }

    /// Index of the first child, if any.
    public var firstChild: Int? {
        get { firstChildIndex < 0 ? nil : Int(firstChildIndex) }
        set { firstChildIndex = Self.index(newValue) }
    }

    /// Index of the next sibling, if any.
    public var nextSibling: Int? {
        get { nextSiblingIndex < 0 ? nil : Int(nextSiblingIndex) }
        set { nextSiblingIndex = Self.index(newValue) }
    }

    /// One past the index of the last descendant: descendants are `nodes[index + 1 ..< subtreeEnd]`.
    public var subtreeEnd: Int {
        get { Int(subtreeEndIndex) }
        set { subtreeEndIndex = Self.clamp(newValue) }
    }

    /// 1…6 for headings, 0 otherwise.
    public var headingLevel: Int {
        get { Int(level) }
        set { level = UInt8(clamping: newValue) }
    }

    /// Whether a `list` is ordered (`1.`); false for other kinds.
    public var isOrderedList: Bool {
        get { flag(Self.orderedFlag) }
        set { setFlag(Self.orderedFlag, newValue) }
    }

    /// The start number of an ordered list; 0 for other kinds.
    public var listStart: Int {
        get { Int(listStartValue) }
        set { listStartValue = Self.clamp(newValue) }
    }

    /// Whether a `list` is tight (no blank lines between items).
    public var isTightList: Bool {
        get { flag(Self.tightFlag) }
        set { setFlag(Self.tightFlag, newValue) }
    }

    /// Whether a `tableRow` is the header row.
    public var isTableHeader: Bool {
        get { flag(Self.headerFlag) }
        set { setFlag(Self.headerFlag, newValue) }
    }

    /// `true`/`false` for checked/unchecked task list items (`- [x]` / `- [ ]`); `nil` otherwise.
    public var taskState: Bool? {
        get { flag(Self.taskFlag) ? flag(Self.checkedFlag) : nil }
        set {
            setFlag(Self.taskFlag, newValue != nil)
            setFlag(Self.checkedFlag, newValue == true)
        }
    }

    /// The info string of a fenced code block (`swift` in ```` ```swift ````); `nil` for other kinds.
    public var fenceInfo: String? {
        get { extra?.fenceInfo }
        set { extra = MarkdownNodeAttributes(extra, fenceInfo: .some(newValue)) }
    }

    /// The destination of a `link` or the source of an `image`.
    public var url: String? {
        get { extra?.url }
        set { extra = MarkdownNodeAttributes(extra, url: .some(newValue)) }
    }

    /// The title of a `link` or `image`, if given.
    public var title: String? {
        get { extra?.title }
        set { extra = MarkdownNodeAttributes(extra, title: .some(newValue)) }
    }

    /// The column alignments of a `table`; `nil` for other kinds.
    public var tableAlignments: [MarkdownTableAlignment]? {
        get { extra?.tableAlignments }
        set { extra = MarkdownNodeAttributes(extra, tableAlignments: .some(newValue)) }
    }

    /// Sets the link attributes with one allocation (used by the converter).
    mutating func setLink(url: String?, title: String?) {
        extra = MarkdownNodeAttributes(fenceInfo: nil, url: url, title: title, tableAlignments: nil)
    }
}

/// The literals of the nodes of one parsed document, back to back.
///
/// Only the converter appends, while it alone holds the buffer (before the document exists);
/// afterwards the bytes are only read, so sharing the buffer between threads is safe.
final class MarkdownLiteralBuffer: @unchecked Sendable {
    /// Offsets are stored as `Int32`; the converter starts a new buffer before passing this.
    static let maximumCount = Int(Int32.max)

    @exclusivity(unchecked) private var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes stored.
    var count: Int { bytes.count }

    /// Appends `text` and returns the offset of its first byte.
    func append(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: text)
        return start
    }

    /// Calls `body` with `count` bytes from `start`.
    func withBytes<Result>(start: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return body(UnsafeBufferPointer(start: base + start, count: count))
        }
    }
}

/// The attributes only a few node kinds have, kept out of line so ``MarkdownNode`` stays small.
/// Immutable, so sharing it between copies (and threads) is safe.
final class MarkdownNodeAttributes: Sendable {
    let fenceInfo: String?
    let url: String?
    let title: String?
    let tableAlignments: [MarkdownTableAlignment]?

    init(fenceInfo: String?, url: String?, title: String?, tableAlignments: [MarkdownTableAlignment]?) {
        self.fenceInfo = fenceInfo
        self.url = url
        self.title = title
        self.tableAlignments = tableAlignments
    }

    convenience init(
        _ old: MarkdownNodeAttributes?,
        fenceInfo: String?? = nil,
        url: String?? = nil,
        title: String?? = nil,
        tableAlignments: [MarkdownTableAlignment]?? = nil
    ) {
        self.init(
            fenceInfo: fenceInfo ?? old?.fenceInfo,
            url: url ?? old?.url,
            title: title ?? old?.title,
            tableAlignments: tableAlignments ?? old?.tableAlignments
        )
    }
}
