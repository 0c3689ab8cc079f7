/// What can go wrong in QuireMarkdown; every case has a location.
///
/// Parsing itself never fails (any bytes are Markdown); what fails is work that refuses a text,
/// such as rendering a note whose shape ``MarkdownLimits`` refuses. `description` reads
/// `line:column: message`; the caller prefixes the file path.
public enum MarkdownError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text holds a shape whose cost in cmark-gfm grows faster than its size (deep nesting, a
    /// very wide table row; see ``MarkdownLimits``), found before cmark saw it. `message` is
    /// ``MarkdownLimits/firstExcess(in:)``'s, the one `quire check` prints for the same note.
    case limitExceeded(message: String, at: SourceLocation)

    /// Where the problem is: a 1-based line (with the caller's line offset) and byte column.
    public var location: SourceLocation {
        switch self {
        case .limitExceeded(_, let at): return at
        }
    }

    /// The message without its location.
    public var message: String {
        switch self {
        case .limitExceeded(let message, _): return message
        }
    }

    /// `line:column: message`.
    public var description: String { "\(location): \(message)" }
}
