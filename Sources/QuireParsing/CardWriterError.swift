import QuireModel

/// Why ``CardWriter`` refused to write a card: the text would not read back as the same card in
/// the syntax asked for (FORMAT.md §3.9). Each case names a side (and a 1-based line of that
/// side's text) where it can.
public enum CardWriterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The syntax cannot make cards of that kind (a definition is only `term :: definition`, a
    /// cloze only a cloze paragraph).
    case syntaxDoesNotFit(CardWriter.Syntax, CardKind)
    /// A side is empty (after trimming): the reader makes no card with an empty side.
    case emptySide(CardSide)
    /// A side holds a control character other than tab and line feed: NUL makes the note a binary
    /// file, U+001F separates the sides in the card's identity text, the others change what a
    /// terminal shows.
    case controlCharacter(CardSide, Unicode.Scalar)
    /// A one-line card (`::`, `:::`) cannot hold a line break.
    case lineBreakInOneLineCard(CardSide)
    /// A question written as `question :: answer` must end with `?`, or it reads as a definition.
    case oneLineQuestionWithoutQuestionMark
    /// A term ending with `?` reads as a question (kind `basic`), never a definition.
    case termEndsWithQuestionMark
    /// A side that must be one paragraph holds an empty line, which ends the paragraph.
    case blankLine(CardSide, line: Int)
    /// A line would start a Markdown block (a heading, list, block quote, code fence, table, HTML
    /// block, thematic break…) and end the card's paragraph.
    case lineStartsBlock(CardSide, line: Int)
    /// A line would be read as card syntax of its own (FORMAT.md §3.6) and end or split the card.
    case holdsCardSyntax(CardSide, line: Int, CardLineSyntax)
    /// Inline code or HTML in the side runs on over the marker written after it (`A:`, `?`,
    /// ` :: `), which the reader then does not see.
    case markerHidden(after: CardSide)
    /// An answer's blocks after its first paragraph may only be lists, code blocks, tables and
    /// block quotes (FORMAT.md §3.1); the block at this line is another kind (named).
    case answerBlockNotAllowed(CardSide, line: Int, block: String)
    /// The reader joins an answer's blocks with one empty line, after trimming the answer's text:
    /// the text must separate them so, with no white space ending the text before the first block
    /// (the block starting at this line does not follow so).
    case answerBlockSpacing(CardSide, line: Int)
    /// The block at this line of the answer cannot directly follow the one before it (Markdown
    /// would read it as part of that one), and after an empty line it would end the answer because
    /// the text before it does not end with `:`.
    case answerBlockNotAttachable(CardSide, line: Int)
    /// The side's last block is not closed (a code fence without its closing fence) and would take
    /// in whatever follows the card.
    case unclosedBlock(CardSide)
    /// The side ends with ` ^word`, which the reader takes for an explicit card ID; give the
    /// draft an explicit ID, after which that text stays text.
    case endsLikeCardID(CardSide)
    /// An explicit ID is written as an Obsidian block ID, which has no `_`.
    case idNotWritable(CardID)
    /// An explicit ID so long that its siblings' IDs (`ID-r`, `ID-cN`) would pass 64 characters.
    case idTooLong(CardID)
    /// An answer that starts with a block (not text) cannot carry an explicit ID: the reader takes
    /// the ID from the end of the answer's text line.
    case idNeedsTextAnswer
    /// The cloze text holds no deletion, so it makes no card.
    case noClozeDeletion
    /// A cloze deletion is broken (the reader's message: not closed, empty, number 0…).
    case brokenCloze(String)
    /// Two written cards of one note would have the same explicit ID.
    case duplicateID(CardID)
    /// The written text read back as something else, for a reason none of the other cases names
    /// (the writer reads every card back before it returns it, so this is what it does instead of
    /// returning a card that would change); the message says what was read.
    case notReadBack(String)

    /// The reason, as a sentence fragment after `cannot write card: `.
    public var description: String {
        switch self {
        case let .syntaxDoesNotFit(syntax, kind):
            return "the \(syntax.rawValue) syntax cannot make a card of kind '\(kind.rawValue)'"
        case let .emptySide(side):
            return "the \(side.rawValue) is empty"
        case let .controlCharacter(side, scalar):
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "the \(side.rawValue) holds the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)"
        case let .lineBreakInOneLineCard(side):
            return "the \(side.rawValue) holds a line break, and a one-line card ('::') is one line"
        case .oneLineQuestionWithoutQuestionMark:
            return "a question written as 'question :: answer' must end with '?' (else it reads as a definition)"
        case .termEndsWithQuestionMark:
            return "a term ending with '?' reads as a question, not a definition"
        case let .blankLine(side, line):
            return "line \(line) of the \(side.rawValue) is empty, which ends the paragraph"
        case let .lineStartsBlock(side, line):
            return "line \(line) of the \(side.rawValue) would start a Markdown block (heading, list, quote, "
                + "code fence, table, HTML…) and end the card's paragraph"
        case let .holdsCardSyntax(side, line, syntax):
            return "line \(line) of the \(side.rawValue) would be read as card syntax (\(syntax.description))"
        case let .markerHidden(side):
            return "inline code or HTML in the \(side.rawValue) runs on over the card's marker after it"
        case let .answerBlockNotAllowed(side, line, block):
            return "line \(line) of the \(side.rawValue) starts \(block); after its first paragraph an answer "
                + "holds only lists, code blocks, tables and block quotes"
        case let .answerBlockSpacing(side, line):
            return "the block at line \(line) of the \(side.rawValue) must follow the one before it after exactly "
                + "one empty line (the reader joins an answer's blocks so)"
        case let .answerBlockNotAttachable(side, line):
            return "the block at line \(line) of the \(side.rawValue) cannot directly follow the one before it, "
                + "and after an empty line it ends the answer (the text before it does not end with ':')"
        case let .unclosedBlock(side):
            return "the \(side.rawValue)'s last block is not closed and would take in what follows the card"
        case let .endsLikeCardID(side):
            return "the \(side.rawValue) ends like an explicit card ID (' ^word'); give the card an explicit ID"
        case let .idNotWritable(id):
            return "the ID '\(id)' cannot be written as a block ID ('^' with letters, digits and '-')"
        case let .idTooLong(id):
            return "the ID '\(id)' is too long for its siblings' IDs (at most 64 characters with '-r' or '-cN')"
        case .idNeedsTextAnswer:
            return "an answer that starts with a block cannot carry an explicit ID"
        case .noClozeDeletion:
            return "the text holds no cloze deletion"
        case let .brokenCloze(message):
            return message
        case let .duplicateID(id):
            return "two cards would have the ID '\(id)'"
        case let .notReadBack(what):
            return "the written card would read back differently (\(what))"
        }
    }
}

/// Card syntax a line of a side would be read as (FORMAT.md §3.6).
public enum CardLineSyntax: String, Sendable, Equatable {
    /// A line starting with `Q:`.
    case questionMarker
    /// A line starting with `A:`.
    case answerMarker
    /// A line that is only `?` or `??`.
    case separator
    /// ` :: ` or ` ::: ` (a one-line card).
    case oneLineSeparator
    /// An Anki deletion `{{cN::` (a cloze line).
    case clozeDeletion
    /// A `==highlight==` (a cloze line).
    case highlight

    /// The syntax as the error names it.
    public var description: String {
        switch self {
        case .questionMarker: "it starts with 'Q:'"
        case .answerMarker: "it starts with 'A:'"
        case .separator: "it is a lone '?' or '??'"
        case .oneLineSeparator: "it holds ' :: '"
        case .clozeDeletion: "it holds a cloze deletion '{{cN::'"
        case .highlight: "it holds a '==highlight=='"
        }
    }
}
