@testable import QuireInterchange
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// New notes written all or none.
@Suite struct StagedFilesTests {
    @Test func notesAreWrittenAndTheStageRemoved() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            var counted: [Int] = []
            try StagedFiles.write([.note("A/one.md", Array("one\n".utf8)), .note("A/B/two.md", Array("two\n".utf8))], to: vault) { counted.append($0) }
            #expect(try dir.text("A/one.md") == "one\n")
            #expect(try dir.text("A/B/two.md") == "two\n")
            #expect(counted == [1, 2])
            #expect(!(try dir.entries(".quire")).contains("staging"))
        }
    }

    @Test func anExistingFileStopsEverythingBeforeWriting() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            try dir.write("A/two.md", "mine\n")
            #expect(throws: InterchangeError.cannotWrite(path: "A/two.md", reason: "a file is already there")) {
                try StagedFiles.write([.note("A/one.md", Array("one\n".utf8)), .note("A/two.md", Array("two\n".utf8))], to: vault)
            }
            #expect(try dir.text("A/two.md") == "mine\n")
            #expect(try dir.entries("A") == ["two.md"])
        }
    }

    /// A file that appears while the notes are staged (another program) is kept, and the notes
    /// already moved into place are taken out again.
    @Test func aFileAppearingMidwayLeavesTheVaultAsItWas() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            let notes = (1...3).map { StagedFiles.File.note("A/n\($0).md", Array("note \($0)\n".utf8)) }
            #expect(throws: InterchangeError.self) {
                try StagedFiles.write(notes, to: vault) { staged in
                    if staged == 3 { try? dir.write("A/n2.md", "an editor's\n") }
                }
            }
            #expect(try dir.entries("A") == ["n2.md"])
            #expect(try dir.text("A/n2.md") == "an editor's\n")
            #expect(!(try dir.entries(".quire")).contains("staging"))
        }
    }

    @Test func pathsOutsideTheVaultAreRefused() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            for path in ["../out.md", "/tmp/out.md", ".quire/x.md", "a/../../out.md"] {
                #expect(throws: InterchangeError.self) { try StagedFiles.write([.note(path, Array("x\n".utf8))], to: vault) }
            }
            #expect(try dir.entries("") .filter { !$0.hasPrefix(".") }.isEmpty)
        }
    }

    /// A folder of the vault that is a link to elsewhere: nothing is written through it.
    @Test func aLinkedFolderIsNotWrittenThrough() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path + "/vault")
            try dir.makeFolder("outside")
            try dir.link("vault/Biology", to: dir.full("outside"))
            #expect(throws: InterchangeError.self) {
                try StagedFiles.write([.note("Biology/Cells/new.md", Array("x\n".utf8))], to: vault)
            }
            #expect(try dir.entries("outside").isEmpty)
        }
    }

    /// Media and a log file go where their kind allows; the log is moved in first.
    @Test func mediaAndLogs() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            try StagedFiles.write([.note("A/n.md", Array("n\n".utf8)), .init("assets/cat.png", .file) { [1, 2, 3] },
                                   .init(".quire/log/anki-x.log", .quire) { Array("# quire log v1\n".utf8) }], to: vault)
            #expect(try dir.read("assets/cat.png") == [1, 2, 3])
            #expect(try dir.text(".quire/log/anki-x.log") == "# quire log v1\n")
            for bad in ["assets/../../x.png", ".hidden/x.png", "/tmp/x.png"] {
                #expect(throws: InterchangeError.self) { try StagedFiles.write([.init(bad, .file) { [0] }], to: vault) }
            }
        }
    }

    /// What a killed import left is removed by the next one.
    @Test func leftoversOfAKilledImportGo() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            try dir.write(".quire/staging/import-dead/0", "half a note")
            try StagedFiles.write([.note("n.md", Array("n\n".utf8))], to: vault)
            #expect(!(try dir.entries(".quire")).contains("staging"))
            #expect(try dir.text("n.md") == "n\n")
        }
    }
}
