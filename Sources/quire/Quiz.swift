import QuireTerminal
import ArgumentParser
import Foundation
import QuireApp
import QuireQuiz

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
            let q = query.isEmpty ? nil : try options.query(query)
            let context = try StudyContext(options, readLog: false)
            var quiz: PreparedQuiz
            do {
                quiz = try context.quiz(QuizRequest(mode: mode, count: count, timed: timed, seed: seed, query: q),
                                        clock: StudyClock(fixed: options.pinnedNow))
            } catch { throw CLIError(error.description) }
            let recorder = grade ? QuizRecorder(try ReviewContext(options), paths: quiz.paths) { card, error in
                Output.error("quire: \(card): \(error)")
            } : nil
            recorder?.records(&quiz.round)
            let screen = !plain && !json && Output.isTerminal
            var reviewMissed = Self.ask(&quiz, onScreen: screen, json: json)
            if json {
                Output.line(quiz.round.json(seed: quiz.seed, graded: recorder?.graded ?? 0).serialized(pretty: true))
            } else {
                for line in quiz.round.summary(graded: recorder?.graded) { Output.line(line) }
                Output.flush()
            }
            try context.loaded.finish()
            // "Review these now": the cards missed, crammed (their answers recorded with --grade).
            let missed = quiz.round.missed
            guard !json, !missed.isEmpty else { return }
            if !screen {
                Output.line("Press r and Enter to review them now; Enter alone ends.")
                Output.flush()
                reviewMissed = readLine()?.trimmingSpaces().lowercased() == "r"
            }
            guard reviewMissed else { return }
            let cards = try LoadedVault.query([missed.map { "id:\($0.id)" }.joined(separator: " or ")])
            try Quire.Review.study(try StudyContext(options), .custom(.cram, query: cards), options: options, recordsAnswers: grade,
                                   plain: !screen, typeEveryAnswer: false, changedCardsJoin: false)
        }

        /// Asks the quiz on the full screen or line by line; whether the screen's user asked to
        /// go over the missed cards.
        static func ask(_ quiz: inout PreparedQuiz, onScreen screen: Bool, json: Bool) -> Bool {
            if screen {
                var asking = QuizScreen(round: quiz.round, heading: quiz.heading)
                asking.run()
                quiz.round = asking.round
                return asking.reviewMissed
            }
            var asking = PlainQuiz(round: quiz.round, toStandardError: json)
            asking.say(quiz.heading)
            asking.run()
            quiz.round = asking.round
            return false
        }
    }
}

extension QuizQuestion.Mode: ExpressibleByArgument {}
