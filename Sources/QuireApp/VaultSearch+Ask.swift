import QuireEmbedding
import QuireIndex
import QuireModel
import QuireSearch
import QuireSupport

/// `quire ask` for any front end: the passages retrieved, an answer quoted from them, and — with a
/// local language model — its answer when every sentence of it is one the passages support.
public struct AskedQuestion {
    /// The question, without the query words that filter the cards (`deck:Biology`).
    public let question: String
    /// The passages retrieved, best first.
    public let retrieved: [(hit: SearchHit, text: String)]
    /// The answer: cited sentences and their sources, and the model's sentences left out.
    public let answer: Answer
    /// Whether the model's answer is the one given (else the notes are quoted).
    public let phrasedByModel: Bool
    /// What the front end should say about the model: its answer cited nothing, or it failed.
    public let modelNotes: [String]

    /// The documented `ask --json` shape (docs/JSON.md).
    public var json: JSONValue {
        .object([
            ("question", .string(question)),
            ("found", .bool(answer.found)),
            ("phrased_by_model", .bool(phrasedByModel)),
            ("sentences", .array(answer.sentences.map { .object([("text", .string($0.text)), ("source", .int($0.source))]) })),
            ("sources", .array(answer.sources.map { .object(VaultSearch.fields(of: $0)) })),
            ("dropped", .array(answer.dropped.map(JSONValue.string))),
        ])
    }
}

extension VaultSearch {
    /// `words` split into the text searched for and the query words among them (`deck:Biology`;
    /// not a quoted phrase, and with `wholeWordsOnly` not a word holding a space), parsed.
    static func split(_ words: [String], wholeWordsOnly: Bool) throws(AppError) -> (text: String, filters: [String], query: Query?) {
        let filters = words.filter { $0.contains(":") && !$0.hasPrefix("\"") && (!wholeWordsOnly || $0.split(separator: " ").count == 1) }
        let text = words.filter { !filters.contains($0) }.joined(separator: " ")
        do { return (text, filters, filters.isEmpty ? nil : try Query(arguments: filters)) } catch { throw .search(error.description) }
    }

    /// How many of the retrieved chunks the model reads.
    static let chunksForModel = 3

    /// Answers `words` — the question, and query words (`deck:X`, `tag:Y`) that keep only the
    /// cards and notes they select — from `chunks` passages, ranked by words and meaning; the
    /// model, when given, phrases the answer from the same passages and is checked sentence by
    /// sentence against them.
    public func ask(_ words: [String], chunks: Int, model: LocalLanguageModel?, now: Timestamp) throws(AppError) -> AskedQuestion {
        let (question, filters, query) = try Self.split(words, wholeWordsOnly: true)
        var retrieved: [(hit: SearchHit, text: String)] = []
        do {
            let hits = try recovering { () throws(SearchError) in
                try index.find(question, mode: .hybrid, encoder: encoder, limit: filters.isEmpty ? chunks : chunks * 20, matchAll: false)
            }
            for hit in try kept(hits, by: query, now: now) where retrieved.count < chunks {
                if let text = try index.text(ofChunk: hit.chunk) { retrieved.append((hit, text)) }
            }
        } catch let error as AppError { throw error } catch { throw .search("\(error)") }
        let cards = loaded.index
        return Self.answer(question, retrieved: retrieved, encoder: encoder, model: model) { id in
            cards.location(exactly: id).map { cards.card(at: $0) }
        }
    }

    /// The answer to `question` from the passages `retrieved`: quoted from them, or the model's
    /// when it keeps what the quote says. `card` gives the card a passage holds, by its ID.
    static func answer(_ question: String, retrieved: [(hit: SearchHit, text: String)], encoder: SentenceEncoder?,
                       model: LocalLanguageModel?, card: (CardID) -> Card?) -> AskedQuestion {
        var answer = ExtractiveAnswer.answer(question, chunks: retrieved, encoder: encoder) { id in
            card(id).map { .init(front: $0.front, back: $0.back, isCloze: $0.kind == .cloze) }
        }
        var phrased = false
        var notes: [String] = []
        // The model's answer stands only when it keeps what the quote says, and it may answer
        // what the quote cannot (other words for the same thing), about the question only.
        if let model, answer.found || !retrieved.isEmpty {
            do {
                // The best few chunks: a small model on two cores reads about 300 tokens a second.
                let given = Array(retrieved.prefix(Self.chunksForModel))
                let checked = ExtractiveAnswer.checked(try model.ask(question, chunks: given), chunks: given, encoder: encoder)
                if let standing = ExtractiveAnswer.standing(checked, for: answer, question: question) {
                    answer = standing
                    phrased = true
                } else {
                    notes.append("note: the language model's answer \(checked.found ? "left out what the notes say" : "held nothing the notes support"); "
                                 + "quoting the notes instead")
                }
            } catch {
                notes.append("warning: \(error.description); quoting the notes instead")
            }
        }
        return AskedQuestion(question: question, retrieved: retrieved, answer: answer, phrasedByModel: phrased, modelNotes: notes)
    }
}

/// What a search keeps of the hits, besides the query words.
public enum SearchScope: Sendable {
    case everything, cards, notes

    /// Whether the scope keeps `hit`: a card's, or a passage of a note's text.
    public func keeps(_ hit: SearchHit) -> Bool {
        switch self {
        case .everything: true
        case .cards: hit.card != nil
        case .notes: hit.card == nil
        }
    }
}

extension VaultSearch {
    /// Searches for `words`: the text ranked as `mode` says (hybrid when the model is installed,
    /// else by words), query words among them (`deck:Biology`, `tag:x`) keeping only what they
    /// select, `scope` only cards or only the notes' text; at most `limit` hits, best first, and
    /// the text searched for.
    public func search(_ words: [String], mode: SearchMode?, scope: SearchScope = .everything, limit: Int,
                       now: Timestamp) throws(AppError) -> (text: String, hits: [SearchHit]) {
        let (text, filters, query) = try Self.split(words, wholeWordsOnly: false)
        let hits: [SearchHit]
        do {
            hits = try recovering { () throws(SearchError) in
                try index.find(text, mode: encoder == nil ? .lexical : mode ?? .hybrid, encoder: encoder,
                               limit: filters.isEmpty && scope == .everything ? limit : limit * 20)
            }
        } catch { throw .search("\(error)") }
        let kept = try kept(hits, by: query, now: now).filter(scope.keeps)
        return (text, Array(kept.prefix(limit)))
    }
}
