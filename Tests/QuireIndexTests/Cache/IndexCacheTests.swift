@testable import QuireIndex
import Dispatch
import Foundation
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

private func dump(_ index: VaultIndex) -> String {
    index.notes.map(dump).joined() + index.diagnostics.map(\.description).joined(separator: "\n")
}

/// A copy of SampleVault/ with `.quire/`, in a temporary folder.
private func withSampleVault<R>(_ body: (TempDir, Vault) throws -> R) throws -> R {
    try withTempDir { dir in
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleVault").path
        let copy = dir.full("vault")
        try FileManager.default.copyItem(atPath: sample, toPath: copy)
        let vault = try Vault(root: copy)
        #expect(vault.isInitialized)
        return try body(dir, vault)
    }
}

/// Sets a file's modification time (to fake an edit that keeps size and time).
private func setModificationTime(_ path: String, nanoseconds: Int64) {
    var times = [timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
                 timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))]
    _ = utimensat(AT_FDCWD, path, &times, 0)
}

/// Sets every file's and folder's modification time to one fixed time long past, so that none is
/// "racily clean" (modified within the cache's two-second window) and the cache can vouch for all
/// of them. Fixed, not relative to now: two calls a second apart must give the same stamps.
private func ageEverything(_ root: String) {
    let old: Int64 = 1_700_000_000 * 1_000_000_000
    let e = FileManager.default.enumerator(atPath: root)
    // The cache keeps its own time: that is what "racily clean" is measured against.
    // Files already aged are left alone: setting a time moves the change time, which the cache
    // compares too.
    while let rel = e?.nextObject() as? String {
        if !rel.hasPrefix(".quire"), FileIO().stamp(root + "/" + rel)?.mtimeNanoseconds != old {
            setModificationTime(root + "/" + rel, nanoseconds: old)
        }
    }
    setModificationTime(root, nanoseconds: old)
}

@Suite struct IndexCacheTests {
    @Test func aWarmBuildReusesEveryNoteAndEqualsAFreshParse() throws {
        try withSampleVault { _, vault in
            let fresh = vault.index(cached: false)
            let cold = vault.index()
            #expect(cold.cacheUse?.problem == .missing)
            #expect(cold.cacheUse?.written == true)
            #expect(cold.cacheUse?.parsed == fresh.notes.count + fresh.diagnostics.filter { $0.severity == .error }.count)
            let warm = vault.index()
            #expect(warm.cacheUse == CacheUse(reused: cold.cacheUse?.parsed ?? -1, parsed: 0, problem: nil, written: false))
            #expect(dump(warm) == dump(fresh))
            #expect(warm.stamps == fresh.stamps)
            #expect(warm.cardCount == fresh.cardCount)
        }
    }

    @Test func onlyChangedAddedAndRemovedFilesAreRead() throws {
        try withSampleVault { dir, vault in
            _ = vault.index()
            let notes = vault.index(cached: false).notes
            let changed = notes[0].path, removed = notes[1].path
            try dir.write("vault/" + changed, "---\ntitle: Changed\n---\nnew :: card\n")
            try FileManager.default.removeItem(atPath: vault.fullPath(removed))
            try dir.write("vault/Added/new.md", "added :: here\n")
            let index = vault.index()
            #expect(index.cacheUse?.parsed == 2)
            #expect(index.cacheUse?.written == true)
            #expect(dump(index) == dump(vault.index(cached: false)))
            #expect(!index.notes.contains { $0.path == removed })
            let again = vault.index()
            #expect(again.cacheUse?.parsed == 0 || again.cacheUse?.parsed == 2)  // racy entries are re-read
            #expect(dump(again) == dump(index))
        }
    }

    @Test func anEditKeepingSizeAndTimeIsCaughtByTheDigest() throws {
        try withSampleVault { dir, vault in
            try dir.write("vault/same.md", "alpha :: one\n")
            let path = vault.fullPath("same.md")
            let before = try #require(vault.io.stamp(path))
            _ = vault.index()
            try dir.write("vault/same.md", "alpha :: two\n")
            setModificationTime(path, nanoseconds: before.mtimeNanoseconds)
            let after = try #require(vault.io.stamp(path))
            #expect(after.size == before.size && after.mtimeNanoseconds == before.mtimeNanoseconds)
            let index = vault.index()
            let note = try #require(index.notes.first { $0.path == "same.md" })
            #expect(note.cards.first?.back == "two")
            #expect(index.cacheUse?.parsed == 1)
        }
    }

