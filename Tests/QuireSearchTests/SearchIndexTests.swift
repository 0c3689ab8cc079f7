import Foundation
import Testing
import QuireModel
@testable import QuireSearch
@testable import QuireTestSupport

/// The full-text index: English stemming, accents ignored, prefixes and phrases, CJK by substring,
/// notes replaced and removed, and whatever the user types taken as words.
@Suite struct SearchIndexTests {
    func index(_ dir: TempDir, _ notes: [(String, String)]) throws -> SearchIndex {
        let index = try SearchIndex(path: dir.full("search.sqlite"))
        for (path, text) in notes {
            let note = try #require(parse(text, path: path).note)
            try index.update(path: path, digest: note.contentDigest, chunks: NoteChunker.chunks(of: note, bytes: Array(text.utf8)))
        }
        return index
    }

    static let notes = [
        ("Biology/cells.md", "# Cells\n\nThe mitochondria are running the cell's power plant.\n\nWhat does ATP store? :: energy\n"),
        ("Languages/fr.md", "# Français\n\nUn café au lait, s'il vous plaît.\n"),
        ("Chinese/plants.md", "# 植物\n\n叶绿体进行光合作用。线粒体产生能量。\n"),
        ("Notes/runs.md", "# Running\n\nShe runs every morning; a long run clears the mind.\n"),
    ]

    @Test func wordsStemsAccentsPrefixesAndPhrases() throws {
        try withTempDir { dir in
            let index = try index(dir, Self.notes)
            // Stemming: "run" finds running and runs.
            let run = try index.search("run")
            #expect(Set(run.map(\.path)) == ["Biology/cells.md", "Notes/runs.md"], "\(run)")
            #expect(run.first?.path == "Notes/runs.md", "the note about running ranks first")
            // Accents ignored both ways.
            #expect(try index.search("cafe").map(\.path) == ["Languages/fr.md"])
            #expect(try index.search("CAFÉ").map(\.path) == ["Languages/fr.md"])
            // A prefix and a phrase.
            #expect(try index.search("mitochon*").map(\.path) == ["Biology/cells.md"])
            #expect(try index.search("\"power plant\"").map(\.path) == ["Biology/cells.md"])
            #expect(try index.search("\"plant power\"").isEmpty)
            // Every word is required; a card is a hit of its own, with its ID and lines.
            let atp = try index.search("ATP energy")
            #expect(atp.count == 1 && atp.first?.card != nil && atp.first?.lines == 5...5, "\(atp)")
            // Snippets mark the words found; citations carry the heading path.
            let hit = try #require(try index.search("mitochondria").first)
            #expect(hit.snippet.contains(SearchIndex.marks.open + "mitochondria" + SearchIndex.marks.close))
            #expect(hit.headingPath == ["Cells"] && hit.lines == 3...3)
        }
    }

