import Foundation
import Testing
import QuireTestSupport

/// The full-screen quiz through a real terminal (tmux, as the review screen's tests): typed answers
/// judged and scored on screen, --grade recording each, a choice answered by its number, the clock
/// counting down with --timed and a question timed out, the results with the cards missed.
@Suite(.serialized, .requires(.tmux), .tags(.slow)) struct QuizScreenTests {
    typealias Pane = ReviewScreenTests.Pane

    /// The country the question on screen asks about.
    static func country(_ screen: String) -> String? {
        guard let r = screen.range(of: "Capital of ") else { return nil }
        return String(screen[r.upperBound...].prefix { $0 != "?" })
    }

    @Test func typedAnswersOnScreen() throws {
        let pane = try Pane(arguments: ["quiz", "deck:Geo", "--mode", "typed", "--count", "2", "--seed", "11", "--grade"],
                            before: { try QuizTests.capitals($0) })
        defer { pane.close() }
        var screen = try pane.waitFor { $0.contains("Capital of ") }
        #expect(screen.contains("Quiz · typed · question 1 of 2 · 0 points") && screen.contains("type, then Enter"), "\(screen)")
        let city = QuizTests.capitalOf[Self.country(screen) ?? ""] ?? ""
        try pane.type(city.lowercased())
        try pane.keys("Enter")
        screen = try pane.waitFor { $0.contains("Right! +10") }
        #expect(screen.contains("> " + city.lowercased()) && screen.contains("Enter: next question"), "\(screen)")
        try pane.keys("Enter")
        screen = try pane.waitFor { $0.contains("question 2 of 2") }
        try pane.type("Atlantis")
        try pane.keys("Enter")
        screen = try pane.waitFor { $0.contains("Wrong.") }
        #expect(screen.contains("Expected: "), "\(screen)")
        try pane.keys("Enter")
        screen = try pane.waitFor { $0.contains("Score: 10 points · 1 of 2 right") }
        #expect(screen.contains("Missed:") && screen.contains("r: review the cards missed now"), "\(screen)")
        try pane.keys("q")
        screen = try pane.waitFor { $0.contains("EXIT=0") }
        #expect(screen.contains("Recorded 2 reviews"), "\(screen)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: pane.q.vault.appendingPathComponent(".quire/log").path).filter { $0.hasPrefix("tmux") }
        let log = try String(contentsOf: pane.q.vault.appendingPathComponent(".quire/log/" + (logs.first ?? "")), encoding: .utf8)
        #expect(log.contains(" good id=") && log.contains(" again id="), "\(log)")
    }

    @Test func choiceAndTheClock() throws {
        let pane = try Pane(arguments: ["quiz", "deck:Geo", "--count", "2", "--seed", "3", "--timed", "2"], before: { try QuizTests.capitals($0) })
        defer { pane.close() }
        var screen = try pane.waitFor { $0.contains("Capital of ") && $0.contains("s left") }
        let city = QuizTests.capitalOf[Self.country(screen) ?? ""] ?? ""
        let line = screen.split(separator: "\n").first { $0.hasSuffix(") " + city) }
        let number = line?.trimmingCharacters(in: .whitespaces).first.map(String.init) ?? "1"
        try pane.keys(number)
        screen = try pane.waitFor { $0.contains("Right! +10") }
        // (An Enter sooner than 0.4 s after a one-key answer was typed with it: it is not taken.)
        Thread.sleep(forTimeInterval: 0.5)
        try pane.keys("Enter")
        // The second question is left alone: two seconds later it is wrong.
        screen = try pane.waitFor { $0.contains("Time's up.") }
        #expect(screen.contains("Wrong."), "\(screen)")
        Thread.sleep(forTimeInterval: 0.5)
        try pane.keys("Enter")
        screen = try pane.waitFor { $0.contains("Score: 10 points · 1 of 2 right") }
        try pane.keys("q")
        try pane.waitFor { $0.contains("EXIT=0") }
    }

    /// A wrong choice shows the verdict and the right answer until a key, even when Enter was typed
    /// with the answer (`2⏎`, as the plain quiz takes it); the results list the missed card with
    /// its answer.
    @Test func aWrongChoiceStaysOnScreenUntilAKey() throws {
        let pane = try Pane(arguments: ["quiz", "deck:Geo", "--count", "2", "--seed", "3"], before: { try QuizTests.capitals($0) })
        defer { pane.close() }
        var screen = try pane.waitFor { $0.contains("Capital of ") && $0.contains("1-4 or a-d") }
        let country = Self.country(screen) ?? ""
        let city = QuizTests.capitalOf[country] ?? ""
        let wrong = screen.split(separator: "\n").first { $0.hasPrefix("  ") && $0.contains(") ") && !$0.hasSuffix(") " + city) }
        let number = wrong?.trimmingCharacters(in: .whitespaces).first.map(String.init) ?? "1"
        try pane.keys(number, "Enter")
        screen = try pane.waitFor { $0.contains("✗ Wrong.") }
        Thread.sleep(forTimeInterval: 1)
        screen = try pane.screen()
        #expect(screen.contains("question 1 of 2") && screen.contains("✗ Wrong.") && screen.contains("The answer: ") && screen.contains(city),
                "\(screen)")
        try pane.keys("Enter")
        screen = try pane.waitFor { $0.contains("question 2 of 2") }
        try pane.keys("q")
        screen = try pane.waitFor { $0.contains("Missed:") }
        #expect(screen.contains("→ " + city), "\(screen)")
        try pane.keys("q")
        try pane.waitFor { $0.contains("EXIT=0") }
    }
}
