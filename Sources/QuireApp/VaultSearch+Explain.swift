import QuireModel
import QuireSearch

extension VaultSearch {
    /// A card explained by a language model from the text it was made from (`context`, its note's
    /// section or source line; else the `related` passages of other notes): every sentence checked
    /// against them as ask's are (supported clause by clause, citing the passage that supports it)
    /// and about the card (sharing a word with its sides). Nil when nothing of the reply holds;
    /// a model that fails throws.
    public func explanation(of card: Card, in note: Note, context: (line: Int?, text: String), related: [SearchHit],
                            model: LocalLanguageModel) throws(AppError) -> Answer? {
        var chunks: [(hit: SearchHit, text: String)] = []
        if !context.text.isEmpty {
            let line = context.line ?? card.lines.lowerBound
            chunks.append((SearchHit(path: note.path, lines: line...line, headingPath: card.headingPath, text: context.text), context.text))
        }
        // Other notes' passages only when the card's own text is not there: a small model takes
        // its answer from whatever passage it reads last.
        for hit in related where chunks.isEmpty {
            if let text = try? index.text(ofChunk: hit.chunk) { chunks.append((hit, text)) }
        }
        guard !chunks.isEmpty else { return nil }
        let question = "Explain, in two or three sentences, what this flashcard means and why: \(card.front) — \(card.back)"
        let reply: String
        do { reply = try model.ask(question, chunks: chunks) } catch { throw .search("the language model failed: \(error.description)") }
        let checked = ExtractiveAnswer.checked(reply, chunks: chunks, encoder: encoder)
        return ExtractiveAnswer.standing(checked, for: Answer(sentences: [], sources: []), question: card.front + " " + card.back)
    }
}
