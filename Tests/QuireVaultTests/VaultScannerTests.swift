@testable import QuireSystem
import Glibc
import Testing
import QuireModel
@testable import QuireTestSupport
@testable import QuireVault

/// Which files are notes (FORMAT.md §2): hidden folders, `.md` in any case, symbolic links.
@Suite struct VaultScannerTests {
    private func scan(_ dir: TempDir) -> (paths: [String], diagnostics: [String]) {
        let result = VaultScanner().scan(root: dir.path)
        return (result.files.map(\.relativePath), printed(result.diagnostics))
    }

    @Test func hiddenFoldersAreSkippedAndMdIsCaseInsensitive() throws {
        try withTempDir { dir in
            for path in ["a.md", "B.MD", "c.Md", "sub/d.mD", "deep/er/e.md", ".git/x.md", ".obsidian/y.md",
                         ".trash/z.md", "sub/.hidden/w.md", "notes.markdown", "f.mdx", "md", "g.md.bak"] {
                try dir.write(path, "x :: y\n")
            }
            let (paths, diagnostics) = scan(dir)
            #expect(paths == ["B.MD", "a.md", "c.Md", "deep/er/e.md", "sub/d.mD"])
            #expect(diagnostics.isEmpty)
            #expect(VaultScanner.isNoteName("x.md"))
            #expect(!VaultScanner.isNoteName("md"))
            #expect(!VaultScanner.isNoteName("x.mdx"))
        }
    }

    /// `ignore:`: a folder pattern leaves out the folder and all it holds (never read: its broken
    /// notes, links and unreadable subfolders say nothing), a file pattern the files it matches
    /// anywhere; with one thread or two the same.
    @Test func ignoredFoldersAndFilesAreLeftOut() throws {
        try withTempDir { dir in
            for path in ["a.md", "Templates/daily.md", "Templates/deep/t.md", "Notes/Templates.md", "Notes/x.excalidraw.md",
                         "Notes/keep.md", "templater/t.md", "Other/Templates/z.md"] {
                try dir.write(path, "x :: y\n")
            }
            #expect(symlink(dir.full("/"), dir.full("Templates/loop")) == 0)
            #expect(chmod(dir.full("Templates/deep"), 0) == 0)
            defer { chmod(dir.full("Templates/deep"), 0o755) }
            let ignored = IgnoredPaths(["Templates/", "**/*.excalidraw.md", "TEMPLATER"])
            for threads in [1, 2] {
                let result = VaultScanner(ignored: ignored).scan(root: dir.path, concurrency: threads)
                #expect(result.files.map(\.relativePath) == ["Notes/Templates.md", "Notes/keep.md", "Other/Templates/z.md", "a.md"])
                #expect(result.diagnostics.isEmpty, "\(printed(result.diagnostics))")
                #expect(!result.folders.contains { $0.relativePath.hasPrefix("Templates") })
            }
            #expect(IgnoredPaths.none.digest == 0 && ignored.digest != IgnoredPaths(["Templates"]).digest)
            #expect(VaultScanner().scan(root: dir.path).files.count > 4)
        }
    }

