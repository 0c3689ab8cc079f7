@testable import QuireSupport
import Testing

@Suite struct GlobTests {
    private func m(_ pattern: String, _ path: String) -> Bool { Glob(pattern).matches(path) }

    @Test func starStaysInOneFolder() {
        #expect(m("Biology/*.md", "Biology/a.md"))
        #expect(!m("Biology/*.md", "Biology/Cells/a.md"))
        #expect(m("Biology/*/a.md", "Biology/Cells/a.md"))
        #expect(!m("Biology/*/a.md", "Biology/Cells/Deep/a.md"))
    }

    @Test func doubleStarCrossesFolders() {
        #expect(m("Biology/**/mito*", "Biology/mitosis.md"))
        #expect(m("Biology/**/mito*", "Biology/Cells/Deep/mitochondria.md"))
        #expect(!m("Biology/**/mito*", "Chemistry/mito.md"))
        #expect(m("**/a.md", "a.md"))
        #expect(m("**/a.md", "x/y/a.md"))
        #expect(m("Biology/**", "Biology/x/y.md"))
    }

    @Test func questionMarkIsOneCharacterNotASlash() {
        #expect(m("x/a?c.md", "x/abc.md"))
        #expect(!m("x/a?c.md", "x/ac.md"))
        #expect(!m("x/a?c.md", "x/a/c.md"))
    }

    @Test func characterClasses() {
        #expect(m("[a-c]*.md", "b.md"))
        #expect(!m("[a-c]*.md", "d.md"))
        #expect(m("[!a-c]*.md", "d.md"))
        #expect(!m("[!a-c]*.md", "a.md"))
        #expect(m("[^a]x.md", "bx.md"))
        #expect(m("file[12].md", "file2.md"))
        #expect(!m("file[12].md", "file3.md"))
    }

    @Test func patternWithoutSlashMatchesAnyName() {
        #expect(m("*.md", "a.md"))
        #expect(m("*.md", "Biology/Cells/mitosis.md"))
        #expect(!m("*.md", "a.mdx"))
        #expect(m("mitosis*", "Biology/Cells/mitosis.md"))
        #expect(m("Cells", "Biology/Cells/mitosis.md"))
        #expect(m("Bio*", "Biology/x.md"))
        #expect(!m("Cell", "Biology/Cells/mitosis.md"))
    }

    @Test func folderPatternMatchesItsContents() {
        #expect(m("Biology/Cells", "Biology/Cells/mitosis.md"))
        #expect(m("Biology/Cells", "Biology/Cells/Deep/x.md"))
        #expect(!m("Biology/Cells", "Biology/CellsX/a.md"))
        #expect(!m("Biology/Cells", "Biology/cells.md"))
        #expect(m("Biology/Cells/", "Biology/Cells/mitosis.md"))
    }

    @Test func leadingSlashAnchorsAtTheRoot() {
        #expect(m("/a.md", "a.md"))
        #expect(!m("/a.md", "x/a.md"))
    }

    @Test func caseIsIgnored() {
        #expect(m("BIO*/*.MD", "biology/x.md"))
        #expect(m("biology/cells", "Biology/Cells/a.md"))
        #expect(Glob("X/*").description == "X/*")
    }
}
