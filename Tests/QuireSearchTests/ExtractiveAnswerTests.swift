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
        #expect(answer.sentences.first == Answer.Sentence(text: "Enzymes lower the activation energy of reactions.", source: 1))
        #expect(answer.sources.first?.path == "chem.md")
        #expect(!answer.sentences.contains { $0.text.contains("mitochondria") })
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

/// Hostile text: markup that never closes costs linear time.
@Suite struct ExtractiveAnswerHostileTests {
    @Test func unclosedTagsAndCommentsAreLinear() {
        #expect(ExtractiveAnswer.withoutTags("a <b>bold</b> and <i x=1>x</i> <!-- c --> end") == "a bold and x end")
        #expect(ExtractiveAnswer.withoutTags("1 < 2 and a<b but <c") == "1 < 2 and a<b but <c")
        // 400,000 characters of '<a' with no '>', and of '<!--' with no end: done at once.
        let tags = String(repeating: "<a", count: 200_000)
        #expect(ExtractiveAnswer.withoutTags(Substring(tags)) == tags)
        let comments = String(repeating: "<!--", count: 100_000)
        #expect(ExtractiveAnswer.withoutTags(Substring(comments)).count == comments.count)
        #expect(ExtractiveAnswer.sentences(of: tags + ". A real sentence with enough words.").count == 1)
    }
}
