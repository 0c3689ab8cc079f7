import QuireSupport
import Foundation
import QuireEmbedding
import QuireGeneration
import QuireIndex
import QuireModel
import QuireQuiz
import QuireReview
import QuireStudy

/// What a quiz asks for, from any front end.
public struct QuizRequest: Sendable {
    public var mode: QuizQuestion.Mode
    /// Questions in the quiz.
    public var count: Int
    /// Seconds to answer each question; later counts as wrong.
    public var timed: Int?
    /// The seed the questions are drawn from (nil: the context's time).
    public var seed: UInt64?
    /// The cards asked (nil: every card).
    public var query: Query?

    public init(mode: QuizQuestion.Mode, count: Int, timed: Int? = nil, seed: UInt64? = nil, query: Query? = nil) {
        self.mode = mode
        self.count = count
        self.timed = timed
        self.seed = seed
        self.query = query
    }
}

/// A quiz made ready to ask: its round, the seed it was drawn from, the cards it could not ask.
public struct PreparedQuiz {
    public var round: QuizRound
    public let seed: UInt64
    /// Cards of the selection no question could be made of, with why.
    public let skipped: [(QuizItem, QuizBuilder.Skip)]
    /// The note each card is in (to record an answer).
    public let paths: [CardID: String]

    /// `Quiz: 10 questions, choice (seed 42)`, and the first card that could not be asked.
    public var heading: String {
        let count = round.questions.count
        return "Quiz: \(Plural.counted(count, "question")), \(round.mode.rawValue) (seed \(seed))"
            + (skipped.isEmpty ? "" : "; \(Plural.counted(skipped.count, "card")) could not be asked: \(skipped[0].1)")
    }
}

extension StudyContext {
    /// A quiz on the cards `request` selects, every card of the vault lending its answer: the
    /// questions drawn from the seed; with the search model installed, wrong options chosen by
    /// meaning too (choice, true/false); for explain, each card's source passage and the vault's
    /// word rarity. An empty selection, or one no question can be made of, is an error.
    public func quiz(_ request: QuizRequest, clock: StudyClock) throws(AppError) -> PreparedQuiz {
        let index = loaded.index
        let cards = QuizCards(self, query: request.query)
        guard !cards.asked.isEmpty else {
            throw .quiz(request.query == nil ? "no card to ask: the vault has none (suspended cards and archived notes are left out)"
                                             : "no card to ask: the query selects none (suspended cards and archived notes are left out)")
        }
        let seed = request.seed ?? UInt64(max(0, now.milliseconds))
        let meanings = AnswerMeanings.installed(for: cards.pool, mode: request.mode)
        var builder = QuizBuilder(items: cards.pool, seed: seed, similarity: { meanings?.similarity($0, $1) },
                                  prepareMeanings: { meanings?.prepare($0) })
        var (questions, skipped) = builder.questions(request.mode, count: request.count, asking: cards.asked)
        var rarity: (String) -> Double = { _ in 1 }
        if request.mode == .explain {
            let notes = Set(questions.flatMap { $0.items.compactMap { cards.paths[$0.id] } })
            let (statistics, files) = loaded.termStatistics(keeping: notes)
            rarity = statistics.idf
            for q in questions.indices {
                for k in questions[q].items.indices {
                    let item = questions[q].items[k]
                    guard let path = cards.paths[item.id], let bytes = files[path], let loc = index.location(of: item.id.description) else { continue }
                    questions[q].items[k].passage = CardContext.context(of: index.card(at: loc), in: index.notes[loc.note], bytes: bytes).text
                }
            }
        }
        guard !questions.isEmpty else {
            throw .quiz("no \(request.mode.rawValue) question can be built from these cards: "
                        + (skipped.first.map { $0.1.description } ?? "no card has an answer"))
        }
        // Explanations and typed answers judged by meaning, with the search model installed.
        var meaning: ((String, String) -> Double)?
        if request.mode == .explain || request.mode == .typed,
           let encoder = (try? EmbeddingModel.loadInstalled(environment: ProcessInfo.processInfo.environment)) ?? nil {
            meaning = { a, b in
                let v = encoder.embed([a, b])
                return Double(SentenceEncoder.cosine(v[0], v[1]))
            }
        }
        let round = QuizRound(questions: questions, mode: request.mode, timed: request.timed, clock: clock, rarity: rarity, meaning: meaning)
        return PreparedQuiz(round: round, seed: seed, skipped: skipped, paths: cards.paths)
    }
}

/// Records a quiz's answers as reviews (`--grade`): right → Good, wrong → Again, with the answer's
/// time, how long it took and a wrong typed answer, as `quire grade` records them.
public final class QuizRecorder {
    /// Answers recorded so far.
    public private(set) var graded = 0
    private let review: ReviewContext
    private let paths: [CardID: String]
    private let failed: (CardID, String) -> Void

    /// - Parameter failed: hears a card whose answer could not be recorded (the quiz goes on).
    public init(_ review: ReviewContext, paths: [CardID: String], failed: @escaping (CardID, String) -> Void) {
        self.review = review
        self.paths = paths
        self.failed = failed
    }

    /// Sets `round` to record through this recorder.
    public func records(_ round: inout QuizRound) {
        round.onAnswer = { [self] item, right, at, ms, typed in
            guard let path = paths[item.id] else { return }
            do {
                _ = try review.writer.grade(item.id, right ? .good : .again, inNote: path, at: at, answerMilliseconds: ms,
                                            typedWrongly: right ? nil : typed)
                graded += 1
            } catch {
                failed(item.id, "\(error)")
            }
        }
    }
}

/// Answers embedded on demand (the cards a question weighs, together on every core), each once;
/// how near two are is the cosine of their embeddings.
final class AnswerMeanings {
    let encoder: SentenceEncoder
    let answers: [CardID: String]
    private var vectors: [CardID: [Float]] = [:]

    init(encoder: SentenceEncoder, answers: [CardID: String]) {
        self.encoder = encoder
        self.answers = answers
    }

    /// The meanings of `pool`'s answers, when the search model is installed and loads and the
    /// mode's wrong options are chosen by meaning (choice, true/false); nil otherwise.
    static func installed(for pool: [QuizItem], mode: QuizQuestion.Mode) -> AnswerMeanings? {
        guard mode == .choice || mode == .truefalse,
              let encoder = (try? EmbeddingModel.loadInstalled(environment: ProcessInfo.processInfo.environment)) ?? nil else { return nil }
        return AnswerMeanings(encoder: encoder, answers: Dictionary(pool.map { ($0.id, $0.answer) }, uniquingKeysWith: { a, _ in a }))
    }

    func prepare(_ ids: [CardID]) {
        let missing = Array(Set(ids.filter { vectors[$0] == nil && answers[$0] != nil }))
        for (id, vector) in zip(missing, encoder.embed(missing.compactMap { answers[$0] })) { vectors[id] = vector }
    }

    func similarity(_ a: CardID, _ b: CardID) -> Double? {
        prepare([a, b])
        guard let x = vectors[a], let y = vectors[b] else { return nil }
        return Double(SentenceEncoder.cosine(x, y))
    }
}
