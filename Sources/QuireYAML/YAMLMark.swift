/// A position in a file: byte offset plus 1-based line and byte column.
///
/// Marks produced by ``YAMLParser`` and ``FrontMatter`` are always relative to the whole file
/// (not to the YAML text between the fences), and they count bytes, never characters, so that
/// `offset` can be used directly to slice the file's `[UInt8]`.
public struct YAMLMark: Hashable, Sendable, CustomStringConvertible {
    /// Byte offset from the start of the file (a UTF-8 BOM counts as three bytes).
    public var offset: Int
    /// 1-based line number in the file; lines are separated by `\n`.
    public var line: Int
    /// 1-based column, counted in bytes from the start of the line.
    public var column: Int

    /// Creates a mark.
    /// - Parameters:
    ///   - offset: Byte offset from the start of the file.
    ///   - line: 1-based line number.
    ///   - column: 1-based byte column.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The very start of a file: offset 0, line 1, column 1.
    public static let start = YAMLMark(offset: 0, line: 1, column: 1)

    /// `line:column`, the form used at the start of every error message.
    public var description: String { "\(line):\(column)" }
}
