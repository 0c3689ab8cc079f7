import Testing
@testable import QuireIngest

/// The engines' outputs read into words with times: pocketsphinx's fillers and variants left out,
/// whisper's lines, malformed and hostile lines skipped.
@Suite struct TranscriptTests {
    @Test func pocketsphinxOutput() {
        let output = """
            the heart pumps blood
            <s> 0.000 0.570 0.998501
            the 0.580 0.700 0.016680
            heart(2) 0.710 1.020 0.994813
            <sil> 1.030 1.200 0.99
            [NOISE] 1.210 1.270 0.5
            ++UM++ 1.280 1.300 0.5
            pumps 1.310 1.870 0.024936
            blood 1.880 1.990 1.000100
            </s> 2.000 2.100 1.0
            broken 3.0 2.0 0.5
            four words only here
            nan nan 1.0 0.5
            """
        let t = Transcript(pocketsphinx: Array(output.utf8), offset: 120, duration: 5)
        #expect(t.words.map(\.text) == ["the", "heart", "pumps", "blood"])
        #expect(t.words[1].start == 120.71 && t.words[1].end == 121.02)
        #expect(t.words[3].probability == 1)
    }

    @Test func whisperOutput() {
        let output = "0.000\t0.320\t0.519\tThe\n0.320\t1.000\t0.870\tmitochondria,\nbad line\n1.0\t0.5\t0.9\tbackwards\n"
            + "1.000\t1.260\t0.989\tis\u{1B}[31m red\n2.0\t2.5\t0.9\t \n"
        let t = Transcript(whisper: Array(output.utf8), duration: 3)
        #expect(t.words.map(\.text) == ["The", "mitochondria,", "is[31m red"])
        #expect(t.words[0].probability == 0.519 && t.words[2].start == 1.0)
    }

    @Test func sentenceEnds() {
        let next = Transcript.Word("Then", start: 1, end: 2)
        for (text, ends) in [("cell.", true), ("why?", true), ("\"stop!\"", true), ("(end.)", true), ("so", false), ("e.g", false), ("", false),
                             ("Dr.", false), ("e.g.", false)] {
            #expect(Transcript.Word(text, start: 0, end: 1).endsSentence(before: next) == ends, "\(text)")
        }
        #expect(!Transcript.Word("cell.", start: 0, end: 1).endsSentence(before: Transcript.Word("and", start: 1, end: 2)))
    }
}
