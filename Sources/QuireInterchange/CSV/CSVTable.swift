import QuireModel

/// A table read from a CSV or text file (``CSVReader``): its rows of fields, and what an Anki
/// text export's header lines said about them.
public struct CSVTable: Sendable, Equatable {
    /// One record: its fields, and the line it starts on (1-based, counting every line of the file).
    public struct Row: Sendable, Equatable {
        public var fields: [String]
        public var line: Int
    }

    /// The field separator.
    public var separator: Character
    /// The column names: the first row's, or `#columns:`; nil when the file names none.
    public var columns: [String]?
    /// The line of the column names (0 when they came from `#columns:` or there are none).
    public var columnsLine = 0
    /// The records after the column names.
    public var rows: [Row] = []
    /// Records left out as they were read (a field past ``CSVReader/maximumFieldBytes``), each an
    /// error at its place: the importer counts them with its own.
    public var problems: [Diagnostic] = []
    /// `#html:` — whether fields are HTML; nil when the file does not say.
    public var html: Bool?
    /// `#tags:` — tags for every row.
    public var tags: [String] = []
    /// `#deck:` and `#notetype:` — the deck and note type of every row.
    public var deck: String?, notetype: String?
    /// `#deck column:`, `#notetype column:`, `#tags column:`, `#guid column:` — 0-based indices of
    /// the columns that hold a row's deck, note type, tags and Anki ID rather than a field.
    public var deckColumn: Int?, notetypeColumn: Int?, tagsColumn: Int?, guidColumn: Int?

    /// Creates an empty table.
    public init(separator: Character) { self.separator = separator }
}
