import Testing
@testable import QuireSupport

@Suite struct LiteralSearchTests {
    @Test func findsTheFirstOccurrenceByBytes() throws {
        let text = "a {{c1::x}} b {{c2::y}}"
        let r = try #require(text.range(ofLiteral: "{{c"))
        #expect(text[r] == "{{c" && text.distance(from: text.startIndex, to: r.lowerBound) == 2)
        let rest = text[r.upperBound...]
        #expect(rest.range(ofLiteral: "{{c").map { String(rest[$0.upperBound...]) } == "2::y}}")
        #expect(text.range(ofLiteral: "}}}") == nil && text.range(ofLiteral: "") == nil && "".range(ofLiteral: "a") == nil)
        #expect("ab".range(ofLiteral: "abc") == nil && "xab".range(ofLiteral: "ab").map { String("xab"[$0]) } == "ab")
    }

    @Test func multibyteTextAndNeedles() throws {
        let text = "日本語 → 中文 → 한국어"
        let r = try #require(text.range(ofLiteral: "→ 한"))
        #expect(String(text[r.upperBound...]) == "국어")
        // Byte for byte: a decomposed é is not the composed one.
        #expect("cafe\u{301}".range(ofLiteral: "caf\u{E9}") == nil)
    }

    /// Every occurrence in what is left of a long text, found in time linear in the text
    /// (Foundation's range(of:) copied the rest at each call).
    @Test func loopOverALongTextIsLinear() {
        let text = String(repeating: "<a href=\"x\">y</a> ", count: 200_000)
        var rest = text[...], count = 0
        while let r = rest.range(ofLiteral: "</a>") {
            count += 1
            rest = rest[r.upperBound...]
        }
        #expect(count == 200_000)
    }
}
