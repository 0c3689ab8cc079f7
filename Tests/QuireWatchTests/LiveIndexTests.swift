@testable import QuireWatch
import Foundation
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

/// The live index on real folders and the real kernel: after each batch it equals a full build.
@Suite struct LiveIndexTests {
    /// Waits (up to two seconds) until the live index has taken in changes, then returns the events.
    private func events(_ live: LiveIndex) throws -> [LiveIndex.Event] {
        var all: [LiveIndex.Event] = []
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            guard let batch = try live.next(timeout: all.isEmpty ? .seconds(2) : .milliseconds(100)) else {
                if all.isEmpty { continue } else { break }
            }
            all += batch
        }
        return all
    }

    private func expectCurrent(_ live: LiveIndex, sourceLocation: SourceLocation = #_sourceLocation) {
        let full = live.vault.index(cached: false)
        #expect(live.index.notes.map(dump) == full.notes.map(dump), sourceLocation: sourceLocation)
        #expect(live.index.diagnostics == full.diagnostics, sourceLocation: sourceLocation)
        #expect(live.index.cardCount == full.cardCount, sourceLocation: sourceLocation)
    }

    @Test func editsAddsMovesAndDeletesKeepTheIndexCurrent() throws {
        try withTempDir { dir in
            try dir.write("Deck/a.md", "one :: 1\n")
            try dir.write("Deck/b.md", "two :: 2\n")
            let vault = try Vault(root: dir.path)
            let live = try LiveIndex(vault: vault)
            #expect(live.index.cardCount == 2)

            try dir.write("Deck/a.md", "one :: 1\n\nthree :: 3\n")
            var e = try events(live)
            guard case .note(let u)? = e.first else { Issue.record("no event"); return }
            #expect(u.kind == .changed && u.path == "Deck/a.md" && u.addedCards.count == 1)
            expectCurrent(live)

            try dir.write("New/c.md", "four :: 4\n")
            e = try events(live)
            #expect(e.contains { if case .note(let u) = $0 { u.kind == .added && u.path == "New/c.md" } else { false } })
            expectCurrent(live)

            try FileManager.default.moveItem(atPath: dir.full("Deck"), toPath: dir.full("Moved"))
            e = try events(live)
            #expect(e.count == 4)  // two removed, two added
            expectCurrent(live)

            try dir.write("Moved/a.md", "---\ntitle: [\n---\n")
            e = try events(live)
            guard case .note(let broken)? = e.first else { Issue.record("no event"); return }
            #expect(broken.kind == .removed && broken.diagnostics.first?.severity == .error)
            #expect(live.index.hasErrors)
            expectCurrent(live)

            try dir.remove("Moved")
            _ = try events(live)
            #expect(!live.index.hasErrors)
            expectCurrent(live)
        }
    }

    /// A change under an ignored path (`ignore:`) is not the index's; the index stays what a full
    /// build gives.
    @Test func changesUnderIgnoredPathsAreLeftOut() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "ignore: [Templates]\n")
            try dir.write("a.md", "one :: 1\n")
            try dir.write("Templates/t.md", "---\ndate: {{date}}\n---\n")
            let vault = try Vault(root: dir.path)
            let live = try LiveIndex(vault: vault)
            #expect(live.index.notes.map(\.path) == ["a.md"] && !live.index.hasErrors)
            try dir.write("Templates/u.md", "---\ntitle: {{title}}\n---\nq :: a\n")
            try dir.write("b.md", "two :: 2\n")
            let e = try events(live)
            #expect(e.count == 1, "\(e)")
            #expect(live.index.notes.map(\.path) == ["a.md", "b.md"] && !live.index.hasErrors)
            expectCurrent(live)
        }
    }

    @Test func anEditorSaveThroughATemporaryFileIsOneChange() throws {
        try withTempDir { dir in
            try dir.write("a.md", "one :: 1\n")
            let live = try LiveIndex(vault: try Vault(root: dir.path))
            try dir.write(".a.md.swp", "junk")
            try dir.write("a.md.tmp", "one :: changed\n")
            try FileManager.default.removeItem(atPath: dir.full("a.md"))
            try FileManager.default.moveItem(atPath: dir.full("a.md.tmp"), toPath: dir.full("a.md"))
            let e = try events(live)
            #expect(e.count == 1)
            expectCurrent(live)
        }
    }

    @Test func aRescanReadsTheWholeVaultAgain() throws {
        try withTempDir { dir in
            try dir.write("a.md", "one :: 1\n")
            let live = try LiveIndex(vault: try Vault(root: dir.path))
            // Changes the watcher is told it missed.
            try dir.write("b.md", "two :: 2\n")
            let e = live.apply([.changed("zzz.md"), .rescan(reason: "events were lost")])
            #expect(e == [.rescanned(reason: "events were lost")])
            #expect(live.index.notes.map(\.path) == ["a.md", "b.md"])
            expectCurrent(live)
        }
    }
}
