import Foundation
import Testing
@testable import QuireSystem
@testable import QuireTestSupport
@testable import QuireVault

/// What a staged write killed before its end leaves, and what the next taker of the vault's lock
/// makes of it: finished with a whole journal, taken out without one or with `abort`, and never a
/// step outside the vault or onto a user's file for a journal that lies.
@Suite(.serialized) struct StagingJournalTests {
    /// A stage as a killed write leaves it: files staged as `0`, `1`, … (nil: already moved to its
    /// target, whose bytes are then at the target), and the journal's bytes when given.
    static func stage(_ dir: TempDir, _ files: [(path: String, kind: StagingJournal.Entry.Kind, moved: Bool)],
                      journal: String? = StagingJournal.journalName, name: String = "import-1") throws -> [StagingJournal.Entry] {
        let stage = ".quire/staging/" + name
        try dir.makeFolder(stage)
        var entries: [StagingJournal.Entry] = []
        for (k, file) in files.enumerated() {
            try dir.write(stage + "/\(k)", "bytes of \(file.path)\n")
            let inode = FileIO().linkStamp(dir.full(stage + "/\(k)"))?.inode ?? 0
            entries.append(StagingJournal.Entry(staged: "\(k)", kind: file.kind, inode: inode, path: file.path))
            if file.moved {
                try dir.makeFolder(String(file.path.split(separator: "/").dropLast().joined(separator: "/")))
                try FileManager.default.moveItem(atPath: dir.full(stage + "/\(k)"), toPath: dir.full(file.path))
            }
        }
        if let journal, let bytes = StagingJournal.encode(entries) { try dir.write(stage + "/" + journal, bytes: bytes) }
        return entries
    }

    static func vault(_ dir: TempDir) throws -> Vault {
        try dir.write(".quire/config.yaml", "")
        return try Vault(root: dir.path)
    }

