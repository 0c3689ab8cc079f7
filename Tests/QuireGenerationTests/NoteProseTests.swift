import Testing
import QuireModel
import QuireTestSupport
@testable import QuireGeneration

/// A note's prose as generation reads it: sentences with lines and headings, emphasis, the list
/// after a colon, citations left out, cards and code skipped.
@Suite struct NoteProseTests {
    static let note = """
        ---
        title: Bone
        ---
        # Bone

        **Bone**, or *osseous tissue*, is a hard tissue. It has
        several functions:

        - support
        - protection

        ## Marrow

        Red marrow makes blood cells (Smith & Jones, 2011). It is soft (see below).

        Marrow :: the soft tissue inside bones

        ```
        Code is not prose.
        ```
        """

    @Test func sentencesWithTheirPlaces() throws {
        let parsed = try #require(parse(Self.note, path: "Bone.md").note)
        let sentences = NoteProse.sentences(of: parsed, bytes: Array(Self.note.utf8))
        #expect(sentences.map(\.text) == ["Bone, or osseous tissue, is a hard tissue.", "It has several functions:", "support", "protection",
                                          "Red marrow makes blood cells.", "It is soft (see below)."])
        #expect(sentences.map(\.line) == [6, 6, 9, 10, 14, 14])
        #expect(sentences[0].emphasis == ["Bone", "osseous tissue"] && sentences[1].emphasis.isEmpty)
        #expect(sentences[1].followingItems == ["support", "protection"] && sentences[0].followingItems.isEmpty)
        #expect(sentences[2].isListItem && !sentences[0].isListItem)
        #expect(sentences[4].headingPath == ["Bone", "Marrow"] && sentences[0].headingPath == ["Bone"])
        #expect(sentences[0].position == 0 && sentences[1].position == 1 && sentences[0].block == sentences[1].block)
    }
}
