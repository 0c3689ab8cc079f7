import Testing
@testable import QuireYAML

@Suite struct FrontMatterTests {
    private func split(_ text: String) throws -> FrontMatter { try FrontMatter(file: Array(text.utf8)) }

    @Test func basicSplit() throws {
        let fm = try split("---\ntitle: Hi\n---\n# Heading\n")
        #expect(fm.yamlRange == 4..<14)
        #expect(fm.openingFenceRange == 0..<4)
        #expect(fm.closingFenceRange == 14..<18)
        #expect(fm.bodyRange == 18..<28)
        #expect(fm.bodyStartLine == 4)
        #expect(!fm.hasBOM)
        #expect(fm.lineEnding == .lf)
        #expect(fm.root?["title"]?.scalar?.value == "Hi")
        #expect(fm["title"]?.scalar?.start == YAMLMark(offset: 11, line: 2, column: 8))
    }

    @Test func bomAndCRLF() throws {
        let fm = try split("\u{FEFF}---\r\ntitle: Hi\r\n...\r\nBody\r\n")
        #expect(fm.hasBOM)
        #expect(fm.lineEnding == .crlf)
        #expect(fm.yamlRange == 8..<19)
        #expect(fm.bodyRange == 24..<30)
        #expect(fm.bodyStartLine == 4)
        #expect(fm.root?.entries.first?.key.start == YAMLMark(offset: 8, line: 2, column: 1))
        #expect(fm["title"]?.scalar?.value == "Hi")
    }

    @Test func fenceTrailingSpacesAndDotsClose() throws {
        let fm = try split("---  \t\na: 1\n...   \nbody")
        #expect(fm["a"]?.scalar?.int == 1)
        #expect(fm.bodyStartLine == 4)
    }

    @Test func emptyFrontMatter() throws {
        let fm = try split("---\n---\nbody\n")
        #expect(fm.yamlRange == 4..<4)
        #expect(fm.root == nil)
        #expect(fm.bodyRange == 8..<13)
        #expect(fm.bodyStartLine == 3)
        let commentsOnly = try split("---\n# nothing yet\n---\n")
        #expect(commentsOnly.root == nil)
        #expect(commentsOnly.bodyRange == 22..<22)
    }

    @Test func noFrontMatter() throws {
        for text in ["# Title\n\n---\n\nmore\n", "", "----\na: 1\n----\n", " ---\na: 1\n---\n", "--- x\na: 1\n---\n"] {
            let fm = try split(text)
            #expect(fm.yamlRange == nil, "\(text)")
            #expect(fm.root == nil)
            #expect(fm.bodyRange == 0..<text.utf8.count)
            #expect(fm.bodyStartLine == 1)
        }
        let bom = try split("\u{FEFF}Body\r\nline\n")
        #expect(bom.hasBOM)
        #expect(bom.bodyRange == 3..<14)
        #expect(bom.lineEnding == .crlf)
    }

    @Test func thematicBreakInBodyIsNotFrontMatter() throws {
        let fm = try split("---\na: 1\n---\ntext\n---\nb: 2\n---\n")
        #expect(fm.root?.keys == ["a"])
        #expect(fm.bodyStartLine == 4)
    }

    @Test func closingFenceAtEndOfFileWithoutNewline() throws {
        let fm = try split("---\na: 1\n---")
        #expect(fm.bodyRange == 12..<12)
        #expect(fm["a"] != nil)
    }
}
