/// A card proposed from a note's text: what it asks, what it answers, where it comes from and why.
public struct CardProposal: Sendable, Equatable {
    /// The card formats generation can propose.
    public enum Format: String, Sendable, CaseIterable, Comparable {
        /// `Question? :: answer`.
        case qa
        /// A sentence with a `{{c1::deletion}}`.
        case cloze
        /// `Term :: definition`.
        case definition

        public static func < (a: Format, b: Format) -> Bool { a.rawValue < b.rawValue }
    }

    public var format: Format
    /// The question, the term, or for a cloze the whole sentence with its deletion marked.
    public var front: String
    /// The answer or definition; for a cloze the deleted text.
    public var back: String
    /// The file line of the source sentence, and its heading path.
    public var line: Int
    public var headingPath: [String]
    /// The rule that made it (`definition.copula`, `qa.because`, `cloze.emphasis` …).
    public var rule: String
    /// Its rank, higher better (0–1).
    public var score: Double
    /// The note it came from, when it is written into another (`quire generate --to`).
    public var source: String?
    /// The card as the user rewrote it before it was written (`quire generate --pick`), in place of
    /// ``markdown``'s.
    public var edited: String?

    public init(format: Format, front: String, back: String, line: Int, headingPath: [String], rule: String, score: Double) {
        self.format = format
        self.front = front
        self.back = back
        self.line = line
        self.headingPath = headingPath
        self.rule = rule
        self.score = score
    }

    /// The card as a line of Quire's syntax (FORMAT.md §3).
    public var markdown: String {
        if let edited { return edited }
        return switch format {
        case .qa, .definition: front + " :: " + back
        case .cloze: front
        }
    }
}
