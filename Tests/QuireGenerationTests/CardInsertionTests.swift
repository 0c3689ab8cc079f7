import Testing
import QuireModel
import QuireParsing
@testable import QuireGeneration

/// Cards written into a note: at the end of their sources' sections, or under its Cards section
/// (a new one at the end); the rest kept.
@Suite struct CardInsertionTests {
    static let cards = [
        CardProposal(format: .definition, front: "Osmosis", back: "the movement of water across a membrane", line: 4, headingPath: [],
                     rule: "definition.copula", score: 0.9),
        CardProposal(format: .cloze, front: "The {{c1::mitochondrion}} makes ATP.", back: "mitochondrion", line: 6, headingPath: [],
                     rule: "cloze.emphasis", score: 0.7),
    ]

    @Test func aNewCardsSectionAtTheEnd() {
        let note = "---\ntitle: T\n---\n# T\n\nText here."
        let out = String(decoding: CardInsertion.inserting(Self.cards, into: Array(note.utf8), placement: .cardsSection), as: UTF8.self)
        #expect(out == note + "\n\n## Cards\n\n<!-- generated from line 4 (definition, definition.copula) -->\n"
                + "Osmosis :: the movement of water across a membrane\n\n<!-- generated from line 6 (cloze, cloze.emphasis) -->\n"
                + "The {{c1::mitochondrion}} makes ATP.\n")
        let (parsed, found) = NoteParser.parse(Array(out.utf8), path: "T.md")
        #expect(parsed?.cards.map(\.kind) == [.definition, .cloze] && found.isEmpty, "\(found)")
    }

    @Test func intoTheCardsSectionBeforeTheNextAndWithCRLF() {
        let note = "# T\r\n\r\n## Cards\r\n\r\nOld :: card here\r\n\r\n## Later\r\n\r\nMore text.\r\n"
        let out = String(decoding: CardInsertion.inserting([Self.cards[0]], into: Array(note.utf8), placement: .cardsSection), as: UTF8.self)
        #expect(out == "# T\r\n\r\n## Cards\r\n\r\nOld :: card here\r\n\r\n<!-- generated from line 4 (definition, definition.copula) -->\r\n"
                + "Osmosis :: the movement of water across a membrane\r\n\r\n## Later\r\n\r\nMore text.\r\n")
        #expect(NoteParser.parse(Array(out.utf8), path: "T.md").note?.cards.count == 2)
        #expect(CardInsertion.inserting([], into: Array(note.utf8)) == Array(note.utf8))
    }

    @Test func eachCardAtTheEndOfItsSourcesSection() {
        let note = "---\ntitle: T\n---\n# T\n\n## Cells\n\nThe cell is the unit of life.\n### Membranes\n\nOsmosis moves water.\n\n## Energy\n\nATP.\n"
        func card(_ front: String, _ line: Int, _ path: [String]) -> CardProposal {
            CardProposal(format: .definition, front: front, back: "b " + front, line: line, headingPath: path, rule: "r", score: 1)
        }
        let cards = [card("Cell", 8, ["T", "Cells"]), card("Osmosis", 11, ["T", "Cells", "Membranes"]), card("ATP", 15, ["T", "Energy"]),
                     card("Life", 8, ["T", "Cells"])]
        let out = String(decoding: CardInsertion.inserting(cards, into: Array(note.utf8)), as: UTF8.self)
        #expect(out == "---\ntitle: T\n---\n# T\n\n## Cells\n\nThe cell is the unit of life.\n"
                + "\n<!-- generated from line 8 (definition, r) -->\nCell :: b Cell\n\n<!-- generated from line 8 (definition, r) -->\nLife :: b Life\n\n"
                + "### Membranes\n\nOsmosis moves water.\n\n<!-- generated from line 11 (definition, r) -->\nOsmosis :: b Osmosis\n\n"
                + "## Energy\n\nATP.\n\n<!-- generated from line 15 (definition, r) -->\nATP :: b ATP\n")
        let (parsed, found) = NoteParser.parse(Array(out.utf8), path: "T.md")
        #expect(found.isEmpty, "\(found)")
        #expect(parsed?.cards.map(\.headingPath) == [["T", "Cells"], ["T", "Cells"], ["T", "Cells", "Membranes"], ["T", "Energy"]])
        #expect(CardInsertion.readsBack(cards, placement: .section, before: [], after: parsed?.cards ?? []))
        // Cards said to come from other sections do not read back.
        let moved = cards.map { var c = $0; c.headingPath = ["T"]; return c }
        #expect(!CardInsertion.readsBack(moved, placement: .section, before: [], after: parsed?.cards ?? []))
    }

    @Test func aCardFromAnotherNoteGoesUnderCardsAndCRLFIsKept() {
        let note = "# T\r\n\r\n## A\r\n\r\nText.\r\n"
        var from = Self.cards[0]
        from.source = "Other.md"
        let out = String(decoding: CardInsertion.inserting([from], into: Array(note.utf8)), as: UTF8.self)
        #expect(out == note + "\r\n## Cards\r\n\r\n<!-- generated from Other.md line 4 (definition, definition.copula) -->\r\n"
                + "Osmosis :: the movement of water across a membrane\r\n")
    }

    @Test func generatedCardsReadBackUnderTheirSourcesHeadings() {
        let note = """
            # Biology

            ## Cells

            The mitochondrion is the organelle that produces most of the cell's supply of ATP. Its inner membrane is folded \
            into **cristae**, which increase its surface.

            ## Transport

            **Osmosis** is the movement of water across a semipermeable membrane from low to high solute concentration.

            """
        let bytes = Array(note.utf8)
        guard let parsed = NoteParser.parse(bytes, path: "B.md").note else { Issue.record("no note"); return }
        let cards = CardGenerator.propose(NoteProse.sentences(of: parsed, bytes: bytes), statistics: TermStatistics(texts: [note]),
                                          tested: CardGenerator.testedTerms(of: parsed))
        #expect(Set(cards.map(\.headingPath)).count == 2, "\(cards.map(\.markdown))")
        let after = NoteParser.parse(CardInsertion.inserting(cards, into: bytes), path: "B.md").note?.cards ?? []
        #expect(after.map(\.headingPath) == cards.map(\.headingPath))
    }
}
