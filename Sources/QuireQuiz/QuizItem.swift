import Foundation
import QuireModel
import QuireSupport

/// A card as a quiz asks it: its question and answer as plain text (Markdown marks off), the deck
/// and kind its distractors must share, and for a cloze card the sentence around the blank.
public struct QuizItem: Sendable, Equatable {
    public var id: CardID
    public var deck: DeckPath
    public var kind: CardKind
    /// For a reversed pair's card, which way it asks (answers of the other way are another language
    /// or kind of text); `.single` otherwise.
    public var direction: CardVariant
    /// The question (for a cloze card, the sentence with this card's deletions as `____`).
    public var prompt: String
    /// The expected answer (for a cloze card, its deletions, joined by ` … `).
    public var answer: String
    /// The text the card was made from, for explain mode (empty when unknown).
    public var passage: String
    /// Answers the user typed wrongly for this card before (from the log), most recent first.
    public var wrongAnswers: [String]

    public init(id: CardID, deck: DeckPath, kind: CardKind, direction: CardVariant = .single, prompt: String, answer: String,
                passage: String = "", wrongAnswers: [String] = []) {
        self.id = id
        self.deck = deck
        self.kind = kind
        self.direction = direction
        self.prompt = prompt
        self.answer = answer
        self.passage = passage
        self.wrongAnswers = wrongAnswers
    }

    /// The item of `card`: a cloze card's deletions read from its two sides (the question shows
    /// them as `[...]` or `[hint]`, the answer in full).
    public init(_ card: Card, deck: DeckPath, passage: String = "", wrongAnswers: [String] = []) {
        func plain(_ s: String) -> String { AnswerText.plainText(s).trimmingSpacesAndNewlines }
        if case .cloze = card.variant, let (prompt, deletions) = Self.deletions(front: card.front, back: card.back) {
            self.init(id: card.id, deck: deck, kind: card.kind, prompt: plain(prompt).replacingBlanks,
                      answer: deletions.map(plain).joined(separator: " … "), passage: passage, wrongAnswers: wrongAnswers)
        } else {
            let direction: CardVariant = card.variant == .backward || card.variant == .forward ? card.variant : .single
            self.init(id: card.id, deck: deck, kind: card.kind, direction: direction, prompt: plain(card.front), answer: plain(card.back),
                      passage: passage, wrongAnswers: wrongAnswers)
        }
    }

    /// The blanks of a cloze card: the question's bracketed runs that the answer side fills with
    /// other text, aligned piece by piece; the question with each blank as `____`.
    static func deletions(front: String, back: String) -> (String, [String])? {
        // The question's pieces around `[…]` runs; the answer must hold them in order.
        var pieces: [Substring] = []
        var rest = front[...]
        var scanned = rest.startIndex
        var start = rest.startIndex
        while let open = rest[scanned...].firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let after = rest.index(after: close)
            scanned = after
            // A link's text is no blank.
            if after < rest.endIndex, rest[after] == "(" { continue }
            pieces.append(rest[start..<open])
            start = after
        }
        rest = rest[start...]
        pieces.append(rest)
        guard pieces.count >= 2 else { return nil }
        var filled: [String] = []
        var position = back.startIndex
        guard back.hasPrefix(pieces[0]) else { return nil }
        position = back.index(position, offsetBy: pieces[0].count)
        for piece in pieces.dropFirst() {
            let searchFrom = back.index(after: position) <= back.endIndex ? position : back.endIndex
            let found: Range<String.Index>?
            if piece.isEmpty {
                found = back.endIndex..<back.endIndex
            } else if piece == pieces.last {
                found = back.hasSuffix(piece) && back.index(back.endIndex, offsetBy: -piece.count) >= searchFrom
                    ? back.index(back.endIndex, offsetBy: -piece.count)..<back.endIndex : nil
            } else {
                found = back[searchFrom...].range(ofLiteral: piece)
            }
            guard let found, found.lowerBound > position else { return nil }
            filled.append(String(back[position..<found.lowerBound]).trimmingSpacesAndNewlines)
            position = found.upperBound
        }
        return (pieces.joined(separator: Self.blankMark), filled)
    }
}

extension QuizItem {
    /// Where a blank stands while the text is made plain (a private-use character no note holds).
    static let blankMark = "\u{E000}"
}

extension String {
    /// A cloze question's blanks written `____`.
    var replacingBlanks: String { replacingOccurrences(of: QuizItem.blankMark, with: "____") }

    var trimmingSpacesAndNewlines: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
