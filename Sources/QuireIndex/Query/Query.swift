import QuireModel
import QuireSupport

/// A parsed search query (docs/QUERIES.md): terms combined with implicit AND, `or`, `-` and
/// parentheses.
public indirect enum Query: Equatable, Sendable {
    /// Matches everything (the empty query).
    case all
    case term(QueryTerm)
    case not(Query)
    case and([Query])
    case or([Query])
}

/// One condition of a query.
public enum QueryTerm: Equatable, Sendable {
    /// `deck:Biology/Cells` — the deck or any sub-deck.
    case deck(DeckPath)
    /// `tag:exam` — the tag or any child tag (`exam/week-3`).
    case tag(Tag)
    /// `is:due` and friends.
    case status(CardStatus)
    /// `type:cloze`.
    case kind(CardKind)
    /// `path:Biology/**/*.md` — a glob over the note's relative path.
    case path(Glob)
    /// `cycle:weekly`.
    case cycle(NoteCycle)
    /// `category:concept` (case-insensitive).
    case category(String)
    /// `id:7k2m9xq4v1ab`, or the first 4 to 11 characters of IDs (`id:7k2m`), as `show` and
    /// `grade` take them: every card whose ID starts so.
    case id(CardID)
    /// A free word or quoted phrase, matched case-insensitively in the card's text, the note's title
    /// and its path.
    case text(String)
}

/// Values of `is:`.
public enum CardStatus: String, CaseIterable, Sendable {
    /// Reviewed before and due now (not suspended, buried or in an archived note).
    case due
    /// Never reviewed.
    case new
    /// In a learning or relearning step.
    case learning
    /// In long-term review.
    case review
    case suspended
    /// Buried until a later time.
    case buried
    /// In a note with `archived: true`.
    case archived
    /// A leech: a card whose line says `leech: true` (a grade that brought its lapses to
    /// `leech_threshold` marks it), or — as earlier versions tagged the note — a lapsed card in a
    /// note tagged `leech`.
    case leech
}

/// A query that could not be parsed: `message` at `column` (1-based, in characters).
public struct QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var column: Int
    public var message: String
    public var description: String { "query:1:\(column): error: \(message)" }
}

extension Query {
    /// Parses query text. An empty text is ``Query/all``.
    public init(parsing text: String) throws(QueryError) {
        var parser = QueryParser(tokens: try QueryLexer.tokens(text))
        self = try parser.parseAll()
    }

    /// Parses command-line arguments joined by spaces, as one query. Quotes the shell removed are
    /// not put back: a value with spaces is quoted inside the query (`'deck:"Ancient Rome"'`).
    public init(arguments: [String]) throws(QueryError) {
        try self.init(parsing: arguments.joined(separator: " "))
    }

    /// Whether the query is the match-all query.
    public var isAll: Bool { self == .all }
}

// MARK: - Lexer

struct QueryToken: Equatable {
    enum Kind: Equatable { case word(String, quoted: Bool), minus, open, close }
    var kind: Kind
    var column: Int
    /// The column just after the token.
    var endColumn: Int
}

enum QueryLexer {
    static func tokens(_ text: String) throws(QueryError) -> [QueryToken] {
        var tokens: [QueryToken] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            let column = i + 1
            if c == "(" { tokens.append(.init(kind: .open, column: column, endColumn: column + 1)); i += 1; continue }
            if c == ")" { tokens.append(.init(kind: .close, column: column, endColumn: column + 1)); i += 1; continue }
            if c == "-" && i + 1 < chars.count && !chars[i + 1].isWhitespace {
                tokens.append(.init(kind: .minus, column: column, endColumn: column + 1))
                i += 1
                continue
            }
            // A word, possibly `field:value`, where either part may hold a quoted stretch.
            var word = ""
            var quoted = false
            while i < chars.count, !chars[i].isWhitespace, chars[i] != "(" && chars[i] != ")" {
                if chars[i] == "\"" {
                    quoted = true
                    let start = i
                    i += 1
                    while i < chars.count, chars[i] != "\"" {
                        if chars[i] == "\\", i + 1 < chars.count { i += 1 }
                        word.append(chars[i])
                        i += 1
                    }
                    guard i < chars.count else { throw QueryError(column: start + 1, message: "unclosed quote") }
                    i += 1
                } else {
                    word.append(chars[i])
                    i += 1
                }
            }
            tokens.append(.init(kind: .word(word, quoted: quoted), column: column, endColumn: i + 1))
        }
        return tokens
    }
}

// MARK: - Parser

