import Testing
@testable import QuireGeneration

/// Prose cut into sentences: abbreviations, initials, numbers and quotes do not end one.
@Suite struct SentenceSplitterTests {
    @Test func sentencesEndWhereTheyShould() {
        let text = "Enzymes speed reactions, e.g. digestion. Dr. Smith measured 3.5 ml at 4 p.m. Then it stopped! "
            + "J. R. Mayer said so. The U.S. Congress met. Why? \"Because.\" The end"
        #expect(SentenceSplitter.split(text).map(\.sentence) == [
            "Enzymes speed reactions, e.g. digestion.", "Dr. Smith measured 3.5 ml at 4 p.m. Then it stopped!",
            "J. R. Mayer said so.", "The U.S. Congress met.", "Why?", "\"Because.\"", "The end",
        ])
    }

    @Test func offsetsPointAtEachSentence() {
        let text = "First one.\nSecond one spans\ntwo lines. Third."
        let parts = SentenceSplitter.split(text)
        #expect(parts.map(\.offset) == [0, 11, 39])
        #expect(parts[1].sentence == "Second one spans two lines.")
    }
}
