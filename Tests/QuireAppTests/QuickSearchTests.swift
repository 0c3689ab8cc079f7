import Testing
import QuireModel
import QuireSearch
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// A search answered from the caches alone: only when no note changed since the search index was
/// brought up to date, and then with the hits the full search gives; anything else is left to the
/// full search (nil), never answered from a stale index.
@Suite struct QuickSearchTests {
    static func vault(_ dir: TempDir) throws -> Vault {
        try dir.write(".quire/config.yaml", "")
        try dir.write("Biology/cells.md", "---\ndeck: Biology\n---\n\nWhat makes ATP? :: The mitochondrion\n\nThe nucleus holds the cell's DNA.\n")
        try dir.write("Spanish/words.md", "---\ndeck: Spanish\n---\n\nWhat is 'cell' in Spanish? :: célula\n")
        return try Vault(root: dir.path)
    }

    /// The full search (the vault loaded, the index brought up to date, the caches written).
    static func full(_ vault: Vault, _ words: [String]) throws -> [SearchHit] {
        try VaultSearch(LoadedVault(vault), semantic: false).search(words, mode: .lexical, limit: 10, now: at(26)).hits
    }

    static func quick(_ vault: Vault, _ words: [String]) -> [SearchHit]? {
        QuickSearch.search(words, in: vault, mode: .lexical, limit: 10, clock: at(26))?.hits
    }

    static func places(_ hits: [SearchHit]?) -> [String]? { hits?.map { "\($0.path):\($0.lines) \($0.snippet)" } }

    @Test func answersAsTheFullSearchOnlyWhileNothingChanged() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            #expect(Self.quick(vault, ["cell"]) == nil, "no search index yet")
            let full = try Self.full(vault, ["cell"])
            #expect(full.count == 2)
            #expect(Self.places(Self.quick(vault, ["cell"])) == Self.places(full))
            // An edit: the quick way declines; the full way finds the new word, then the quick way does.
            try dir.write("Biology/cells.md", "---\ndeck: Biology\n---\n\nRibosomes make proteins.\n")
            #expect(Self.quick(vault, ["ribosomes"]) == nil && Self.quick(vault, ["cell"]) == nil)
            #expect(try Self.full(vault, ["ribosomes"]).map(\.path) == ["Biology/cells.md"])
            #expect(Self.quick(vault, ["ribosomes"])?.map(\.path) == ["Biology/cells.md"])
            #expect(Self.quick(vault, ["nucleus"])?.isEmpty == true)
        }
    }

    @Test func aNoteRemovedOrAddedIsLeftToTheFullSearch() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.full(vault, ["cell"])
            try dir.remove("Spanish/words.md")
            #expect(Self.quick(vault, ["cell"]) == nil)
            #expect(try Self.full(vault, ["cell"]).map(\.path) == ["Biology/cells.md"])
            try dir.write("Spanish/more.md", "---\ndeck: Spanish\n---\n\nA cell :: una célula\n")
            #expect(Self.quick(vault, ["cell"]) == nil)
        }
    }

    @Test func filtersAndFilesWithErrorsAreLeftToTheFullSearch() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.full(vault, ["cell"])
            #expect(Self.quick(vault, ["deck:Biology", "cell"]) == nil, "a query filter needs the notes")
            try dir.write("Broken.md", "---\ndeck: [unclosed\n---\n\nA cell :: broken\n")
            _ = try Self.full(vault, ["cell"])
            #expect(Self.quick(vault, ["cell"]) == nil, "the full search reports the file's error")
        }
    }

    /// A note the search index holds that the vault has no more (an index from another copy of
    /// the vault): the index is not current, so the quick way declines.
    @Test func anIndexHoldingOtherNotesIsNotUsed() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.full(vault, ["cell"])
            let index = try SearchIndex(path: dir.full(VaultSearch.indexFile))
            #expect(try index.digests().count == 2)
            try index.update(path: "Elsewhere/planted.md", digest: 7,
                             chunks: [Chunk(kind: .prose, path: "Elsewhere/planted.md", lines: 1...1, headingPath: [], text: "cell planted")])
            #expect(Self.quick(vault, ["cell"]) == nil)
        }
    }
}
