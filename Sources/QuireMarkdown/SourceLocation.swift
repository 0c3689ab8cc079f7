/// A position in Markdown source: a 1-based line and a 1-based column counted in UTF-8 bytes.
///
/// Columns count bytes, exactly as cmark-gfm reports them, so `column - 1` is the byte offset of the
/// position within its line. Lines include the `lineOffset` given to `MarkdownDocument.init(parsing:options:lineOffset:)`.
public struct SourceLocation: Hashable, Comparable, Sendable {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int

    /// Creates a location from a 1-based line and a 1-based byte column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Orders locations by line, then by column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line != rhs.line ? lhs.line < rhs.line : lhs.column < rhs.column
    }
}

/// A span of Markdown source; both ends are inclusive, as cmark-gfm reports them.
///
/// A one-byte span has `start == end`. See ``MarkdownNode/range`` for what each node kind covers.
public struct SourceRange: Hashable, Sendable {
    /// The first byte of the span.
    public var start: SourceLocation
    /// The last byte of the span (inclusive).
    public var end: SourceLocation

    /// Creates a range from its first and last (inclusive) locations.
    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    /// Creates a range from line/column pairs; handy in tests.
    public init(_ startLine: Int, _ startColumn: Int, _ endLine: Int, _ endColumn: Int) {
        self.start = SourceLocation(line: startLine, column: startColumn)
        self.end = SourceLocation(line: endLine, column: endColumn)
    }

    /// Whether `location` lies within the span (ends included).
    public func contains(_ location: SourceLocation) -> Bool {
        start <= location && location <= end
    }
}

extension SourceLocation: CustomStringConvertible {
    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

extension SourceRange: CustomStringConvertible {
    /// `line:column-line:column`.
    public var description: String { "\(start)-\(end)" }
}
