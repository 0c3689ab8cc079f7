import Testing
import QuireStudy

/// Typed answers against the expected ones, character by character.
@Suite struct AnswerComparisonTests {
    @Test func rightWrongAndMissing() {
        #expect(AnswerComparison(typed: "mitochondrion", expected: "mitochondrion").isCorrect)
        #expect(AnswerComparison(typed: "  the   cell ", expected: "the cell").isCorrect)
        let c = AnswerComparison(typed: "mitocondriom", expected: "mitochondrion")
        #expect(!c.isCorrect)
        #expect(c.segments == [.same("mito"), .missing("h"), .same("condri"), .wrong("m"), .missing("on")]
            || c.segments == [.same("mito"), .missing("h"), .same("condri"), .missing("o"), .wrong("m"), .missing("n")]
            || c.segments.count >= 4, "\(c.segments)")
        // Every typed character is right or wrong, every expected one right or missing.
        let typed = c.segments.map { if case .same(let t) = $0 { t } else if case .wrong(let t) = $0 { t } else { "" } }.joined()
        let expected = c.segments.map { if case .same(let t) = $0 { t } else if case .missing(let t) = $0 { t } else { "" } }.joined()
        #expect(typed == "mitocondriom" && expected == "mitochondrion")
        #expect(AnswerComparison(typed: "", expected: "x").segments == [.missing("x")])
        let long = String(repeating: "a", count: 600)
        #expect(AnswerComparison(typed: long + "b", expected: long).segments == [.wrong(long + "b"), .missing(long)])
    }
}
