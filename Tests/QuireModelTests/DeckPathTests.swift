import Testing
@testable import QuireModel

@Suite struct DeckPathTests {
    @Test func parsing() {
        #expect(DeckPath("Biology/Cells")?.components == ["Biology", "Cells"])
        #expect(DeckPath(" Biology / Cells ")?.components == ["Biology", "Cells"])
        #expect(DeckPath("/Biology//Cells/")?.components == ["Biology", "Cells"])
        #expect(DeckPath("Ancient Rome")?.components == ["Ancient Rome"])
        #expect(DeckPath("") == nil)
        #expect(DeckPath(" / / ") == nil)
        #expect(DeckPath(components: ["", "A", ""])?.components == ["A"])
        #expect(DeckPath(components: ["", ""]) == nil)
    }

    @Test func treeNavigation() throws {
        let d = try #require(DeckPath("Biology/Cells/Organelles"))
        #expect(d.name == "Organelles")
        #expect(d.description == "Biology/Cells/Organelles")
        #expect(d.parent?.description == "Biology/Cells")
        #expect(d.parent?.parent?.parent == nil)
        #expect(d.lineage.map(\.description) == ["Biology", "Biology/Cells", "Biology/Cells/Organelles"])
        #expect(DeckPath.defaultDeck.description == "Default")
    }

    @Test func isWithinIsCaseInsensitiveAndWholeComponents() throws {
        let cells = try #require(DeckPath("Biology/Cells"))
        #expect(cells.isWithin(try #require(DeckPath("biology"))))
        #expect(cells.isWithin(try #require(DeckPath("BIOLOGY/cells"))))
        #expect(!cells.isWithin(try #require(DeckPath("Bio"))))
        #expect(!cells.isWithin(try #require(DeckPath("Biology/Cells/Organelles"))))
        #expect(!cells.isWithin(try #require(DeckPath("Chemistry"))))
    }

    @Test func orderingIsByComponentCaseInsensitive() throws {
        let names = ["biology/cells", "Biology", "Art", "Biology Two", "chemistry"]
        let sorted = names.compactMap { DeckPath($0) }.sorted().map(\.description)
        #expect(sorted == ["Art", "Biology", "biology/cells", "Biology Two", "chemistry"])
    }

    @Test func trimmingSpacesOnlyTrimsSpacesAndTabs() {
        #expect(" \tA b\t ".trimmingSpaces() == "A b")
        #expect("\nA\n".trimmingSpaces() == "\nA\n")
    }
}