    /// A name that is not UTF-8 is reported (not "No such file or directory" later), and a
    /// temporary file of a killed writer is reported; one of a live writer is not.
    @Test func undecodableNamesAndLeftoverTemporaryFilesAreReported() throws {
        try withTempDir { dir in
            try dir.write("ok.md", "x :: y\n")
            // The name's bytes: `bad`, 0xFF, `.md` (not UTF-8), made with the C call.
            var bytes: [UInt8] = Array((dir.path + "/bad").utf8) + [0xFF] + Array(".md".utf8) + [0]
            let fd = bytes.withUnsafeMutableBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { open($0, O_WRONLY | O_CREAT, 0o644) }
            }
            #expect(fd >= 0)
            close(fd)
            try dir.write("sub/.n.md.quire-999999999-1.tmp", "half")
            try dir.write("sub/.n.md.quire-\(getpid())-1.tmp", "being written")
            let (paths, diagnostics) = scan(dir)
            #expect(paths == ["ok.md"])
            #expect(diagnostics == [
                "bad\u{FFFD}.md: warning: file name is not valid UTF-8; skipped (rename it)",
                "sub/.n.md.quire-999999999-1.tmp: warning: temporary file left by a quire process that was killed; "
                    + "the next write in this folder removes it",
            ])
        }
    }

    @Test func namesSortInReverseByteOrder() {
        // Keys sharing their first eight bytes, shorter than eight, folders (`name/`), non-ASCII.
        var keys = ["chapter-10.md", "chapter-1.md", "chapter-2/", "chapter-1/", "a.md", "a/", "a-b.md", "ab.md",
                    "Z.md", "é.md", "e\u{301}.md", "longer-name-same-prefix-b.md", "longer-name-same-prefix-a.md",
                    "x", "x.md", "chapter-1.md"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let length = Int.random(in: 0...12, using: &generator)
            keys.append(String(decoding: (0..<length).map { _ in [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "/"),
                                                                   UInt8(ascii: "."), 0xC3, 0xA9].randomElement(using: &generator)! },
                               as: UTF8.self))
        }
        let order = VaultScanner.descendingByteOrder(keys).map { Array(keys[$0].utf8) }
        let expected = keys.map { Array($0.utf8) }.sorted { $1.lexicographicallyPrecedes($0) }
        #expect(order == expected)
    }

    @Test func pathsComeInByteOrderWithoutASortAndFoldersWithTheirStamps() throws {
        try withTempDir { dir in
            // `a.md` < `a/…` < `a-b.md` would be wrong: byte order puts `-` (0x2D) and `.` (0x2E)
            // before `/` (0x2F).
            for path in ["a/x.md", "a.md", "a-b.md", "a/b/y.md", "ab.md", "Z.md", "a/a.md", "é.md"] {
                try dir.write(path, "x :: y\n")
            }
            let result = VaultScanner().scan(root: dir.path)
            let paths = result.files.map(\.relativePath)
            #expect(paths == ["Z.md", "a-b.md", "a.md", "a/a.md", "a/b/y.md", "a/x.md", "ab.md", "é.md"])
            #expect(paths == paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
            #expect(result.folders.map(\.relativePath) == ["", "a", "a/b"])
            #expect(result.folders.allSatisfy { $0.stamp.isDirectory })
            #expect(result.folders[1].stamp == FileIO().stamp(dir.full("a")))
        }
    }

    @Test func folderNamedLikeANoteIsAFolder() throws {
        try withTempDir { dir in
            try dir.write("folder.md/inner.md", "x")
            #expect(scan(dir).paths == ["folder.md/inner.md"])
        }
    }

    @Test func symlinkLoopTerminatesAndReadsEachFolderOnce() throws {
        try withTempDir { dir in
            try dir.write("a/note.md", "x")
            try dir.write("a/b/deep.md", "x")
            try dir.link("a/b/up", to: "../..")     // back to the root
            try dir.link("a/self", to: ".")         // to its own folder
            try dir.link("alias", to: "a/b")        // a second way into a folder already read
            let (paths, diagnostics) = scan(dir)
            #expect(paths.count == 2)
            #expect(Set(paths.map { $0.split(separator: "/").last ?? "" }) == ["note.md", "deep.md"])
            #expect(diagnostics.isEmpty)
        }
    }

    /// Folder links inside the vault are followed; file links are not read, since the note they
    /// point to is read at its own path (FORMAT.md §2).
    @Test func linkInsideTheVaultIsFollowed() throws {
        try withTempDir { dir in
            try dir.write("real/x.md", "x")
            try dir.write("file.md", "y")
            try dir.link("Shortcut", to: "real")
            try dir.link("other.md", to: "file.md")
            let (paths, _) = scan(dir)
            #expect(paths.contains("file.md"))
            #expect(!paths.contains("other.md"))
            #expect(paths.filter { $0.hasSuffix("x.md") }.count == 1)
        }
    }

    @Test func linksOutsideTheVaultAreWarnedAndSkipped() throws {
        try withTempDir { outside in
            try outside.write("secret.md", "x :: y")
            try outside.write("folder/n.md", "x :: y")
            try withTempDir { dir in
                try dir.write("inside.md", "x")
                try dir.link("ext", to: outside.full("folder"))
                try dir.link("ext.md", to: outside.full("secret.md"))
                try dir.link("picture.png", to: outside.full("secret.md"))
                let (paths, diagnostics) = scan(dir)
                #expect(paths == ["inside.md"])
                #expect(diagnostics.sorted() == [
                    "ext.md: warning: symbolic link points outside the vault; skipped",
                    "ext: warning: symbolic link points outside the vault; skipped",
                ])
            }
        }
    }

    @Test func brokenLinkIsWarned() throws {
        try withTempDir { dir in
            try dir.write("ok.md", "x")
            try dir.link("dead.md", to: "missing.md")
            let (paths, diagnostics) = scan(dir)
            #expect(paths == ["ok.md"])
            #expect(diagnostics == ["dead.md: warning: broken symbolic link; skipped"])
        }
    }

    /// The folders below the root are read on two threads, each top folder on its own; the result
    /// must be the one-thread result, also where a link makes one walk read a folder that a
    /// one-thread walk reads only once (then the vault is scanned again on one thread).
    @Test func twoThreadsGiveTheOneThreadResult() throws {
        try withTempDir { dir in
            for path in ["a.md", "a/n.md", "a/x/n.md", "b/y/z/deep.md", "b/y/w.md", "b.md", "c/n.md", "c-d.md", "d/e/f.md"] {
                try dir.write(path, "x :: y\n")
            }
            try dir.link("d/to-a", to: "../a")           // to a top folder: known to every walk
            try dir.link("d/e/loop", to: "../..")        // back to the root
            try dir.link("c/outside", to: "/")           // out of the vault: warned
            func same() {
                let one = VaultScanner().scan(root: dir.path, concurrency: 1)
                let two = VaultScanner().scan(root: dir.path, concurrency: 2)
                #expect(two.files == one.files)
                #expect(two.folders == one.folders)
                #expect(two.diagnostics == one.diagnostics)
            }
            same()
            // A link from the first top folder into another's subfolder: one thread reads that
            // subfolder through the link, then skips it in its own place.
            try dir.link("a/link", to: "../b/y/z")
            let one = VaultScanner().scan(root: dir.path, concurrency: 1)
            #expect(one.files.map(\.relativePath).contains("a/link/deep.md"))
            #expect(!one.files.map(\.relativePath).contains("b/y/z/deep.md"))
            same()
        }
    }
}
