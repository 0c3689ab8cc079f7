import Testing
import QuireIndex
import QuireModel
import QuireSearch
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// `quire watch` keeps the search index current: words at once, vectors by a thread of its own at
/// the lowest priority, every chunk given one in the end.
@Suite struct SearchFollowerTests {
    @Test func vectorsAreComputedInTheBackgroundAtTheLowestPriority() throws {
        let encoder = try TestModel.encoder()
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", "")
            try dir.write("Biology/cells.md", "# Cells\n\nMitochondria make most of the cell's ATP.\n\nRibosomes make proteins.\n")
            let vault = try Vault(root: dir.path)
            // The search index exists (made by a search by words), without vectors.
            _ = try VaultSearch(LoadedVault(vault), semantic: false)
            let follower = try #require(SearchFollower(vault: vault, index: vault.index(), encoder: encoder))
            let worker = try #require(follower.vectors)
            #expect(worker.waitUntilIdle(seconds: 60))
            #expect(worker.niceness == 19)
            let index = try SearchIndex(path: dir.full(VaultSearch.indexFile))
            let first = try index.counts()
            #expect(first.chunks > 0 && first.embedded == first.chunks, "\(first)")
            // A note written while it watches: its words now, its vectors soon after.
            try dir.write("Geology/lava.md", "# Lava\n\nMagma that reaches the surface is called lava.\n")
            let changed = vault.index()
            #expect(follower.follow([.rescanned(reason: "test")], index: changed) == nil)
            #expect(try SearchIndex(path: dir.full(VaultSearch.indexFile)).search("magma").map(\.path) == ["Geology/lava.md"])
            #expect(worker.waitUntilIdle(seconds: 60))
            let after = try SearchIndex(path: dir.full(VaultSearch.indexFile)).counts()
            #expect(after.chunks > first.chunks && after.embedded == after.chunks, "\(after)")
        }
    }
}
