import Testing
import QuireModel
import QuireParsing
import QuireSystem
@testable import QuireServer
@testable import QuireTestSupport
import QuireVault

/// A card's sides as the page gets them: safe HTML, math kept for KaTeX, the vault's media linked.
@Suite struct CardHTMLTests {
    static func faces(_ dir: TempDir, _ note: String) throws -> [(front: String, back: String)] {
        try dir.write("deck/note.md", note)
        let vault = try Vault(root: dir.path)
        let parsed = try #require(NoteParser.parse(Array(note.utf8), path: "deck/note.md").note)
        let html = CardHTML(vault: vault, linkKey: "k1")
        return parsed.cards.map { html.faces(of: $0, in: parsed) }
    }

    @Test func noteScriptIsNeverMarkup() throws {
        try withTempDir { dir in
            let f = try Self.faces(dir, "What does <script>alert(1)</script> do? :: <img src=x onerror=alert(2)> [x](javascript:alert(3))\n")
            let all = f[0].front + f[0].back
            #expect(!all.contains("<script") && !all.contains("onerror") && !all.contains("javascript:"))
            #expect(all.contains("alert(1)"))
        }
    }

    @Test func mathIsKeptForKaTeX() throws {
        try withTempDir { dir in
            let f = try Self.faces(dir, "What is $\\frac{a}{b} < c$? :: $$\\sum_{i} x_i \\\\ y$$\n")
            #expect(f[0].front.contains(#"<span class="math" data-display="0">\frac{a}{b} &lt; c</span>"#))
            #expect(f[0].back.contains(#"<span class="math" data-display="1">\sum_{i} x_i \\ y</span>"#))
        }
    }

    @Test func mediaOfTheVaultIsLinkedAndNothingElse() throws {
        try withTempDir { dir in
            try dir.write("deck/img/cell one.png", "png")
            try dir.write("deck/hello.mp3", "mp3")
            try dir.write("secret.png", "png")
            let f = try Self.faces(dir, """
                What is this? ![cell](img/cell%20one.png) :: [hear it](hello.mp3) ![remote](https://tracker.example/p.png) ![up](../../secret.png)

                """)
            #expect(f[0].front.contains(#"<img src="/file/deck/img/cell%20one.png?k=k1""#))
            #expect(f[0].back.contains(#"<audio controls preload="none" src="/file/deck/hello.mp3?k=k1"></audio>"#))
            #expect(!f[0].back.contains(" src=\"https:"), "a remote image keeps no source the page would load")
            #expect(f[0].back.contains(#"<img class="missing" data-src="https://tracker.example/p.png""#))
            #expect(!f[0].back.contains("/file/secret.png") && !f[0].back.contains(" src=\"../../secret.png"))
        }
    }

    @Test func clozeBackMarksWhatTheFrontHid() throws {
        try withTempDir { dir in
            let f = try Self.faces(dir, "Caesar was born in {{c1::100 BC}} in **Rome**.\n")
            #expect(f[0].front.contains("[...]"))
            #expect(f[0].back.contains(#"<mark class="cloze">100 BC</mark>"#))
        }
    }

    /// Obsidian's embeds and links on the page: an image by bare name or a note-relative path, a
    /// note's section in place, a missing file marked, a wikilink its label.
    @Test func obsidianEmbedsAndLinks() throws {
        try withTempDir { dir in
            try dir.write("assets/slide-04.png", "png")
            try dir.write("Ref/Glossary.md", "---\ntags: [x]\n---\n# Glossary\n\n## Bias\n\nError from **wrong assumptions**.\n\n## Variance\n\nSpread.\n")
            let f = try Self.faces(dir, """
                What does slide 4 show? :: ![[slide-04.png|300]] and ![rel](../assets/slide-04.png)
                What is bias? :: ![[Glossary#Bias]] (see [[#property]] and [[Glossary#Variance|variance]])
                What is missing? :: ![[nowhere.png]] and `![[code.png]]`

                """)
            #expect(f[0].back.contains(#"<img src="/file/assets/slide-04.png?k=k1" alt="slide-04.png" width="300" />"#), "\(f[0].back)")
            #expect(f[0].back.contains(#"<img src="/file/assets/slide-04.png?k=k1" alt="rel" />"#), "\(f[0].back)")
            #expect(f[1].back.contains(#"<blockquote class="embed"><p>Error from <strong>wrong assumptions</strong>.</p>"#), "\(f[1].back)")
            #expect(!f[1].back.contains("Spread") && !f[1].back.contains("tags"), "\(f[1].back)")
            #expect(f[1].back.contains(#"<span class="wikilink">#property</span>"#) && f[1].back.contains(#"<span class="wikilink">variance</span>"#),
                    "\(f[1].back)")
            #expect(f[2].back.contains(#"<span class="embed missing">nowhere.png</span>"#) && f[2].back.contains("<code>![[code.png]]</code>"), "\(f[2].back)")
        }
    }
}
