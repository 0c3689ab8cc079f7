import Testing
import QuireModel
import QuireSearch
import QuireSystem
import QuireVault
@testable import QuireApp
@testable import QuireTestSupport

/// A search answered from the caches alone: the search index brought up to date for the few
/// notes that changed since (read alone, not the vault), with the hits the full search gives;
/// more changes, filters and files with errors are left to the full search (nil), and a stale
/// index is never answered from.
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

    @Test func answersAsTheFullSearchAfterAnEdit() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            #expect(Self.quick(vault, ["cell"]) == nil, "no search index yet")
            let full = try Self.full(vault, ["cell"])
            #expect(full.count == 2)
            #expect(Self.places(Self.quick(vault, ["cell"])) == Self.places(full))
            // An edit: the quick way reads the note again and finds the new word, not the old one.
            try dir.write("Biology/cells.md", "---\ndeck: Biology\n---\n\nRibosomes make proteins.\n")
            #expect(Self.quick(vault, ["ribosomes"])?.map(\.path) == ["Biology/cells.md"])
            #expect(Self.quick(vault, ["nucleus"])?.isEmpty == true)
            let quick = Self.places(Self.quick(vault, ["cell"]))
            #expect(quick == Self.places(try Self.full(vault, ["cell"])))
            // The index cache written by another command (the search index left behind): the
            // changed note is read by the quick way itself.
            try dir.write("Biology/cells.md", "---\ndeck: Biology\n---\n\nLysosomes digest waste.\n")
            _ = LoadedVault(vault)
            #expect(Self.quick(vault, ["lysosomes"])?.map(\.path) == ["Biology/cells.md"])
            #expect(Self.quick(vault, ["ribosomes"])?.isEmpty == true)
        }
    }

    @Test func aNoteRemovedOrAddedIsTakenInOrOut() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.full(vault, ["cell"])
            try dir.remove("Spanish/words.md")
            #expect(Self.quick(vault, ["cell"])?.map(\.path) == ["Biology/cells.md"])
            try dir.write("Spanish/more.md", "---\ndeck: Spanish\n---\n\nA cell :: una célula\n")
            let quick = Self.places(Self.quick(vault, ["cell"]))
            let full = Self.places(try Self.full(vault, ["cell"]))
            #expect(quick?.count == 2 && quick == full)
        }
    }

    /// More notes changed than the quick way brings up to date: the full search's work.
    @Test func manyChangesAreLeftToTheFullSearch() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.full(vault, ["cell"])
            for n in 0...QuickSearch.maximumChanged { try dir.write("Many/n\(n).md", "A cell number \(n).\n") }
            #expect(Self.quick(vault, ["cell"]) == nil)
            #expect(try Self.full(vault, ["cell"]).count == 10)
            #expect(Self.quick(vault, ["cell"])?.count == 10)
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
    /// the vault, or a planted row): taken out before the index is queried, never shown.
    @Test func anIndexHoldingOtherNotesIsBroughtToTheVault() throws {
        try withTempDir { dir in
            let vault = try Self.vault(dir)
            _ = try Self.full(vault, ["cell"])
            let index = try SearchIndex(path: dir.full(VaultSearch.indexFile))
            #expect(try index.digests().count == 2)
            try index.update(path: "Elsewhere/planted.md", digest: 7,
                             chunks: [Chunk(kind: .prose, path: "Elsewhere/planted.md", lines: 1...1, headingPath: [], text: "cell planted")])
            #expect(Self.quick(vault, ["planted"])?.isEmpty == true)
            #expect(try index.digests().count == 2)
        }
    }
}
