import Testing
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// Paths the shell expands or a user types where a query goes.
@Suite struct NotePathWordsTests {
    @Test func pathsBecomePathTermsAndWordsStay() throws {
        try withTempDir { dir in
            try dir.write("ML/Formulas.md", "# F\n")
            try dir.write("ML/Images.md", "# I\n")
            try dir.write("cells/x.md", "# x\n")
            let vault = try Vault(root: dir.path)
            // From the working directory (the shell's ML/*.md), and from the vault's top.
            #expect(NotePathWords.mapped(["ML/Formulas.md", "ML/Images.md"], vault: vault, workingDirectory: dir.path)
                    == ["(path:\"ML/Formulas.md\" or path:\"ML/Images.md\")"])
            #expect(NotePathWords.mapped(["Formulas.md", "is:due"], vault: vault, workingDirectory: dir.path + "/ML")
                    == ["path:\"ML/Formulas.md\"", "is:due"])
            #expect(NotePathWords.mapped(["ML/", "tag:x"], vault: vault, workingDirectory: "/") == ["path:\"ML\"", "tag:x"])
            // Words, query terms, missing files and files outside the vault stay as they are.
            for words in [["cells"], ["deck:ML/Week1"], ["ML/Missing.md"], ["../outside.md"], ["path:ML/*.md"]] {
                #expect(NotePathWords.mapped(words, vault: vault, workingDirectory: dir.path) == words, "\(words)")
            }
        }
    }
}
