import ArgumentParser
import Foundation
import QuireApp
import QuireIndex
import QuireEmbedding
import QuireGeneration
import QuireModel
import QuireQuiz
import QuireReview
import QuireSystem
import QuireScheduling
import QuireStudy
import QuireSupport

extension Quire {
    /// `quire quiz [QUERY] --mode choice|truefalse|match|typed|explain …`.
    struct Quiz: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quiz",
            abstract: "A quiz on the cards a query selects: multiple choice, true/false, matching, typed answers, or explaining in your own words.",
            discussion: """
                Questions are drawn from the seed (--seed; by default the clock), each card once. Choice and \
                true/false take their wrong answers from other cards of the same deck and kind (wider only for a \
                small deck), never the answer again or close to it, alike in length and form. Typed answers are \
                graded once normalised (case, accents, punctuation, articles, numbers) and allow a small typo; \
                explain scores how many key terms of the answer and its source passage you used. 10 points a \
                right answer, plus 2 for each right answer in a row before it (at most 10). A quiz changes no \
                schedule unless --grade (right: Good, wrong: Again, as 'quire grade'). At the end, r goes over \
                the cards missed. Answers are read line by line: choice 1-4 (or a-d), true/false t/f, match \
                pairs like '1c 2a 3e 4b 5d', typed and explain the text; q quits.

                Example: quire quiz deck:Geography --mode choice --count 10
                """)

        @OptionGroup var options: VaultOptions
        @Option(help: "choice, truefalse, match, typed or explain.") var mode: QuizQuestion.Mode = .choice
        @Option(help: "Questions in the quiz.") var count = 10
        @Option(help: ArgumentHelp("Seconds to answer each question; later counts as wrong.", valueName: "SECONDS")) var timed: Int?
        @Option(help: "The seed the questions are drawn from (the same seed, the same quiz).") var seed: UInt64?
        @Flag(help: "Record each result as a review: right → Good, wrong → Again.") var grade = false
        @Flag(help: "Print the results as JSON at the end (the questions go to standard error, line by line).") var json = false
        @Flag(help: "No full-screen interface: questions printed, answers read line by line from standard input.") var plain = false
        @Argument(parsing: .allUnrecognized, help: "A query selecting the cards to ask (default: every card).", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
            if !(1...1000).contains(count) { throw ValidationError("--count is from 1 to 1000") }
            if let timed, !(1...3600).contains(timed) { throw ValidationError("--timed is from 1 to 3600 seconds") }
        }

        func run() throws {
            let q = query.isEmpty ? nil : try LoadedVault.query(query)
            let context = try StudyContext(options, readLog: false)
            let index = context.loaded.index
            // Every card of the vault can lend its answer; the query chooses the cards asked.
            let cards = QuizCards(context, query: q)
            let pool = cards.pool, asked = cards.asked, paths = cards.paths
            guard !asked.isEmpty else {
                throw CLIError(query.isEmpty ? "no card to ask: the vault has none (suspended cards and archived notes are left out)"
                                             : "no card to ask: the query selects none (suspended cards and archived notes are left out)")
            }
            let seed = self.seed ?? UInt64(max(0, context.now.milliseconds))
            let meanings = Self.meanings(pool, mode: mode)
            var builder = QuizBuilder(items: pool, seed: seed, similarity: { meanings?.similarity($0, $1) },
                                      prepareMeanings: { meanings?.prepare($0) })
            var (questions, skipped) = builder.questions(mode, count: count, asking: asked)
            var rarity: (String) -> Double = { _ in 1 }
            if mode == .explain {
                // Each card's source passage, and how rare each word is in the vault.
                let notes = Set(questions.flatMap { $0.items.compactMap { paths[$0.id] } })
                let (statistics, files) = context.loaded.termStatistics(keeping: notes)
                rarity = statistics.idf
                for q in questions.indices {
                    for k in questions[q].items.indices {
                        let item = questions[q].items[k]
                        guard let path = paths[item.id], let bytes = files[path], let loc = index.location(of: item.id.description) else { continue }
                        questions[q].items[k].passage = CardContext.context(of: index.card(at: loc), in: index.notes[loc.note], bytes: bytes).text
                    }
                }
            }
            guard !questions.isEmpty else {
                let why = skipped.first.map { $0.1.description } ?? "no card has an answer"
                throw CLIError("no \(mode.rawValue) question can be built from these cards: \(why)")
            }
            var round = QuizRound(questions: questions, mode: mode, timed: timed, clock: StudyClock(fixed: options.pinnedNow), rarity: rarity)
            let heading = "Quiz: \(Output.counted(questions.count, "question")), \(mode.rawValue) (seed \(seed))"
                + (skipped.isEmpty ? "" : "; \(Output.counted(skipped.count, "card")) could not be asked: \(skipped[0].1)")
            var graded = 0
            if grade {
                let review = try ReviewContext(options)
                round.onAnswer = { item, right, at, ms, typed in
                    guard let path = paths[item.id] else { return }
                    do {
                        _ = try review.writer.grade(item.id, right ? .good : .again, inNote: path, at: at, answerMilliseconds: ms,
                                                    typedWrongly: right ? nil : typed)
                        graded += 1
                    } catch {
                        Output.error("quire: \(item.id): \(error)")
                    }
                }
            }
            let screen = !plain && !json && Output.isTerminal
            var reviewMissed = false
            if screen {
                var quiz = QuizScreen(round: round, heading: heading)
                quiz.run()
                round = quiz.round
                reviewMissed = quiz.reviewMissed
            } else {
                var quiz = PlainQuiz(round: round, toStandardError: json)
                quiz.say(heading)
                quiz.run()
                round = quiz.round
            }
            if json {
                Output.line(round.json(seed: seed, graded: graded).serialized(pretty: true))
            } else {
                for line in round.summary(graded: grade ? graded : nil) { Output.line(line) }
                Output.flush()
            }
            try context.loaded.finish()
            // "Review these now": the cards missed, crammed (their answers recorded with --grade).
            let missed = round.missed
            guard !json, !missed.isEmpty else { return }
            if !screen {
                Output.line("Press r and Enter to review them now; Enter alone ends.")
                Output.flush()
                reviewMissed = readLine()?.trimmingSpaces().lowercased() == "r"
            }
            guard reviewMissed else { return }
            var arguments = ["--cram"] + (grade ? ["--reschedule"] : []) + (screen ? [] : ["--plain"])
            if let vault = options.vault { arguments += ["--vault", vault] }
            if let now = options.nowText { arguments += ["--now", now] }
            if options.noCache { arguments.append("--no-cache") }
            let review = try Quire.Review.parse(arguments + [missed.map { "id:\($0.id)" }.joined(separator: " or ")])
            try review.run()
        }
    }
}

