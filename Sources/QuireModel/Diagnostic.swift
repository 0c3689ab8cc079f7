/// A problem found in a file, with its location: printed `path:line:column: error: message`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Comparable {
        /// Information worth showing (a card re-matched to its history).
        case note
        /// Something probably wrong that did not stop Quire from reading the file.
        case warning
        /// Something that made Quire skip part or all of a file.
        case error

        private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public var severity: Severity
    /// Path relative to the vault root.
    public var path: String
    /// 1-based line in the file; nil when the problem is about the whole file.
    public var line: Int?
    /// 1-based column in bytes; nil when unknown.
    public var column: Int?
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, path: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: severity: message` (line and column left out when unknown).
    public var description: String {
        var s = path
        if let line {
            s += ":\(line)"
            if let column { s += ":\(column)" }
        }
        return s + ": \(severity.rawValue): \(message)"
    }
}
