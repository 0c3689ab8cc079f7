import Testing
import QuireMarkdown
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// What a note embed shows: the note's body or one section, found as Obsidian finds the note.
@Suite struct NoteEmbedTests {
    @Test func sectionsAndWholeNotes() throws {
        try withTempDir { dir in
            try dir.write("Ref/Glossary.md", "---\ntags: [x]\n---\n# Glossary\n\n## Bias\n\nError from assumptions.\n\n### Kinds\n\nSome.\n\n```\n## Not a heading\n```\n\n## Variance\n\nSpread.\n")
            let vault = try Vault(root: dir.path)
            let bias = NoteEmbed.markdown(of: MarkdownWikilink(note: "Glossary", heading: "bias", label: ""), fromNote: "Course/a.md", in: vault)
            #expect(bias == "\nError from assumptions.\n\n### Kinds\n\nSome.\n\n```\n## Not a heading\n```\n", "\(bias ?? "nil")")
            let whole = NoteEmbed.markdown(of: MarkdownWikilink(note: "Glossary", label: ""), fromNote: "a.md", in: vault)
            #expect(whole?.hasPrefix("# Glossary\n") == true && whole?.contains("Spread.") == true && whole?.contains("tags") == false)
            #expect(NoteEmbed.markdown(of: MarkdownWikilink(note: "Glossary", heading: "Nothing", label: ""), fromNote: "a.md", in: vault) == nil)
            #expect(NoteEmbed.markdown(of: MarkdownWikilink(note: "Nowhere", label: ""), fromNote: "a.md", in: vault) == nil)
            // A setext heading is a heading too (cmark's reading).
            #expect(NoteEmbed.section("Terms", of: "Terms\n-----\n\nWords.\n\n# Next\n") == "\nWords.\n")
            // A screen's Markdown: the embed alone on its line becomes a quote; in code it stays.
            let expanded = NoteEmbed.expanded("Back:\n![[Glossary#Variance]]\n```\n![[Glossary#Variance]]\n```", fromNote: "a.md", in: vault)
            #expect(expanded == "Back:\n>\n> Spread.\n>\n```\n![[Glossary#Variance]]\n```", "\(expanded)")
        }
    }
}
