import Testing
import QuireModel
import QuireTestSupport
@testable import QuireGeneration

/// The rules, one at a time, and the filters every card passes.
@Suite struct CardGeneratorTests {
    static func sentence(_ text: String, emphasis: [String] = [], headings: [String] = ["Note"], position: Int = 1, items: [String] = [],
                         listItem: Bool = false, line: Int = 5) -> SourceSentence {
        SourceSentence(text: text, line: line, headingPath: headings, emphasis: emphasis, block: 0, position: position,
                       isListItem: listItem, followingItems: items)
    }

    static func cards(_ sentences: [SourceSentence], formats: Set<CardProposal.Format> = Set(CardProposal.Format.allCases),
                      existing: Set<String> = []) -> [String] {
        CardGenerator.propose(sentences, statistics: TermStatistics(texts: ["unrelated text about other things"]), existing: existing,
                              options: .init(formats: formats, maximum: 10)).map(\.markdown)
    }

    @Test func definitions() {
        #expect(Self.cards([Self.sentence("Osmosis is the movement of water across a membrane.", emphasis: ["Osmosis"])], formats: [.definition])
                == ["Osmosis :: the movement of water across a membrane"])
        #expect(Self.cards([Self.sentence("Bone, or osseous tissue, is a hard, dense connective tissue that forms the skeleton.", emphasis: ["Bone"])],
                           formats: [.definition]) == ["Bone (osseous tissue) :: a hard, dense connective tissue that forms the skeleton"])
        #expect(Self.cards([Self.sentence("The process by which plants make sugar from light is called photosynthesis.")], formats: [.definition])
                == ["Photosynthesis :: the process by which plants make sugar from light"])
        #expect(Self.cards([Self.sentence("In joints, cartilage, a semi-rigid connective tissue, provides flexibility.", emphasis: ["cartilage"])],
                           formats: [.definition]) == ["Cartilage :: a semi-rigid connective tissue"])
        #expect(Self.cards([Self.sentence("Mitosis: the division of a nucleus into two", position: 0, listItem: true)], formats: [.definition])
                == ["Mitosis :: the division of a nucleus into two"])
        #expect(Self.cards([Self.sentence("Entropy refers to the disorder of a system.")], formats: [.definition])
                == ["Entropy :: the disorder of a system"])
        // Not definitions: a pronoun subject, a classification with a reason, a long subject.
        #expect(Self.cards([Self.sentence("This is a very important process in cells."),
                            Self.sentence("The explosion of nitroglycerin is a chemical change because gases form."),
                            Self.sentence("The most apparent functions of the skeletal system are the gross functions of the body.")],
                           formats: [.definition]).isEmpty)
    }

    /// A textbook's plain definition (`The X is the Y that …`) opening its paragraph, unmarked, is
    /// a definition; mid-paragraph, or a class with no clause narrowing it, it is not; a sentence
    /// opened by `Its` after it carries its emphasised term as a cloze, the possessive named.
    @Test func plainTextbookDefinitionsAndTheirPossessives() {
        let opening = Self.sentence("The mitochondrion is the organelle that produces most of the cell's supply of ATP.", position: 0)
        var next = Self.sentence("Its inner membrane is folded into cristae, which increase the surface area for the electron transport chain.",
                                 emphasis: ["cristae"], position: 1)
        next.block = opening.block
        #expect(Self.cards([opening, next]) == [
            "The mitochondrion's inner membrane is folded into {{c1::cristae}}, which increase the surface area for the electron transport chain.",
            "Mitochondrion :: the organelle that produces most of the cell's supply of ATP",
        ])
        #expect(Self.cards([Self.sentence("The mitochondrion is the organelle that produces most ATP.", position: 2)], formats: [.definition]).isEmpty)
        #expect(Self.cards([Self.sentence("The mitochondrion is a large and busy organelle of the cell.", position: 0)], formats: [.definition]).isEmpty)
        #expect(CardGenerator.restricts("a protein which folds itself") && CardGenerator.restricts("the organelle that makes ATP")
                && !CardGenerator.restricts("the organelle") && !CardGenerator.restricts("one of the parts that matter")
                && !CardGenerator.restricts("a, b and c that are listed"))
    }

    @Test func questions() {
        #expect(Self.cards([Self.sentence("Leaves are green because they contain chlorophyll.")], formats: [.qa])
                == ["Why are leaves green? :: Because they contain chlorophyll"])
        #expect(Self.cards([Self.sentence("The heart pumps blood because the body needs oxygen; this never stops.")], formats: [.qa])
                == ["Why does the heart pump blood? :: Because the body needs oxygen"])
        #expect(Self.cards([Self.sentence("Enzymes in hot water stop working because heat breaks the bonds of the protein.")], formats: [.qa])
                == ["Why do enzymes in hot water stop working? :: Because heat breaks the bonds of the protein"])
        #expect(Self.cards([Self.sentence("Cells divided rapidly because nutrients were plentiful.")], formats: [.qa])
                == ["Why is it that cells divided rapidly? :: Because nutrients were plentiful"])
        #expect(Self.cards([Self.sentence("There are three types of muscle tissue: skeletal, cardiac, and smooth.")], formats: [.qa])
                == ["What are the three types of muscle tissue? :: Skeletal, cardiac, and smooth"])
        #expect(Self.cards([Self.sentence("The skeletal system performs the following functions:", items: ["support", "movement", "protection"])],
                           formats: [.qa]) == ["The skeletal system performs which functions? :: Support; movement; protection"])
        // Cause and effect (`X causes Y`) is asked no more: 1 of 4 such questions was judged good.
        #expect(Self.cards([Self.sentence("Smoking causes lung cancer and heart disease.")], formats: [.qa]).isEmpty)
        // A question leaning on the text before it is not asked.
        #expect(Self.cards([Self.sentence("It is green because it contains chlorophyll.")], formats: [.qa]).isEmpty)
    }

    @Test func clozes() {
        #expect(Self.cards([Self.sentence("The mitochondrion produces most of the cell's ATP.", emphasis: ["mitochondrion"])], formats: [.cloze])
                == ["The {{c1::mitochondrion}} produces most of the cell's ATP."])
        // Years and quantities are not deleted: 2 of 22 such clozes were judged worth learning.
        #expect(Self.cards([Self.sentence("The Declaration of Independence was signed in 1776 by the delegates.")], formats: [.cloze]).isEmpty)
        // A deletion the sentence gives away, and a sentence leaning on another, are no clozes.
        #expect(Self.cards([Self.sentence("Antihistamines work by blocking histamine receptors in the body.", emphasis: ["histamine"]),
                            Self.sentence("From this perspective, people do not create human rights at all.", emphasis: ["human rights"])],
                           formats: [.cloze]).isEmpty)
        // A leading connective is dropped; a sentence pointing elsewhere or a common word is no cloze.
        #expect(Self.cards([Self.sentence("Thus, enzymes lower the activation energy of reactions.", emphasis: ["enzymes"])], formats: [.cloze])
                == ["{{c1::Enzymes}} lower the activation energy of reactions."])
        #expect(Self.cards([Self.sentence("These enzymes lower the activation energy of reactions.", emphasis: ["enzymes"]),
                            Self.sentence("Enzymes lower the energy needed by all of the reactions.", emphasis: ["the"])], formats: [.cloze]).isEmpty)
    }

    @Test func oneCardPerFactAndNoneTheVaultHas() {
        let s = Self.sentence("Osmosis is the movement of water across a membrane.", emphasis: ["Osmosis"])
        let all = Self.cards([s])
        // The definition wins over the cloze of the same term in the same sentence.
        #expect(all == ["Osmosis :: the movement of water across a membrane"])
        #expect(Self.cards([s], existing: [CardGenerator.normalized("Osmosis")]).allSatisfy { !$0.hasPrefix("Osmosis ::") })
        // At most `maximum` of a format.
        let many = (0..<20).map { Self.sentence("The term\($0) names a thing studied in a course of biology.", emphasis: ["term\($0)"], line: $0 + 1) }
        #expect(CardGenerator.propose(many, statistics: TermStatistics(), options: .init(formats: [.cloze], maximum: 3)).count == 3)
    }

    @Test func hardRules() {
        func card(_ format: CardProposal.Format, _ front: String, _ back: String) -> CardProposal {
            CardProposal(format: format, front: front, back: back, line: 1, headingPath: [], rule: "test", score: 1)
        }
        #expect(CardGenerator.passesHardRules(card(.qa, "Why are leaves green?", "Because of chlorophyll")))
        #expect(!CardGenerator.passesHardRules(card(.qa, "Why is it green?", "Because of chlorophyll")))
        #expect(!CardGenerator.passesHardRules(card(.qa, "What is shown in Figure 3?", "A cell")))
        #expect(!CardGenerator.passesHardRules(card(.definition, "Cell", "cell")))
        #expect(!CardGenerator.passesHardRules(card(.definition, "Cell", "the unit of life :: and more")))
        #expect(!CardGenerator.passesHardRules(card(.definition, "Skeletal system", "the system that performs the following functions:")))
        #expect(!CardGenerator.passesHardRules(card(.cloze, "Cells are {{c1::the}} units of life here.", "the")))
        #expect(!CardGenerator.passesHardRules(card(.qa, "Why are leaves green", "Because of chlorophyll")))
    }
}
