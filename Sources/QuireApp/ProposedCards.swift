import QuireGeneration
import QuireModel
import QuireSupport

/// Cards proposed for some notes (`quire generate`), for any front end: by the rules or a local
/// language model, the vault's own cards never proposed again, near-duplicates by meaning left out.
public struct ProposedCards {
    /// Each note with the cards proposed for it, in the notes' order.
    public var results: [(note: Note, cards: [CardProposal])]
    /// What the model could not do for a note (its proposals then come from the rules).
    public var problems: [(path: String, problem: String)] = []
    /// Cards left out as saying what another says, with what they repeat.
    public var duplicates: [(CardProposal, String)] = []

    /// Every card proposed.
    public var count: Int { results.reduce(0) { $0 + $1.cards.count } }

    /// The documented `generate --json` shape (docs/JSON.md).
    public var json: JSONValue {
        .array(results.flatMap { note, cards in cards.map { card in
            JSONValue.object([("path", .string(note.path)), ("line", .int(card.line)), ("format", .string(card.format.rawValue)),
                              ("rule", .string(card.rule)), ("front", .string(card.front)), ("back", .string(card.back)),
                              ("markdown", .string(card.markdown)), ("score", .double((card.score * 1000).rounded() / 1000)),
                              ("heading_path", .array(card.headingPath.map(JSONValue.string)))])
        } })
    }
}

extension LoadedVault {
    /// Proposes cards for `notes`: of `formats`, at most `maximum` a note (nil: the note's own
    /// default), by `model` when given, else by the rules; with `meaning`, near-duplicates of the
    /// vault's cards or of one another are left out.
    public func proposeCards(for notes: [Note], formats: Set<CardProposal.Format>, maximum: Int?, model: (any LanguageModel)?,
                             style: ModelCards.Style = .note, meaning: MeaningFilter?) -> ProposedCards {
        // The vault's word rarity and its cards' texts (never proposed again).
        let (statistics, files) = termStatistics(keeping: Set(notes.map(\.path)))
        let read = notes.compactMap { note in files[note.path].map { (note: note, bytes: $0) } }
        let existing = CardGenerator.existingTexts(of: index.notes)
        var proposed = ProposedCards(results: [])
        if let model {
            let fromModel = ModelCards.propose(notes: read, model: model, style: style, statistics: statistics, existing: existing,
                                               options: .init(formats: formats, maximum: maximum))
            for (note, result) in zip(read, fromModel) {
                if let problem = result.problem { proposed.problems.append((note.note.path, problem)) }
            }
            proposed.results = zip(read, fromModel).map { (note: $0.note, cards: $1.cards) }
        } else {
            let fromRules = CardGenerator.propose(notes: read, statistics: statistics, existing: existing,
                                                  options: .init(formats: formats, maximum: maximum))
            proposed.results = zip(read, fromRules).map { (note: $0.note, cards: $1) }
        }
        if let meaning { (proposed.results, proposed.duplicates) = meaning.filter(proposed.results) }
        return proposed
    }
}
