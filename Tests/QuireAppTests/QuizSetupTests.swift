import Testing
import QuireIndex
import QuireModel
import QuireQuiz
import QuireStudy
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// A quiz made ready by the application layer on a real vault: the questions drawn from the
/// seed, answers judged and scored, recorded as reviews with --grade; nothing to ask is an error.
@Suite struct QuizSetupTests {
    /// A vault of 12 capitals in one deck, and the context a command would load.
    static func context(_ dir: TempDir) throws -> StudyContext {
        let capitals = [("France", "Paris"), ("Spain", "Madrid"), ("Italy", "Rome"), ("Germany", "Berlin"), ("Portugal", "Lisbon"),
                        ("Austria", "Vienna"), ("Poland", "Warsaw"), ("Greece", "Athens"), ("Norway", "Oslo"), ("Sweden", "Stockholm"),
                        ("Finland", "Helsinki"), ("Ireland", "Dublin")]
        var note = "---\ndeck: Geography\n---\n"
        for (country, city) in capitals { note += "\nWhat is the capital of \(country)? :: \(city)\n" }
        try dir.write(".quire/config.yaml", "")
        try dir.write("Geography/capitals.md", note)
        let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
        return StudyContext(loaded, config: try LoadedVault.readSettings(of: loaded.vault).config, now: at(22, 10))
    }

    @Test func theSameSeedTheSameQuizAndAnswersJudged() throws {
        try withTempDir { dir in
            let context = try Self.context(dir)
            let request = QuizRequest(mode: .choice, count: 5, seed: 7)
            var quiz = try context.quiz(request, clock: StudyClock(fixed: at(22, 10)))
            #expect(quiz.round.questions.count == 5 && quiz.heading == "Quiz: 5 questions, choice (seed 7)")
            #expect(try context.quiz(request, clock: StudyClock(fixed: at(22, 10))).round.questions == quiz.round.questions)
            // Four options, one of them the card's answer, none twice.
            let first = quiz.round.questions[0], second = quiz.round.questions[1]
            #expect(first.options.count == 4 && Set(first.options).count == 4 && first.options[first.correct] == first.items[0].answer)
            // Recorded as reviews: right → Good, wrong → Again.
            let recorder = QuizRecorder(try ReviewContext(vault: context.loaded.vault, cached: false), paths: quiz.paths) { card, error in
                Issue.record("\(card): \(error)")
            }
            recorder.records(&quiz.round)
            let right = quiz.round.answer(first, "\(first.correct + 1)", at: at(22, 10, 5), milliseconds: 5000)
            #expect(right.last == "Right! +10")
            let wrong = quiz.round.answer(second, "\((second.correct + 1) % 4 + 1)", at: at(22, 10, 9), milliseconds: 4000)
            #expect(wrong.last == "Wrong." && quiz.round.missed.map(\.id) == [second.items[0].id])
            #expect(recorder.graded == 2)
            let lines = context.loaded.vault.reviewLog().events.map { "\($0.card) \($0.action)" }
            #expect(lines == ["\(first.items[0].id) grade(QuireModel.Rating.good)", "\(second.items[0].id) grade(QuireModel.Rating.again)"],
                    "\(lines)")
        }
    }

    /// A match round counts each pair for its card: three of five right earn three fifths of the
    /// points and say so; the results count pairs and list each missed card with its answer.
    @Test func matchPairsCountEachForItsCard() throws {
        try withTempDir { dir in
            let context = try Self.context(dir)
            var quiz = try context.quiz(QuizRequest(mode: .match, count: 1, seed: 5), clock: StudyClock(fixed: at(22, 10)))
            let question = try #require(quiz.round.questions.first)
            #expect(question.items.count == 5)
            let letters: [Character] = ["a", "b", "c", "d", "e"]
            // The first three pairs right, the last two swapped.
            var chosen = question.pairing
            chosen.swapAt(3, 4)
            let line = chosen.enumerated().map { "\($0.offset + 1)\(letters[$0.element])" }.joined(separator: " ")
            let said = quiz.round.answer(question, line, at: at(22, 10, 5), milliseconds: 5000)
            #expect(said.last == "3 of 5 pairs right: +6.", "\(said)")
            #expect(quiz.round.score.points == 6 && quiz.round.missed.map(\.id) == [question.items[3].id, question.items[4].id])
            let summary = quiz.round.summary(graded: nil)
            #expect(summary.contains { $0.hasPrefix("Score: 6 points · 3 of 5 pairs right") }, "\(summary)")
            #expect(summary.contains("  \(question.items[3].id)  \(question.items[3].prompt) → \(question.items[3].answer)"), "\(summary)")
        }
    }

    @Test func nothingToAskIsSaid() throws {
        try withTempDir { dir in
            let context = try Self.context(dir)
            let history = try Query(arguments: ["deck:History"])
            do throws(AppError) {
                _ = try context.quiz(QuizRequest(mode: .choice, count: 5, query: history),
                                     clock: StudyClock(fixed: at(22, 10)))
                Issue.record("a quiz of no cards was made")
            } catch {
                #expect(error.description == "no card to ask: the query selects none (suspended cards and archived notes are left out)")
            }
        }
    }
}
