import Testing
@testable import QuireGeneration

/// TextRank picks the sentences most like the rest, in the note's order.
@Suite struct SummarizerTests {
    static func sentence(_ text: String, _ line: Int) -> SourceSentence {
        SourceSentence(text: text, line: line, headingPath: [], emphasis: [], block: line, position: 0, isListItem: false)
    }

    @Test func centralSentencesInOrder() {
        let sentences = [
            Self.sentence("Enzymes are proteins that speed up chemical reactions in cells.", 1),
            Self.sentence("The weather in the valley was pleasant that spring afternoon.", 2),
            Self.sentence("Each enzyme binds its substrate at the active site and speeds the reaction.", 3),
            Self.sentence("These examples show why it matters so much for everyone involved.", 4),
            Self.sentence("Enzyme activity depends on temperature, and heat can change an enzyme's active site.", 5),
            Self.sentence("A bird sang from the old oak tree near the river bank.", 6),
        ]
        let statistics = TermStatistics(texts: ["weather valley spring", "bird oak river", "proteins cells"])
        let summary = Summarizer.summarize(sentences, statistics: statistics, count: 2)
        #expect(summary.map(\.line) == [3, 5], "\(summary.map(\.text))")
        #expect(Summarizer.summarize(Array(sentences.prefix(1)), statistics: statistics, count: 3).count == 1)
        #expect(Summarizer.summarize([], statistics: statistics).isEmpty)
    }

    /// An aside (`Remark: …`) is never the summary, however like the rest it is.
    @Test func asidesAreLeftOut() {
        let sentences = [
            Self.sentence("Remark: the enzyme's active site binds the enzyme's substrate in every enzyme reaction.", 1),
            Self.sentence("Enzymes are proteins that speed up chemical reactions in cells.", 2),
            Self.sentence("Each enzyme binds its substrate at the active site and speeds the reaction.", 3),
            Self.sentence("A bird sang from the old oak tree near the river bank.", 4),
        ]
        let summary = Summarizer.summarize(sentences, statistics: TermStatistics(texts: ["bird oak river"]), count: 1)
        #expect(summary.count == 1 && summary.first?.line != 1, "\(summary.map(\.text))")
        #expect(Summarizer.isAside("**Note**: x") && Summarizer.isAside("Example — y") && !Summarizer.isAside("Notation: z") && !Summarizer.isAside("Remarkably, x"))
    }
}
