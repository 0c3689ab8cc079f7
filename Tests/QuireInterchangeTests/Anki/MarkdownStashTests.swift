@testable import QuireInterchange
import Testing

/// A side's Markdown carried through Anki in a comment after its HTML.
@Suite struct MarkdownStashTests {
    @Test(arguments: ["", "a", "ab", "abc", "Soft\nbreak, a_b, $5 and [x]", "ünï ∑ 😀 <!-- --> -->"])
    func comesBackWhenTheHTMLIsUnchanged(_ markdown: String) {
        let field = MarkdownStash.stash(markdown, in: "<b>html</b>")
        #expect(!field.dropFirst("<b>html</b>".count).dropLast(3).contains("-->"))
        let taken = MarkdownStash.take(field)
        #expect(taken.html == "<b>html</b>" && taken.stash?.markdown == markdown)
    }

    @Test func anEditInAnkiOrUnnamedMediaMeansConverting() {
        let field = MarkdownStash.stash("**x**", in: "<b>x</b>")
        let edited = field.replacingOccurrences(of: "<b>x</b>", with: "<b>y</b>")
        #expect(MarkdownStash.take(edited) == ("<b>y</b>", nil))
        // An older export (no media part) embedding media: its names are all there is.
        let older = MarkdownStash.stash("![](a.png)", in: "<img src=\"a.png\">")
        #expect(MarkdownStash.take(String(older[..<older.range(of: ":", options: .backwards)!.lowerBound]) + "-->").stash == nil)
        // An image no file was packaged for keeps its target.
        #expect(MarkdownStash.take(older).stash?.markdown == "![](a.png)")
        #expect(MarkdownStash.take("<!--quire:!!!:00-->").stash == nil)
        #expect(MarkdownStash.take("plain").html == "plain")
    }

    /// Media named in the stash: the Markdown comes back, its links pointing where the import
    /// puts each file.
    @Test func mediaLinksFollowTheFiles() throws {
        let markdown = "See ![a cell](../img/cell.png) and [the sound](<sounds/hola 1.mp3>)\n\n![](../img/cell.png \"t\")"
        let media = [MarkdownStash.Media(target: "../img/cell.png", name: "cell.png"),
                     MarkdownStash.Media(target: "sounds/hola 1.mp3", name: "hola 1.mp3")]
        let field = MarkdownStash.stash(markdown, in: "<img src=\"cell.png\">[sound:hola 1.mp3]", media: media)
        let stash = try #require(MarkdownStash.take(field).stash)
        #expect(stash.media == media)
        let paths = ["cell.png": "assets/cell.png", "hola 1.mp3": "assets/hola 1.mp3"]
        #expect(MarkdownStash.relinked(stash) { paths[$0] }
                == "See ![a cell](assets/cell.png) and [the sound](<assets/hola 1.mp3>)\n\n![](assets/cell.png \"t\")")
    }
}
