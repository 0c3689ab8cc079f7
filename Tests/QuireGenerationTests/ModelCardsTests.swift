import Testing
@testable import QuireGeneration

/// A language model's cards checked against the note: only cards that say what their sentence
/// says, in the shape asked for, and that pass the rules' filters, are kept; the rules fill in,
/// and stand alone when the model fails.
@Suite struct ModelCardsTests {
    static let sentences = [
        SourceSentence(text: "An enzyme is a protein that speeds up a chemical reaction.", line: 6, headingPath: ["Enzymes"], emphasis: ["enzyme"],
                       block: 0, position: 0, isListItem: false),
        SourceSentence(text: "Enzymes work best at one temperature because heat changes their shape.", line: 6, headingPath: ["Enzymes"],
                       emphasis: [], block: 0, position: 1, isListItem: false),
    ]

    /// A model that replies with a fixed text, or fails.
    struct Scripted: LanguageModel {
        var reply: String?
        func complete(system: String, user: String) throws -> String {
            guard let reply else { throw TestError() }
            return reply
        }
    }
    struct TestError: Error {}

    @Test func onlyGroundedCardsInTheShapeAskedForAreKept() {
        let reply = """
            Here are your cards:
            ```json
            {"cards": [
              {"format": "qa", "front": "What does an enzyme speed up?", "back": "A chemical reaction", "sentence": 1},
              {"format": "definition", "front": "Enzyme", "back": "a protein made by ribosomes in the liver", "sentence": 1},
              {"format": "cloze", "front": "Enzymes work best at one {{c1::temperature}} because heat changes their shape.", "back": "temperature", "sentence": 2},
              {"format": "cloze", "front": "Enzymes always work at any {{c1::temperature}}.", "back": "temperature", "sentence": 2},
              {"format": "qa", "front": "Why is it important?", "back": "Because heat changes their shape", "sentence": 2},
              {"format": "essay", "front": "x", "back": "y", "sentence": 1},
              {"format": "qa", "front": "What is it?", "back": "A protein", "sentence": 9},
              {"format": "qa", "front": "\\u001b[31mWhat speeds reactions?", "back": "An enzyme", "sentence": 1}
            ]}
            ```
            """
        let (cards, rejected) = ModelCards.parse(reply, sentences: Self.sentences)
        #expect(cards.map(\.markdown) == ["What does an enzyme speed up? :: A chemical reaction",
                                          "Enzymes work best at one {{c1::temperature}} because heat changes their shape.",
                                          "[31mWhat speeds reactions? :: An enzyme"])
        #expect(rejected.count == 5, "\(rejected)")
        #expect(rejected.contains { $0.contains("says what the note does not (ribosomes, liver)") }, "\(rejected)")
        #expect(ModelCards.parse("no json here", sentences: Self.sentences).rejected == ["the reply is not the JSON asked for"])
        #expect(ModelCards.parse("{\"cards\": 3}", sentences: Self.sentences).cards.isEmpty)
    }

    @Test func theRulesFillInAndStandAloneWhenTheModelFails() {
        let statistics = TermStatistics()
        let good = ModelCards.propose(Self.sentences, title: "Enzymes", model: Scripted(reply: """
            {"cards": [{"format": "qa", "front": "What does an enzyme speed up?", "back": "A chemical reaction", "sentence": 1}]}
            """), statistics: statistics)
        #expect(good.problem == nil)
        #expect(good.cards.map(\.rule).contains("model.qa") && good.cards.map(\.rule).contains("definition.copula"), "\(good.cards.map(\.rule))")
        let failed = ModelCards.propose(Self.sentences, title: "Enzymes", model: Scripted(reply: nil), statistics: statistics)
        #expect(failed.problem?.contains("the language model failed") == true)
        #expect(failed.cards.map(\.markdown) == CardGenerator.propose(Self.sentences, statistics: statistics).map(\.markdown))
        let junk = ModelCards.propose(Self.sentences, title: "Enzymes", model: Scripted(reply: "sorry"), statistics: statistics)
        #expect(junk.problem == "no card of the model's reply holds (the reply is not the JSON asked for)")
        #expect(!junk.cards.isEmpty)
        // The prompt numbers the sentences and names the formats.
        let prompt = ModelCards.prompt(Self.sentences, title: "Enzymes", formats: [.qa, .cloze])
        #expect(prompt == "Note: Enzymes\nFormats: cloze, qa\n\n[1] An enzyme is a protein that speeds up a chemical reaction.\n"
                + "[2] Enzymes work best at one temperature because heat changes their shape.\n")
    }
}
