import Foundation
import QuireEmbedding
import QuireGeneration
import QuireModel
import QuireSearch

/// Near-duplicates by meaning for `quire generate`: with the search model installed, a proposed
/// card whose meaning is that of a card the vault has (its nearest card chunk in the search index),
/// or of a proposal kept before it, is dropped. Paraphrases of one fact score 0.81–0.84 with
/// all-MiniLM-L6-v2, different facts of one subject 0.3–0.45 (docs/GENERATION.md).
public struct MeaningFilter {
    /// The cosine from which two cards are one fact.
    static let threshold: Float = 0.85

    let search: VaultSearch
    let encoder: SentenceEncoder

    /// Whether the search model is installed (a front end brings the search index up to date,
    /// with its own progress, only then).
    public static var isAvailable: Bool {
        EmbeddingModel.installedFolder(environment: ProcessInfo.processInfo.environment) != nil
    }

    /// Nil when the search holds no model (nothing is said: the text filter stands alone).
    public init?(_ search: VaultSearch) {
        guard let encoder = search.encoder else { return nil }
        self.search = search
        self.encoder = encoder
    }

    /// A card's text as it is compared: its question and answer, or a cloze's sentence.
    static func text(_ card: CardProposal) -> String {
        card.format == .cloze ? CardProposal.shownText(card.front) : card.front + " " + card.back
    }

    /// The results without near-duplicates, and each dropped card with what it repeats.
    public func filter(_ results: [(note: Note, cards: [CardProposal])]) -> (kept: [(note: Note, cards: [CardProposal])], dropped: [(CardProposal, String)]) {
        var kept: [(note: Note, cards: [CardProposal])] = []
        var dropped: [(CardProposal, String)] = []
        var accepted: [(vector: [Float], text: String)] = []
        for (note, cards) in results {
            let vectors = encoder.embed(cards.map(Self.text))
            var keep: [CardProposal] = []
            for (card, vector) in zip(cards, vectors) {
                if let twin = accepted.first(where: { SentenceEncoder.cosine($0.vector, vector) >= Self.threshold }) {
                    dropped.append((card, twin.text))
                    continue
                }
                let hits = (try? search.index.find(Self.text(card), mode: .semantic, encoder: encoder, limit: 5, matchAll: false)) ?? []
                if let hit = hits.first(where: { $0.card != nil && Float($0.score) >= Self.threshold }) {
                    dropped.append((card, "\(hit.path):\(hit.lines.lowerBound)"))
                    continue
                }
                accepted.append((vector, Self.text(card)))
                keep.append(card)
            }
            kept.append((note, keep))
        }
        return (kept, dropped)
    }
}