    /// Hyphenated and closed-up words find each other, and British and American spellings do.
    @Test func hyphensAndSpellingsFold() throws {
        try withTempDir { dir in
            let index = try index(dir, [("ml.md", "# Models\n\nThe bias-variance trade-off of a flexible model.\n"),
                                        ("uk.md", "# Colour\n\nWe organise the centre of the catalogue.\n"),
                                        ("us.md", "# Plain\n\nA tradeoff written closed up.\n")])
            #expect(Set(try index.search("tradeoff").map(\.path)) == ["ml.md", "us.md"])
            #expect(Set(try index.search("trade-off").map(\.path)) == ["ml.md", "us.md"])
            #expect(try index.search("biasvariance").map(\.path) == ["ml.md"])
            #expect(try index.search("bias variance").map(\.path) == ["ml.md"])
            for american in ["color", "organize", "center", "catalog"] { #expect(try index.search(american).map(\.path) == ["uk.md"], "\(american)") }
            #expect(try index.variants(of: "tradeoff") == ["tradeoff", "trade off"])
            #expect(try index.variants(of: "trade-off") == ["trade-off", "tradeoff"])
            #expect(try index.variants(of: "mitochondrion") == ["mitochondrion"])
        }
    }

    /// A question typed as a user types it: its common words are not required.
    @Test func commonWordsAreNotRequired() throws {
        try withTempDir { dir in
            let index = try index(dir, [("embed.md", "# Embeds\n\nTo embed a note in another, write its name between double brackets.\n")])
            #expect(try index.search("how do I embed a note").map(\.path) == ["embed.md"])
            #expect(try index.search("how do I embed a table").isEmpty)
            // Common words alone are still looked for, and a phrase keeps them.
            #expect(try index.search("in another").map(\.path) == ["embed.md"])
            #expect(try index.search("\"a note in\"").map(\.path) == ["embed.md"])
        }
    }

    @Test func cjkTextIsFoundBySubstring() throws {
        try withTempDir { dir in
            let index = try index(dir, Self.notes)
            #expect(try index.search("光合作用").map(\.path) == ["Chinese/plants.md"])
            #expect(try index.search("能量").map(\.path) == ["Chinese/plants.md"], "two characters: scanned")
            #expect(try index.search("光合作用 线粒体").map(\.path) == ["Chinese/plants.md"])
            #expect(try index.search("量子").isEmpty)
        }
    }

    /// The mark that the index holds exactly some notes: kept until the next write, read with the
    /// hits in one transaction, and the hits only of notes the index lists.
    @Test func aSyncedMarkHoldsUntilTheNextWrite() throws {
        try withTempDir { dir in
            let index = try index(dir, Self.notes)
            #expect(try index.isSynced(42) == false && index.searchMarked("mitochondria", limit: 5).token == nil)
            let (stored, changes) = try index.digestsAndChanges()
            #expect(stored.count == 4)
            try index.markSynced(42, asOf: changes - 1)
            #expect(try index.isSynced(42) == false, "a write came between: not marked")
            try index.markSynced(42, asOf: changes)
            #expect(try index.isSynced(42) && !index.isSynced(43))
            let marked = try index.searchMarked("mitochondria", limit: 5)
            #expect(marked.token == 42 && marked.hits.map(\.path) == ["Biology/cells.md"])
            // A row planted without a write Quire counts: never a hit.
            try index.db.execute("INSERT INTO info (path, first, last, card, hash) VALUES ('Elsewhere/planted.md', 1, 1, NULL, 1)")
            try index.db.execute("INSERT INTO chunks (rowid, text, heading) VALUES (last_insert_rowid(), 'mitochondria quokka', '')")
            #expect(try index.search("quokka").map(\.path) == ["Elsewhere/planted.md"])
            #expect(try index.searchMarked("quokka", limit: 5).hits.isEmpty)
            #expect(try index.searchMarked("mitochondria", limit: 5).hits.map(\.path) == ["Biology/cells.md"])
            try index.remove(path: "Notes/runs.md")
            #expect(try index.isSynced(42) == false && index.searchMarked("mitochondria", limit: 5).token == nil)
        }
    }

    @Test func notesAreReplacedAndRemoved() throws {
        try withTempDir { dir in
            let index = try index(dir, Self.notes)
            let edited = "# Cells\n\nChloroplasts capture light.\n"
            let note = try #require(parse(edited, path: "Biology/cells.md").note)
            try index.update(path: "Biology/cells.md", digest: 42, chunks: NoteChunker.chunks(of: note, bytes: Array(edited.utf8)))
            #expect(try index.search("mitochondria").isEmpty)
            #expect(try index.search("chloroplasts").map(\.path) == ["Biology/cells.md"])
            #expect(try index.digest(of: "Biology/cells.md") == 42)
            try index.remove(path: "Biology/cells.md")
            #expect(try index.search("chloroplasts").isEmpty && (try index.digest(of: "Biology/cells.md")) == nil)
            #expect(try index.paths() == ["Chinese/plants.md", "Languages/fr.md", "Notes/runs.md"])
            // The index is a file: it opens again with its notes.
            let again = try SearchIndex(path: dir.full("search.sqlite"))
            #expect(try again.search("cafe").map(\.path) == ["Languages/fr.md"])
        }
    }

    /// FTS5's own syntax typed by a user is searched for as words, never run.
    @Test func whateverIsTypedIsWords() throws {
        try withTempDir { dir in
            let index = try index(dir, Self.notes)
            for hostile in ["text:café", "NEAR(run morning)", "run OR café", "\"unclosed", "a\"b", "*", "-run", "(", "%_\\", "^run", "光\"合"] {
                _ = try index.search(hostile)
            }
            #expect(try index.search("run OR café").isEmpty, "OR is a word here, and no note holds all three")
            #expect(try index.search("   ").isEmpty)
        }
    }
}