extension Quire.Quiz {
    /// The meanings of answers, when the search model is installed and options are wanted.
    static func meanings(_ pool: [QuizItem], mode: QuizQuestion.Mode) -> Meanings? {
        guard mode == .choice || mode == .truefalse,
              let folder = EmbeddingModel.folder(environment: ProcessInfo.processInfo.environment), EmbeddingModel.isInstalled(in: folder),
              let encoder = try? EmbeddingModel.load(from: folder) else { return nil }
        return Meanings(encoder: encoder, answers: Dictionary(pool.map { ($0.id, $0.answer) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Answers embedded on demand (the cards a question weighs, together on every core), each once;
    /// how near two are is the cosine of their embeddings.
    final class Meanings {
        let encoder: SentenceEncoder
        let answers: [CardID: String]
        private var vectors: [CardID: [Float]] = [:]

        init(encoder: SentenceEncoder, answers: [CardID: String]) {
            self.encoder = encoder
            self.answers = answers
        }

        func prepare(_ ids: [CardID]) {
            let missing = Array(Set(ids.filter { vectors[$0] == nil && answers[$0] != nil }))
            for (id, vector) in zip(missing, encoder.embed(missing.compactMap { answers[$0] })) { vectors[id] = vector }
        }

        func similarity(_ a: CardID, _ b: CardID) -> Double? {
            prepare([a, b])
            guard let x = vectors[a], let y = vectors[b] else { return nil }
            return Double(zip(x, y).reduce(Float(0)) { $0 + $1.0 * $1.1 })
        }
    }
}

extension QuizQuestion.Mode: ExpressibleByArgument {}
