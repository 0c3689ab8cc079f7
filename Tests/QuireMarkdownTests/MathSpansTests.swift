import Testing
import QuireSupport
@testable import QuireMarkdown

/// Math cut out of Markdown before rendering and put back after, byte for byte.
@Suite struct MathSpansTests {
    /// The spans written back as they were.
    private func original(_ span: MathSpans.Span) -> String { span.display ? "$$" + span.tex + "$$" : "$" + span.tex + "$" }

    @Test func inlineAndDisplaySpans() {
        let (text, spans) = MathSpans.protect(#"Area $\pi r^2$ and $$\frac{a}{b}$$ cost $5 and $6."#)
        #expect(spans == [.init(tex: #"\pi r^2"#, display: false), .init(tex: #"\frac{a}{b}"#, display: true)])
        #expect(!text.contains("$\\pi") && text.hasSuffix("cost $5 and $6."))
        #expect(MathSpans.restore(text, spans) { "[" + $0.tex + "]" } == #"Area [\pi r^2] and [\frac{a}{b}] cost $5 and $6."#)
    }

    @Test func codeAndEscapesAreLeftAlone() {
        #expect(MathSpans.protect("`$x$` and \\$y$ and ``a ` $z$ ``").spans.isEmpty)
        #expect(MathSpans.protect("```\n$x$\n```\n$y$").spans == [.init(tex: "y", display: false)])
        // An unclosed backtick run is text: the math after it still counts.
        #expect(MathSpans.protect("`` open $x$").spans == [.init(tex: "x", display: false)])
    }

    /// Protecting then restoring each span as it was gives the text back, whatever the text.
    @Test func roundTripsAnyText() {
        var rng = SplitMix64(seed: 11)
        let alphabet: [Character] = ["$", "$", "\\", "`", "`", "a", " ", "\n", "5", "~"]
        for _ in 0..<5_000 {
            let text = String((0..<Int.random(in: 0...30, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
            let (protected, spans) = MathSpans.protect(text)
            #expect(MathSpans.restore(protected, spans, original) == text, "\(text.debugDescription)")
        }
    }

    /// Linear in the text: many formulas (each placeholder appended used to copy all before it),
    /// and backtick runs of every length that nothing closes (each searched the paragraph's rest).
    @Test func hostileTextsInLinearTime() {
        let formulas = String(repeating: "$x$ ", count: 200_000)
        let (text, spans) = MathSpans.protect(formulas)
        #expect(spans.count == 200_000)
        #expect(MathSpans.restore(text, spans, original) == formulas)
        let runs = (1...2_000).map { String(repeating: "`", count: $0) + "a" }.joined() + " $y$"
        #expect(MathSpans.protect(runs).spans == [.init(tex: "y", display: false)])
    }
}
