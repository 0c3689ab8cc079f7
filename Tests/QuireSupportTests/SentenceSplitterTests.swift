import Testing
@testable import QuireSupport

/// Prose cut into sentences by the one rule every reader uses: abbreviations, initials, numbers
/// and quotes do not end one; a word in lower case goes on the sentence before it.
@Suite struct SentenceSplitterTests {
    @Test func sentencesEndWhereTheyShould() {
        let text = "Enzymes speed reactions, e.g. digestion. Dr. Smith measured 3.5 ml at 4 p.m. Then it stopped! "
            + "J. R. Mayer said so. The U.S. Congress met. Why? \"Because.\" The end"
        #expect(SentenceSplitter.split(text).map(\.sentence) == [
            "Enzymes speed reactions, e.g. digestion.", "Dr. Smith measured 3.5 ml at 4 p.m. Then it stopped!",
            "J. R. Mayer said so.", "The U.S. Congress met.", "Why?", "\"Because.\"", "The end",
        ])
        #expect(SentenceSplitter.sentences("Enzymes, e.g. amylase, cut starch. See Fig. 3 for J. Smith's data. It is approx. twice as fast. Done.")
                == ["Enzymes, e.g. amylase, cut starch.", "See Fig. 3 for J. Smith's data.", "It is approx. twice as fast.", "Done."])
    }

    @Test func offsetsPointAtEachSentence() {
        let text = "First one.\nSecond one spans\ntwo lines. Þird."
        let parts = SentenceSplitter.split(text)
        #expect(parts.map(\.offset) == [0, 11, 39])
        #expect(parts[1].sentence == "Second one spans two lines." && parts[2].sentence == "Þird.")
        // Inner white space is kept by sentences(_:), only the ends trimmed.
        #expect(SentenceSplitter.sentences("  One  two.\tThree ") == ["One  two.", "Three"])
    }

    @Test func wideStopsEllipsesAndLowerCase() {
        #expect(SentenceSplitter.sentences("日本。中国！A b. C d? e") == ["日本。", "中国！", "A b.", "C d? e"])
        #expect(SentenceSplitter.sentences("It waited… Then it ran. \u{201C}Why?\u{201D} She asked.") == ["It waited…", "Then it ran.", "\u{201C}Why?\u{201D}", "She asked."])
        // A word with dots that is no abbreviation ends a sentence; numbering words end one
        // unless a number follows.
        #expect(SentenceSplitter.sentences("Wait.. Then go. See No. 5 and p. 12. The answer is no. Good.")
                == ["Wait..", "Then go.", "See No. 5 and p. 12.", "The answer is no.", "Good."])
        #expect(SentenceSplitter.sentences("A full stop (e.g. this) stays. X = 3.5. Next, x is 4. y") == ["A full stop (e.g. this) stays.", "X = 3.5.", "Next, x is 4. y"])
    }

    @Test func aTranscriptsWords() {
        #expect(SentenceSplitter.ends(with: "done.", before: "Then"))
        #expect(SentenceSplitter.ends(with: "done.\"", before: nil))
        #expect(!SentenceSplitter.ends(with: "Dr.", before: "Smith"))
        #expect(!SentenceSplitter.ends(with: "etc.", before: "and"))
        #expect(!SentenceSplitter.ends(with: "word", before: "Then"))
        #expect(SentenceSplitter.ends(with: "終わり。", before: "次"))
        #expect(SentenceSplitter.ends(with: "what?", before: "It"))
    }

    /// Long runs of stops and words: linear (a word is read back a bounded length).
    @Test func longInputStaysLinear() {
        let text = String(repeating: "a", count: 200_000) + ". " + String(repeating: ". ", count: 100_000) + "End"
        #expect(SentenceSplitter.sentences(text).last == "End")
    }
}
