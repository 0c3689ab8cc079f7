@testable import QuireInterchange
import Testing

/// A side's Markdown carried through Anki in a comment after its HTML.
@Suite struct MarkdownStashTests {
    @Test(arguments: ["", "a", "ab", "abc", "Soft\nbreak, a_b, $5 and [x]", "ünï ∑ 😀 <!-- --> -->"])
    func comesBackWhenTheHTMLIsUnchanged(_ markdown: String) {
        let field = MarkdownStash.stash(markdown, in: "<b>html</b>")
        #expect(!field.dropFirst("<b>html</b>".count).dropLast(3).contains("-->"))
        let taken = MarkdownStash.take(field)
        #expect(taken.html == "<b>html</b>" && taken.markdown == markdown)
    }

    @Test func anEditInAnkiOrMediaMeansConverting() {
        let field = MarkdownStash.stash("**x**", in: "<b>x</b>")
        let edited = field.replacingOccurrences(of: "<b>x</b>", with: "<b>y</b>")
        #expect(MarkdownStash.take(edited) == ("<b>y</b>", nil))
        #expect(MarkdownStash.take(MarkdownStash.stash("![](a.png)", in: "<img src=\"a.png\">")).markdown == nil)
        #expect(MarkdownStash.take("<!--quire:!!!:00-->").markdown == nil)
        #expect(MarkdownStash.take("plain").html == "plain")
    }
}