    /// An edit made in place long after the cache was written, keeping the size and setting the
    /// modification time back (same inode, not racily clean), is seen through the change time.
    @Test func anInPlaceEditRestoringTheTimeIsCaughtByTheChangeTime() throws {
        try withSampleVault { dir, vault in
            try dir.write("vault/same.md", "alpha :: one\n")
            let path = vault.fullPath("same.md")
            let old = (try #require(vault.io.stamp(path))).mtimeNanoseconds - 3_600_000_000_000
            setModificationTime(path, nanoseconds: old)
            let before = try #require(vault.io.stamp(path))
            #expect(vault.index().notes.first { $0.path == "same.md" }?.cards.first?.back == "one")
            usleep(20_000)
            let fd = open(path, O_WRONLY | O_TRUNC)
            _ = "alpha :: two\n".withCString { write(fd, $0, 13) }
            close(fd)
            setModificationTime(path, nanoseconds: old)
            let after = try #require(vault.io.stamp(path))
            #expect(after.size == before.size && after.mtimeNanoseconds == before.mtimeNanoseconds && after.inode == before.inode)
            #expect(after.ctimeNanoseconds != before.ctimeNanoseconds)
            let index = vault.index()
            #expect(index.notes.first { $0.path == "same.md" }?.cards.first?.back == "two")
            #expect(index.cacheUse?.parsed == 1)
        }
    }

    /// A path in the cache that would leave the vault makes the cache damaged, never a file to read.
    @Test func pathsInTheCacheMustStayInTheVault() {
        for good in ["a.md", "Deck/Sub/n.md", "x.y/z.md", "é/ü.md"] { #expect(Vault.isPlainRelativePath(good), "\(good)") }
        for bad in ["", "/etc/passwd", "../x.md", "a/../../x.md", "a//b.md", ".quire/x.md", "a/.hidden/b.md", "./a.md",
                    "a/", "a\u{1B}.md"] {
            #expect(!Vault.isPlainRelativePath(bad), "\(bad)")
        }
    }

    @Test func theCacheWrittenWhileReadingIsTheOneWrittenAfter() throws {
        try withSampleVault { dir, vault in
            // Enough files for many chunks, handed in out of order by two threads; a file that
            // does not parse, tags and decks first seen late, and a copied file (duplicate IDs).
            for i in 0..<300 {
                try dir.write("vault/Gen/\(i % 7)/n\(i).md",
                              "---\ntags: [t\(i % 13)]\n\(i % 50 == 0 ? "deck: Late/D\(i)\n" : "")---\n# N\(i)\n\nq\(i) :: a\(i)\n\nThe {{c1::x\(i)}} and {{c2::y}}.\n")
            }
            try dir.write("vault/Gen/bad.md", "---\nkey: [unclosed\n---\nq :: a\n")
            try dir.write("vault/Gen/0/first.md", "q :: a ^dup-id\n")
            try dir.write("vault/Gen/copy.md", "q :: a ^dup-id\n")
            let cache = try #require(vault.cache)
            let index = vault.index(concurrency: 2)
            #expect(index.cacheUse?.written == true)
            #expect(index.cacheUse?.problem == .missing)
            let streamed = try #require(FileManager.default.contents(atPath: cache.path))
            // The same records written in one go, after reading.
            let scanned = VaultScanner().scan(root: vault.root)
            let records = scanned.files.compactMap { file -> IndexCache.Record? in
                if case .record(let r) = IndexCache.Record.read(file, io: FileIO(), syntax: .quire) { return r }
                return nil
            }
            try cache.write(records, crossFileDiagnostics: index.crossFileDiagnostics, folders: scanned.folders,
                            scanDiagnostics: scanned.diagnostics)
            let after = try #require(FileManager.default.contents(atPath: cache.path))
            #expect(streamed == after)
            #expect(!index.crossFileDiagnostics.isEmpty)
        }
    }

    @Test func aCacheThatCannotBeWrittenLeavesTheIndexWhole() throws {
        try withSampleVault { dir, vault in
            let fresh = dump(vault.index(cached: false))
            // `.quire/cache` is a file: the cache's folder cannot be made.
            try dir.write("vault/.quire/cache", "in the way\n")
            let index = vault.index()
            #expect(index.cacheUse?.written == false)
            #expect(index.cacheUse?.writeError != nil)
            #expect(dump(index) == fresh)
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.full("vault/.quire"))
            #expect(left.allSatisfy { !$0.hasSuffix(".tmp") })
        }
    }

    @Test func aDamagedCacheIsRebuiltNeverTrusted() throws {
        try withSampleVault { _, vault in
            let fresh = dump(vault.index(cached: false))
            let cache = try #require(vault.cache)
            _ = vault.index()
            let good = try #require(FileManager.default.contents(atPath: cache.path))
            func corrupt(_ bytes: [UInt8]) throws -> VaultIndex {
                try Data(bytes).write(to: URL(fileURLWithPath: cache.path))
                let index = vault.index()
                #expect(dump(index) == fresh)
                #expect(index.cacheUse?.written == true)
                // The rebuilt cache is whole again.
                #expect(vault.index().cacheUse?.parsed == 0)
                return index
            }
            let g = Array(good)
            let sections = try IndexCache.sections(ofFile: g, syntaxDigest: cache.syntax.digest)
            let entries = try #require(sections["entries"]), tables = try #require(sections["tables"])
            let cardIDs = try #require(sections["card-ids"])
            #expect(sections["notes"]?.offset == 0)
            // A flipped bit in the entries or the tables fails the whole file.
            for section in [entries, tables] {
                var flipped = g
                flipped[section.offset + section.length / 2] ^= 0x10
                #expect(try corrupt(flipped).cacheUse?.problem == .checksumMismatch(section: section.name))
            }
            // A flipped bit in the section table or the trailer fails it too.
            var inTable = g
            inTable[g.count - IndexCache.trailerSize - 3] ^= 0x01
            #expect(try corrupt(inTable).cacheUse?.problem == .checksumMismatch(section: "section table"))
            var inTrailer = g
            inTrailer[g.count - 20] ^= 0x01
            #expect(try corrupt(inTrailer).cacheUse?.problem == .checksumMismatch(section: "trailer"))
            // A flipped bit in the card-ID table: the notes are reused, and the cache is rewritten.
            var inIDs = g
            inIDs[cardIDs.offset + cardIDs.length / 2] ^= 0x04
            let ids = try corrupt(inIDs)
            #expect(ids.cacheUse?.parsed == 0)
            // A flipped bit inside one note's bytes: that note is read from its file, the rest reused.
            var inNote = g
            inNote[40] ^= 0x01
            let partial = try corrupt(inNote)
            #expect(partial.cacheUse?.problem == nil)
            #expect(partial.cacheUse?.parsed == 1)
            // Cut short, empty, garbage, another version.
            #expect(try corrupt(Array(g.prefix(g.count / 2))).cacheUse?.problem != nil)
            #expect(try corrupt([]).cacheUse?.problem == .malformed("shorter than its trailer"))
            #expect(try corrupt(Array(repeating: 0x5A, count: 4096)).cacheUse?.problem == .malformed("not a Quire index cache"))
            var other = g
            other[g.count - IndexCache.trailerSize + 8] &+= 1
            #expect(try corrupt(other).cacheUse?.problem == .otherVersion(format: IndexCache.formatVersion + 1,
                                                                        parser: IndexCache.parserVersion))
        }
    }

    /// The section table: a section the reader does not know is skipped, so a later version can add
    /// one (curation state, search hashes) without breaking this one; a table missing a section
    /// the reader needs, or with sections overlapping, makes the cache damaged (rebuilt).
    @Test func sectionsAreFoundByName() throws {
        try withSampleVault { _, vault in
            let cache = try #require(vault.cache)
            _ = vault.index()
            let g = try #require(FileManager.default.contents(atPath: cache.path)).map { $0 }
            let sections = try IndexCache.sections(ofFile: g, syntaxDigest: cache.syntax.digest)
            let notes = try #require(sections["notes"]), entries = try #require(sections["entries"])
            let tables = try #require(sections["tables"]), ids = try #require(sections["card-ids"])
            #expect(notes.count == entries.count && notes.checksum == nil && ids.count == ids.length / 12)

            /// Writes the cache again with `names` in that order ("extra": an unknown section).
            func reframe(_ names: [String]) throws -> IndexCacheError? {
                let file = try cache.newFile()
                var writer = IndexCache.SectionWriter(file)
                for name in names {
                    switch name {
                    case "notes":
                        try file.write(Array(g[notes.range]))
                        writer.wrote("notes", length: notes.length, count: notes.count, checksum: nil)
                    case "extra": try writer.add("extra", Array("what a later version adds".utf8), count: 1)
                    default:
                        let section = try #require(sections[name])
                        try writer.add(name, Array(g[section.range]), count: section.count)
                    }
                }
                try writer.finish(syntaxDigest: cache.syntax.digest)
                let index = vault.index()
                #expect(index.cardCount > 0)
                return index.cacheUse?.problem
            }
            #expect(try reframe(["notes", "entries", "tables", "extra", "card-ids"]) == nil)
            #expect(vault.index().cacheUse?.parsed == 0)
            #expect(try reframe(["notes", "extra", "entries", "tables", "card-ids"]) == nil)
            #expect(try reframe(["notes", "tables", "card-ids"]) == .malformed("no entries section"))
            #expect(try reframe(["extra", "notes", "entries", "tables", "card-ids"]) == .malformed("the notes do not start the file"))
            #expect(try reframe(["notes", "entries", "entries", "tables", "card-ids"]) == .malformed("section entries twice"))
        }
    }

    @Test func theCardIDTableFindsTheNoteOfAnyCard() throws {
        try withSampleVault { _, vault in
            let cache = try #require(vault.cache)
            let none = CardID("nosuchcard1")
            #expect(cache.notePaths(holding: try #require(none)).isEmpty)
            let index = vault.index()
            for note in index.notes {
                for card in note.cards { #expect(cache.notePaths(holding: card.id) == [note.path]) }
            }
            #expect(cache.notePaths(holding: try #require(none)).isEmpty)
        }
    }

    @Test func aVaultWithoutQuireFolderGetsNoCache() throws {
        try withTempDir { dir in
            try dir.write("a.md", "x :: y\n")
            let vault = try Vault(root: dir.path)
            #expect(vault.cache == nil)
            #expect(vault.index().cacheUse == nil)
            #expect(try dir.entries() == ["a.md"])
        }
    }

    @Test func concurrentBuildsNeverLeaveABrokenCache() throws {
        try withSampleVault { dir, vault in
            let fresh = vault.index(cached: false).notes.count
            DispatchQueue.concurrentPerform(iterations: 8) { i in
                for round in 0..<5 {
                    // Each build sees a different vault, so each writes a cache.
                    try? dir.write("vault/Race/\(i)-\(round).md", "q\(i) :: a\(round)\n")
                    let index = vault.index(concurrency: 1)
                    #expect(index.cacheUse?.problem == nil || index.cacheUse?.problem == .missing)
                    #expect(index.notes.count >= fresh)
                }
            }
            let final = vault.index()
            #expect(final.cacheUse?.problem == nil)
            #expect(dump(final) == dump(vault.index(cached: false)))
            // No temporary files are left beside the cache.
            let left = try dir.entries("vault/.quire/cache")
            #expect(left == ["index"])
        }
    }

    @Test func theScheduleSummaryMatchesTheIndexAndStepsAsideWhenAFileChanged() throws {
        try withSampleVault { dir, vault in
            let cache = try #require(vault.cache)
            #expect(ScheduleSummary.load(root: vault.root, cache: cache) == nil)
            ageEverything(vault.root)
            let index = vault.index()
            let summary = try #require(ScheduleSummary.load(root: vault.root, cache: cache))
            #expect(summary.notes.map(\.path) == index.notes.map(\.path))
            #expect(summary.notes.map(\.deck) == index.notes.map(\.deck))
            let schedules = index.notes.map { $0.cards.compactMap(\.schedule) }
            #expect(summary.notes.map(\.schedules) == schedules)
            #expect(summary.notes.flatMap(\.schedules).count > 0)
            #expect(summary.diagnostics == index.diagnostics)
            #expect(!summary.scannedVault && summary.parsedNotes == 0)

            // A new note (its folder changed): the vault is scanned and that note alone parsed.
            try dir.write("vault/new.md", "n :: m\n")
            let changed = try #require(ScheduleSummary.load(root: vault.root, cache: cache, updateCache: false))
            #expect(changed.scannedVault && changed.parsedNotes == 1)
            let fresh = vault.index(cached: false)
            #expect(changed.notes.map(\.path) == fresh.notes.map(\.path))
            #expect(changed.notes.map(\.schedules) == fresh.notes.map { $0.cards.compactMap(\.schedule) })
            #expect(changed.diagnostics == fresh.diagnostics)
            #expect(ScheduleSummary.load(root: vault.root, cache: cache, maximumParsed: 0) == nil)
        }
    }

    @Test func theSummaryBringsTheCacheUpToDateWithoutDecodingNotes() throws {
        try withSampleVault { dir, vault in
            let cache = try #require(vault.cache)
            ageEverything(vault.root)
            _ = vault.index()
            try dir.write("vault/Inbox/new.md", "---\ndeck: Brand/New\ntags: [fresh-tag]\n---\nn :: m\n")
            try dir.remove("vault/Journal")
            try dir.write("vault/Biology/Cells/organelles.md", "---\ntitle: Rewritten\n---\nx :: y\n")
            ageEverything(vault.root)
            let changed = try #require(ScheduleSummary.load(root: vault.root, cache: cache))
            #expect(changed.scannedVault && changed.parsedNotes == 2)
            // The cache was rewritten: the next summary reads no folder, and a full build takes
            // every note from it and equals a fresh parse.
            let again = try #require(ScheduleSummary.load(root: vault.root, cache: cache))
            #expect(!again.scannedVault)
            #expect(again.notes.map(\.path) == changed.notes.map(\.path))
            let index = vault.index()
            #expect(index.cacheUse?.parsed == 0 && index.cacheUse?.problem == nil)
            #expect(dump(index) == dump(vault.index(cached: false)))
            #expect(index.notes.contains { $0.deck.description == "Brand/New" && $0.tags.map(\.name) == ["fresh-tag"] })
            // And the card-ID table follows the notes.
            for note in index.notes {
                for card in note.cards { #expect(cache.notePaths(holding: card.id) == [note.path]) }
            }

            // A file that is not a note: its folder is read, nothing is parsed; after a build
            // records the folder's new stamp, nothing is read at all.
            ageEverything(vault.root)
            _ = vault.index()
            try dir.write("vault/Biology/picture.png", "png")
            let picture = try #require(ScheduleSummary.load(root: vault.root, cache: cache))
            #expect(picture.scannedVault && picture.parsedNotes == 0)
            ageEverything(vault.root)
            #expect(vault.index().cacheUse?.written == true)
            #expect(ScheduleSummary.load(root: vault.root, cache: cache)?.scannedVault == false)

            // A note edited in place is parsed again.
            try dir.write("vault/new.md", "n :: changed\n")
            #expect(ScheduleSummary.load(root: vault.root, cache: cache)?.parsedNotes == 1)
        }
    }

    @Test func aChangedNoteSharingACardIDWithAnotherLeavesTheSummaryToAFullBuild() throws {
        try withSampleVault { dir, vault in
            let cache = try #require(vault.cache)
            ageEverything(vault.root)
            let index = vault.index()
            // A copied note keeps its stored card IDs: both files now claim them.
            let scheduled = try #require(index.notes.first { note in note.cards.contains { $0.schedule != nil } })
            try dir.write("vault/copy.md", bytes: try dir.read("vault/" + scheduled.path))
            #expect(ScheduleSummary.load(root: vault.root, cache: cache) == nil)
            #expect(vault.index().hasErrors)
            // Once the cache knows the duplicate, any change leaves the summary to a full build.
            try dir.write("vault/other.md", "o :: p\n")
            #expect(ScheduleSummary.load(root: vault.root, cache: cache) == nil)
        }
    }

    @Test func aFolderChangedJustBeforeTheCacheWasWrittenIsNotTrusted() throws {
        try withSampleVault { dir, vault in
            let cache = try #require(vault.cache)
            ageEverything(vault.root)
            try dir.write("vault/Biology/fresh.md", "f :: g\n")  // Biology/ modified just now
            // "Just now" however long the index below takes on a loaded machine (the racy window is
            // two seconds): the folder's time is set a little ahead, as a clock step could make it.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(30)],
                                                  ofItemAtPath: dir.full("vault/Biology"))
            _ = vault.index()
            // The folder is read (the note itself is racy too, so its digest is compared).
            let summary = try #require(ScheduleSummary.load(root: vault.root, cache: cache))
            #expect(summary.scannedVault && summary.parsedNotes == 0)
        }
    }
}
