import Testing
import QuireModel
@testable import QuireSearch
@testable import QuireTestSupport

/// Reciprocal-rank fusion, related notes by shared words, and a watcher's refresh of given paths.
@Suite struct FusionAndRelatedTests {
    static func hit(_ chunk: Int64, _ snippet: String = "") -> SearchHit {
        SearchHit(chunk: chunk, path: "p\(chunk).md", lines: 1...1, headingPath: [], card: nil, snippet: snippet, score: 0)
    }

    @Test func fusionRanksWhatBothListsAgreeOnFirst() {
        let lexical = [Self.hit(1, "\u{1}a\u{2}"), Self.hit(2), Self.hit(3)]
        let semantic = [Self.hit(3), Self.hit(4), Self.hit(1)]
        let fused = SearchIndex.fused([lexical, semantic], limit: 10)
        #expect(fused.map(\.chunk) == [1, 3, 2, 4])
        #expect(abs(fused[0].score - (1.0 / 61 + 1.0 / 63)) < 1e-12)
        // The marked snippet is kept whichever list had it.
        #expect(fused[0].snippet.contains(SearchIndex.marks.open))
        #expect(SearchIndex.fused([lexical, semantic], limit: 2).count == 2)
        #expect(SearchIndex.fused([], limit: 5).isEmpty)
    }

    @Test func relatedByWordsAndRefreshOfPaths() throws {
        try withTempDir { dir in
            let index = try SearchIndex(path: dir.full("s.sqlite"))
            let notes = [
                ("a.md", "# Volcanoes\n\nMagma erupts from volcanoes as lava; volcanic ash and lava flows.\n"),
                ("b.md", "# Lava\n\nLava flows from a volcanic eruption cool into basalt.\n"),
                ("c.md", "# Tea\n\nGreen tea is steeped at eighty degrees.\n"),
            ]
            for (path, text) in notes {
                let note = try #require(parse(text, path: path).note)
                try index.update(path: path, digest: note.contentDigest, chunks: NoteChunker.chunks(of: note, bytes: Array(text.utf8)))
            }
            let related = try index.related(toNote: "a.md", encoder: nil)
            #expect(related.map(\.path) == ["b.md"])
            #expect(try index.related(toNote: "missing.md", encoder: nil).isEmpty)
            // Semantic search without vectors finds nothing (and does not fail).
            #expect(try index.nearest([Float](repeating: 0.05, count: 384)).isEmpty)
        }
    }

    /// Related context is prose: a note's generated cards, their `<!-- generated from … -->`
    /// comments and a stray one-letter line are never a related passage.
    @Test func relatedPassagesAreProse() throws {
        try withTempDir { dir in
            let index = try SearchIndex(path: dir.full("s.sqlite"))
            let notes = [
                ("a.md", "# Volcanoes\n\nMagma erupts from volcanoes as lava; volcanic ash and lava flows.\n"),
                ("cards.md", "# Lava\n\n## Cards\n\n<!-- generated from lava.md:3 -->\nWhat do lava flows from a volcanic eruption cool into? :: basalt\n\n"
                    + "<!-- generated from lava.md:5 -->\n<!-- generated from lava.md:6 -->\n\nr\n\nlava volcanic\n"),
                ("b.md", "# Lava\n\nLava flows from a volcanic eruption cool into basalt rock.\n"),
            ]
            for (path, text) in notes {
                let note = try #require(parse(text, path: path).note)
                try index.update(path: path, digest: note.contentDigest, chunks: NoteChunker.chunks(of: note, bytes: Array(text.utf8)))
            }
            #expect(try index.related(toNote: "a.md", encoder: nil).map(\.path) == ["b.md"])
        }
    }
}
