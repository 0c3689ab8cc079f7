import Testing
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// Where an import's files go: names that take nothing already there, folders from --to or a deck.
@Suite struct ImportedFilesTests {
    @Test func namesTakeNothingAlreadyThere() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            try dir.write("assets/slide.png", "x")
            let vault = try Vault(root: dir.path)
            #expect(ImportedFiles.assetPath(for: "slide.png", in: vault) == "assets/slide 2.png")
            #expect(ImportedFiles.assetPath(for: "slide.png", in: vault, avoiding: ["assets/slide 2.png"]) == "assets/slide 3.png")
            #expect(ImportedFiles.safeName("../../etc/pass wd;rm.png") == "_.._etc_pass wd_rm.png")
            #expect(ImportedFiles.safeName("...") == "image.png")
            let spanish = ImportedFiles.Destination(to: nil, deck: "Languages::Spanish")
            #expect(spanish.folder == "Languages/Spanish" && spanish.deck == nil)
            // Both: the folder is --to's, the deck named in the note (neither ignored).
            let both = ImportedFiles.Destination(to: "Lectures/", deck: "ML::Week1")
            #expect(both.folder == "Lectures" && both.deck == "ML/Week1")
            let neither = ImportedFiles.Destination(to: nil, deck: nil)
            #expect(neither.folder == "" && neither.deck == nil)
            try ImportedFiles.requireQuireSyntax(vault)
            try dir.write(".quire/config.yaml", "card_syntax: obsidian-sr\n")
            #expect(throws: AppError.self) { try ImportedFiles.requireQuireSyntax(try Vault(root: dir.path)) }
        }
    }

    @Test func aScratchFolderIsMadeAndRemoved() throws {
        let scratch = try ScratchFolder("quire-test")
        #expect(FileIO().stamp(scratch.path)?.isDirectory == true)
        scratch.remove()
        #expect(FileIO().stamp(scratch.path) == nil)
    }
}