    @Test func encodesAndDecodesAndRefusesAJournalCutShort() {
        let entries = [StagingJournal.Entry(staged: "0", kind: .quire, inode: 12, path: ".quire/log/x.log"),
                       StagingJournal.Entry(staged: "1", kind: .note, inode: 13, path: "Deck/A note.md")]
        let bytes = StagingJournal.encode(entries) ?? []
        #expect(StagingJournal.decode(bytes) == entries)
        for cut in [0, 5, bytes.count - 1, bytes.count - 4] { #expect(StagingJournal.decode(Array(bytes.prefix(cut))) == nil) }
        #expect(StagingJournal.encode([StagingJournal.Entry(staged: "0", kind: .note, inode: 1, path: "a\nb.md")]) == nil)
        #expect(StagingJournal.decode(Array("quire-staging 1\n0\tnote\tx\ta.md\nend\n".utf8)) == nil)
        #expect(StagingJournal.decode(Array("quire-staging 1\n../0\tnote\t1\ta.md\nend\n".utf8)) == nil)
    }

    @Test func aWholeJournalIsFinishedByTheNextWriter() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.stage(dir, [(".quire/log/import.log", .quire, true), ("Deck/one.md", .note, true),
                                     ("Deck/two.md", .note, false), ("New/Deeper/three.md", .note, false), ("assets/x.png", .file, false)])
            let token = try vault.lockForWriting()
            token.release()
            #expect(try dir.text("Deck/two.md") == "bytes of Deck/two.md\n")
            #expect(try dir.text("New/Deeper/three.md") == "bytes of New/Deeper/three.md\n")
            #expect(try dir.text("assets/x.png") == "bytes of assets/x.png\n")
            #expect(!FileManager.default.fileExists(atPath: dir.full(".quire/staging")))
        }
    }

    @Test func aReadingCommandFinishesItToo() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.stage(dir, [("Deck/one.md", .note, true), ("Deck/two.md", .note, false)])
            #expect(StagingJournal.hasJournal(in: vault))
            vault.finishInterruptedWrites()
            #expect(try dir.text("Deck/two.md") == "bytes of Deck/two.md\n")
            #expect(!StagingJournal.hasJournal(in: vault))
        }
    }

    /// A reader never waits: while another process holds the lock (an import at work), it leaves
    /// the stage to that process.
    @Test func aReaderDoesNotWaitForAWriterAtWork() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.stage(dir, [("Deck/one.md", .note, true), ("Deck/two.md", .note, false)])
            try dir.write(".quire/lock", "")
            // Another process holds the lock until its standard input closes.
            let holder = Process(), input = Pipe(), output = Pipe()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            holder.arguments = ["python3", "-c", "import fcntl, sys; f = open(sys.argv[1]); fcntl.flock(f, fcntl.LOCK_EX); "
                                + "print('held', flush=True); sys.stdin.read()", dir.full(".quire/lock")]
            holder.standardInput = input
            holder.standardOutput = output
            try holder.run()
            _ = output.fileHandleForReading.availableData
            vault.finishInterruptedWrites()
            #expect(!FileManager.default.fileExists(atPath: dir.full("Deck/two.md")), "it waited for the holder")
            try input.fileHandleForWriting.close()
            holder.waitUntilExit()
            vault.finishInterruptedWrites()
            #expect(try dir.text("Deck/two.md") == "bytes of Deck/two.md\n")
        }
    }

    @Test func aStageWithoutAWholeJournalIsTakenOut() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.stage(dir, [("Deck/one.md", .note, false), ("Deck/two.md", .note, false)], journal: nil)
            let entries = try Self.stage(dir, [("Deck/three.md", .note, false)], journal: nil, name: "import-2")
            let bytes = StagingJournal.encode(entries) ?? []
            try dir.write(".quire/staging/import-2/journal", bytes: Array(bytes.dropLast(4)))
            #expect(StagingJournal.recover(in: vault) == StagingJournal.Recovery())
            #expect(!FileManager.default.fileExists(atPath: dir.full("Deck")))
            #expect(!FileManager.default.fileExists(atPath: dir.full(".quire/staging")))
        }
    }

    @Test func anAbortedWriteTakesOutOnlyTheFilesItMoved() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            try dir.write("Deck/mine.md", "the user's own\n")
            _ = try Self.stage(dir, [("Deck/one.md", .note, true), ("Deck/two.md", .note, false)], journal: StagingJournal.abortName)
            let recovery = StagingJournal.recover(in: vault)
            #expect(recovery.removed == ["Deck/one.md"])
            #expect(!FileManager.default.fileExists(atPath: dir.full("Deck/one.md")))
            #expect(!FileManager.default.fileExists(atPath: dir.full("Deck/two.md")))
            #expect(try dir.text("Deck/mine.md") == "the user's own\n")
        }
    }

    /// A journal copied from elsewhere (a cloned vault): targets outside the vault, under
    /// `.quire/staging`, through a linked folder, or a user's file by name are all left alone.
    @Test func aHostileJournalWritesNothingOutsideAndRemovesNothingOfTheUsers() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            try dir.write("Deck/mine.md", "the user's own\n")
            let outside = try TempDir.make()
            defer { outside.remove() }
            try dir.link("linked", to: outside.path)
            let stage = ".quire/staging/import-9"
            try dir.makeFolder(stage)
            for k in 0..<5 { try dir.write(stage + "/\(k)", "hostile \(k)\n") }
            try dir.link(stage + "/5", to: dir.full("Deck/mine.md"))
            let inode = { (k: Int) in FileIO().linkStamp(dir.full(stage + "/\(k)"))?.inode ?? 0 }
            let entries = [StagingJournal.Entry(staged: "0", kind: .note, inode: inode(0), path: "../escaped.md"),
                           StagingJournal.Entry(staged: "1", kind: .note, inode: inode(1), path: "linked/through.md"),
                           StagingJournal.Entry(staged: "2", kind: .quire, inode: inode(2), path: ".quire/staging/import-9/0"),
                           StagingJournal.Entry(staged: "3", kind: .quire, inode: inode(3), path: "elsewhere/x.log"),
                           StagingJournal.Entry(staged: "4", kind: .note, inode: inode(4) + 1, path: "Deck/stolen.md"),
                           StagingJournal.Entry(staged: "5", kind: .note, inode: inode(5), path: "Deck/copied.md")]
            try dir.write(stage + "/journal", bytes: StagingJournal.encode(entries) ?? [])
            let recovery = StagingJournal.recover(in: vault)
            #expect(recovery.moved.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir.full("../escaped.md")))
            #expect(try outside.entries().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: dir.full("elsewhere")))
            #expect(!FileManager.default.fileExists(atPath: dir.full("Deck/stolen.md")))
            #expect(!FileManager.default.fileExists(atPath: dir.full("Deck/copied.md")))
            // The same journal marked aborted, naming the user's file: kept (not the inode it names).
            let mine = [StagingJournal.Entry(staged: "7", kind: .note, inode: 1, path: "Deck/mine.md")]
            try dir.makeFolder(".quire/staging/import-10")
            try dir.write(".quire/staging/import-10/abort", bytes: StagingJournal.encode(mine) ?? [])
            #expect(StagingJournal.recover(in: vault).removed.isEmpty)
            #expect(try dir.text("Deck/mine.md") == "the user's own\n")
        }
    }

    @Test func aFileThatAppearedAtATargetIsKeptAndSoIsTheStagedCopy() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.stage(dir, [("Deck/one.md", .note, false), ("Deck/two.md", .note, false)])
            try dir.write("Deck/one.md", "written meanwhile\n")
            let recovery = StagingJournal.recover(in: vault)
            #expect(recovery.blocked == ["Deck/one.md"] && recovery.moved == ["Deck/two.md"])
            #expect(try dir.text("Deck/one.md") == "written meanwhile\n")
            #expect(try dir.text(".quire/staging/import-1/0") == "bytes of Deck/one.md\n")
        }
    }
}