struct QueryParser {
    let tokens: [QueryToken]
    var position = 0

    /// How many parentheses and `-` a term may sit inside: the parser (and every walk of the
    /// query) recurses once per level, and a query comes from anywhere (a command line, a
    /// config file, a web page's search box).
    static let maximumDepth = 64
    private var depth = 0

    init(tokens: [QueryToken]) { self.tokens = tokens }

    mutating func parseAll() throws(QueryError) -> Query {
        if tokens.isEmpty { return .all }
        let q = try parseOr()
        if position < tokens.count {
            throw QueryError(column: tokens[position].column, message: "unexpected ')'")
        }
        return q
    }

    private func isOr(_ t: QueryToken) -> Bool {
        if case .word(let w, let quoted) = t.kind, !quoted, w.lowercased() == "or" { return true }
        return false
    }

    private mutating func parseOr() throws(QueryError) -> Query {
        var parts = [try parseAnd()]
        while position < tokens.count, isOr(tokens[position]) {
            position += 1
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws(QueryError) -> Query {
        var parts: [Query] = []
        while position < tokens.count {
            let t = tokens[position]
            if isOr(t) || t.kind == .close { break }
            parts.append(try parseUnary())
        }
        guard !parts.isEmpty else {
            let column = position < tokens.count ? tokens[position].column : (tokens.last?.endColumn ?? 1)
            throw QueryError(column: column, message: "expected a search term")
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseUnary() throws(QueryError) -> Query {
        let t = tokens[position]
        if t.kind == .minus || t.kind == .open {
            guard depth < Self.maximumDepth else {
                throw QueryError(column: t.column, message: "more than \(Self.maximumDepth) levels of '(' and '-'")
            }
            depth += 1
        }
        defer { if t.kind == .minus || t.kind == .open { depth -= 1 } }
        switch t.kind {
        case .minus:
            position += 1
            guard position < tokens.count else { throw QueryError(column: t.column, message: "'-' needs a term after it") }
            return .not(try parseUnary())
        case .open:
            position += 1
            let inner = try parseOr()
            guard position < tokens.count, tokens[position].kind == .close else {
                throw QueryError(column: t.column, message: "'(' is never closed")
            }
            position += 1
            return inner
        case .close:
            throw QueryError(column: t.column, message: "unexpected ')'")
        case .word(let word, let quoted):
            position += 1
            return .term(try Self.term(word, quoted: quoted, column: t.column))
        }
    }

    static let fields = ["deck", "tag", "is", "type", "kind", "path", "cycle", "category", "id"]

    static func term(_ word: String, quoted: Bool, column: Int) throws(QueryError) -> QueryTerm {
        guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return .text(word) }
        let field = word[..<colon].lowercased()
        let value = String(word[word.index(after: colon)...])
        guard fields.contains(field) else {
            if quoted { return .text(word) }
            throw QueryError(column: column, message: "unknown field '\(field)' (fields: \(fields.joined(separator: ", ")))")
        }
        let valueColumn = column + field.count + 1
        guard !value.isEmpty else { throw QueryError(column: valueColumn, message: "'\(field):' needs a value") }
        switch field {
        case "deck":
            guard let d = DeckPath(value) else { throw QueryError(column: valueColumn, message: "empty deck") }
            return .deck(d)
        case "tag":
            guard let t = Tag(value) else { throw QueryError(column: valueColumn, message: "'\(value)' is not a tag") }
            return .tag(t)
        case "is":
            guard let s = CardStatus(rawValue: value.lowercased()) else {
                throw QueryError(column: valueColumn, message: "unknown status '\(value)' (is: \(CardStatus.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .status(s)
        case "type", "kind":
            guard let k = CardKind(rawValue: value.lowercased()) else {
                throw QueryError(column: valueColumn, message: "unknown card type '\(value)' (type: \(CardKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .kind(k)
        case "path":
            return .path(Glob(value))
        case "cycle":
            guard let c = NoteCycle(rawValue: value.lowercased()) else {
                throw QueryError(column: valueColumn, message: "unknown cycle '\(value)' (cycle: daily, weekly, monthly, yearly)")
            }
            return .cycle(c)
        case "category":
            return .category(value.lowercased())
        default:
            guard let id = CardID(value) else { throw QueryError(column: valueColumn, message: "'\(value)' is not a card ID") }
            guard value.count >= 4 else {
                throw QueryError(column: valueColumn, message: "'\(value)' is too short: give a card ID or its first 4 characters or more")
            }
            return .id(id)
        }
    }
}
