import Testing
import QuireModel
import QuireParsing
@testable import QuireGeneration

/// Cards written into a note: under its Cards section, or a new one at the end; the rest kept.
@Suite struct CardInsertionTests {
    static let cards = [
        CardProposal(format: .definition, front: "Osmosis", back: "the movement of water across a membrane", line: 4, headingPath: [],
                     rule: "definition.copula", score: 0.9),
        CardProposal(format: .cloze, front: "The {{c1::mitochondrion}} makes ATP.", back: "mitochondrion", line: 6, headingPath: [],
                     rule: "cloze.emphasis", score: 0.7),
    ]

    @Test func aNewCardsSectionAtTheEnd() {
        let note = "---\ntitle: T\n---\n# T\n\nText here."
        let out = String(decoding: CardInsertion.inserting(Self.cards, into: Array(note.utf8)), as: UTF8.self)
        #expect(out == note + "\n\n## Cards\n\n<!-- generated from line 4 (definition, definition.copula) -->\n"
                + "Osmosis :: the movement of water across a membrane\n\n<!-- generated from line 6 (cloze, cloze.emphasis) -->\n"
                + "The {{c1::mitochondrion}} makes ATP.\n")
        let (parsed, found) = NoteParser.parse(Array(out.utf8), path: "T.md")
        #expect(parsed?.cards.map(\.kind) == [.definition, .cloze] && found.isEmpty, "\(found)")
    }

    @Test func intoTheCardsSectionBeforeTheNextAndWithCRLF() {
        let note = "# T\r\n\r\n## Cards\r\n\r\nOld :: card here\r\n\r\n## Later\r\n\r\nMore text.\r\n"
        let out = String(decoding: CardInsertion.inserting([Self.cards[0]], into: Array(note.utf8)), as: UTF8.self)
        #expect(out == "# T\r\n\r\n## Cards\r\n\r\nOld :: card here\r\n\r\n<!-- generated from line 4 (definition, definition.copula) -->\r\n"
                + "Osmosis :: the movement of water across a membrane\r\n\r\n## Later\r\n\r\nMore text.\r\n")
        #expect(NoteParser.parse(Array(out.utf8), path: "T.md").note?.cards.count == 2)
        #expect(CardInsertion.inserting([], into: Array(note.utf8)) == Array(note.utf8))
    }
}
