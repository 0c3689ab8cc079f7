import Testing
import QuireModel
@testable import QuireQuiz

/// Typed answers compared as a reader would: case, accents, punctuation, articles and how numbers
/// are written do not count; a small typo does not fail a long word, but a wrong digit always does.
@Suite struct AnswerTextTests {
    @Test(arguments: [
        ("The Mitochondria.", "mitochondria"), ("Élan vital", "elan VITAL"), ("5.0 km", "5km"), ("1,000 people", "1000 people"),
        ("3,5", "3.5"), ("l'eau", "eau"), ("a cat", "the cat!"), ("*Paris*", "Paris"), ("[DNA](https://x.org)", "DNA"),
        ("Der Hund", "hund"), ("50 %", "50%"), ("  spaced   out ", "spaced out"),
    ])
    func sameOnceNormalised(_ pair: (String, String)) {
        #expect(AnswerText.normalized(pair.0) == AnswerText.normalized(pair.1), "\(AnswerText.words(pair.0)) vs \(AnswerText.words(pair.1))")
    }

    @Test(arguments: [("1945", "1946"), ("cat", "dog"), ("5 km", "50 km"), ("Paris", "Rome"), ("3.5", "35")])
    func differentOnceNormalised(_ pair: (String, String)) {
        #expect(AnswerText.normalized(pair.0) != AnswerText.normalized(pair.1))
    }

    @Test func plainText() {
        #expect(AnswerText.plainText("**Bold** and *it* and ==marked== and ~~gone~~") == "Bold and it and marked and gone")
        #expect(AnswerText.plainText("Eq for types with `==`, [1,2,3] and [docs](https://x.org) ![img](a.png)") == "Eq for types with ==, [1,2,3] and docs ")
        #expect(AnswerText.plainText("snake_case stays, _this_ goes <b>x</b>") == "snake_case stays, this goes  x ")
    }

    /// Answers of 100,000 characters are compared by their words (a quadratic edit distance here
    /// would take hours; this finishes in seconds).
    @Test func hugeAnswersStayLinear() {
        let a = String(repeating: "abcde fghij ", count: 9_000), b = String(repeating: "abcde fghij ", count: 8_999) + "abcde fghik "
        #expect(TypedAnswer(typed: b, expected: a).verdict == .wrong)
        #expect(QuizBuilder.tooClose(a, a + " "))
        #expect(!QuizBuilder.tooClose(a, String(repeating: "other words ", count: 9_000)))
        var builder = QuizBuilder(items: (0..<6).map { QuizItem(id: CardID(String(format: "h%07dz", $0))!, deck: DeckPath("D")!, kind: .basic,
                                                                 prompt: "Q\($0)", answer: String(repeating: "word\($0) ", count: 20_000)) }, seed: 1)
        #expect(builder.questions(.choice, count: 6).questions.count == 6)
    }

    @Test func typedAnswers() {
        #expect(TypedAnswer(typed: "the Mitochondria", expected: "Mitochondria").verdict == .correct)
        #expect(TypedAnswer(typed: "mitochondira", expected: "Mitochondria").verdict == .typo)
        #expect(TypedAnswer(typed: "photosyntesis", expected: "photosynthesis").verdict == .typo)
        // A wrong number is wrong, however close the text.
        #expect(TypedAnswer(typed: "1946", expected: "1945").verdict == .wrong)
        #expect(TypedAnswer(typed: "in 1946 AD", expected: "in 1945 AD").verdict == .wrong)
        // Short answers allow no typo.
        #expect(TypedAnswer(typed: "car", expected: "cat").verdict == .wrong)
        #expect(TypedAnswer(typed: "", expected: "cat").verdict == .wrong)
        let diff = TypedAnswer(typed: "the powerhouse of a cell", expected: "The powerhouse of the living cell").diff
        #expect(diff == [.same("The"), .same("powerhouse"), .same("of"), .same("the"), .missing("living"), .same("cell")], "\(diff)")
        let wrong = TypedAnswer(typed: "green plants", expected: "red plants").diff
        #expect(wrong == [.wrong("green"), .missing("red"), .same("plants")] || wrong == [.missing("red"), .wrong("green"), .same("plants")], "\(wrong)")
    }

    @Test func explanationsScoreKeyTerms() {
        let answer = "Mitochondria make ATP by oxidative phosphorylation"
        let passage = "The mitochondrion is the powerhouse of the cell; its inner membrane holds the electron transport chain."
        let full = Explanation(explanation: "Mitochondrion organelles produce ATP through phosphorylation that is oxidative, using the electron transport chain on the inner membrane",
                               answer: answer, passage: passage)
        let half = Explanation(explanation: "They make ATP", answer: answer, passage: passage)
        let none = Explanation(explanation: "I do not know", answer: answer, passage: passage)
        #expect(full.coverage > 0.8, "\(full)")
        #expect(half.coverage > 0.1 && half.coverage < 0.5, "\(half)")
        #expect(none.coverage == 0 && none.missing.first == "mitochondria", "\(none)")
        // The answer's terms weigh twice the passage's: they come first among the missing.
        #expect(Array(half.missing.prefix(3)) == ["mitochondria", "oxidative", "phosphorylation"], "\(half.missing)")
        #expect(Explanation(explanation: "x", answer: "").coverage == 0)
    }

    /// Obsidian's links read as Obsidian shows them, its embeds not at all.
    @Test func wikilinksAndEmbeds() {
        #expect(AnswerText.plainText("See [[#property]], [[Glossary#Bias|bias]], [[Notes]] and [[Notes#Cells]].![[slide.png]]")
                == "See property, bias, Notes and Notes > Cells.")
        #expect(AnswerText.plainText("[[unclosed and ![[half") == "[[unclosed and ![[half")
    }
}
