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
        let html = CardHTML(vault: vault)
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
            #expect(f[0].front.contains(#"<img src="/file/deck/img/cell%20one.png""#))
            #expect(f[0].back.contains(#"<audio controls preload="none" src="/file/deck/hello.mp3"></audio>"#))
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
}
