import Testing
import QuireModel
import QuireTestSupport
@testable import QuireGeneration

/// A hostile note cannot make generation slower than linear: one paragraph of 20,000 sentences,
/// and 2,000 sections that all name their heading (each would once be compared with every other).
/// A quadratic step here would take hours; these finish in seconds.
@Suite struct HostileNoteTests {
    @Test func hugeParagraphsAndManySectionsStayLinear() throws {
        let paragraph = String(repeating: "The enzyme binds the substrate because heat helps. ", count: 20_000)
        var sections = ""
        for k in 0..<2_000 { sections += "## Topic\(k % 7)\n\nTopic\(k % 7) is a thing that matters in the course.\n\n" }
        let text = "# Big\n\n" + paragraph + "\n\n" + sections
        let note = try #require(parse(text, path: "Big.md").note)
        let sentences = NoteProse.sentences(of: note, bytes: Array(text.utf8))
        #expect(sentences.count == 22_000)
        #expect(sentences.last?.line == 5 + 4 * 1_999 + 2, "\(String(describing: sentences.last?.line))")
        let cards = CardGenerator.propose(sentences, statistics: TermStatistics(texts: [text]))
        #expect(cards.count <= 30)
        #expect(Summarizer.summarize(sentences, statistics: TermStatistics(texts: [text]), count: 3).count == 3)
    }

    /// A card's source passage read from bytes that no longer hold its lines (the file changed
    /// since it was indexed) is what the bytes hold, not a crash.
    @Test func aPassageFromAShorterFileIsNoCrash() throws {
        let text = "# T\n\nSome context here.\n\nWhat? :: That.\n"
        let note = try #require(parse(text, path: "T.md").note)
        let card = try #require(note.cards.first)
        #expect(CardContext.context(of: card, in: note, bytes: Array(text.utf8)).text == "Some context here.")
        #expect(CardContext.context(of: card, in: note, bytes: []).text.isEmpty)
        #expect(CardContext.context(of: card, in: note, bytes: Array("# T\n".utf8)).text.isEmpty)
    }
}
