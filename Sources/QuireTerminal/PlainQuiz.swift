import QuireApp
/// `quire quiz` line by line (scripts, pipes, `--plain`): each question printed, the answer read
/// from standard input, what it earned said; `q` (or the end of input) stops.
package struct PlainQuiz {
    package var round: QuizRound
    /// With --json the questions go to standard error, the results to standard output.
    package let toStandardError: Bool

    package init(round: QuizRound, toStandardError: Bool) {
        self.round = round
        self.toStandardError = toStandardError
    }

    package func say(_ text: String) {
        if toStandardError {
            Output.error(Output.safe(text))
        } else {
            Output.line(text)
            Output.flush()
        }
    }

    package mutating func run() {
        for (n, question) in round.questions.enumerated() {
            say("")
            say("Question \(n + 1) of \(round.questions.count)" + (round.timed.map { " · \($0) s" } ?? ""))
            let (lines, prompt) = QuizRound.lines(question)
            for line in lines + [prompt] { say(line) }
            let shown = round.clock.now()
            guard let line = readLine(), line.trimmingSpaces() != "q" else { break }
            let answered = round.clock.now()
            for said in round.answer(question, line, at: answered, milliseconds: round.clock.milliseconds(from: shown, to: answered)) { say(said) }
        }
    }
}
