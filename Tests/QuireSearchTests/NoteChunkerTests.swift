import Testing
import QuireModel
@testable import QuireSearch
@testable import QuireTestSupport

/// Notes cut into search chunks: by heading, by size between sentences, cards apart, each with
/// its lines and heading path.
@Suite struct NoteChunkerTests {
    func chunks(_ text: String, path: String = "n.md") throws -> [Chunk] {
        let note = try #require(parse(text, path: path).note)
        return NoteChunker.chunks(of: note, bytes: Array(text.utf8))
    }

    @Test func sectionsByHeadingWithTheirLinesAndPaths() throws {
        let text = """
            ---
            title: Cells
            ---
            Intro line.

            # Organelles

            The mitochondrion makes ATP.

            ## Membrane

            A lipid bilayer.
            - with proteins
            """
        let c = try chunks(text)
        // A section's blocks are gathered into one chunk (up to the size limit).
        #expect(c.map(\.text) == ["Intro line.", "The mitochondrion makes ATP.", "A lipid bilayer.\n\n- with proteins"])
        #expect(c.map(\.lines) == [4...4, 8...8, 12...13])
        #expect(c.map(\.headingPath) == [[], ["Organelles"], ["Organelles", "Membrane"]])
        #expect(c.allSatisfy { $0.kind == .prose && $0.path == "n.md" })
    }

    @Test func cardsAreChunksOfTheirOwnAndLeaveTheProse() throws {
        let text = "# Bio\n\nSome prose.\n\nWhat is ATP? :: energy\nla casa ::: the house\nThe {{c1::Krebs}} cycle {{c2::runs}}.\n\nMore prose.\n"
        let c = try chunks(text)
        #expect(c.filter(\.isCard).count == 3, "a pair and a cloze group are one chunk each: \(c)")
        #expect(c.filter { !$0.isCard }.map(\.text) == ["Some prose.\n\nMore prose."])
        #expect(c.first { $0.text.hasPrefix("What is ATP?") }?.text == "What is ATP?\n\nenergy")
        #expect(c.first { $0.text.contains("Krebs") }?.text == "The Krebs cycle runs.")
        #expect(c.map(\.lines.lowerBound) == c.map(\.lines.lowerBound).sorted())
    }

    @Test func longTextIsCutBetweenSentences() throws {
        let sentence = (1...20).map { "word\($0)" }.joined(separator: " ") + "."
        let paragraph = Array(repeating: sentence, count: 40).joined(separator: " ")   // 800 words on one line
        let blocks = (1...30).map { "Block \($0) has five words." }.joined(separator: "\n\n")
        let c = try chunks("# Long\n\n" + paragraph + "\n\n# Many\n\n" + blocks + "\n")
        let long = c.filter { $0.headingPath == ["Long"] }
        #expect(long.count == 3 && long.allSatisfy { $0.words <= NoteChunker.maximumWords && $0.text.hasSuffix(".") })
        #expect(long.map(\.words).reduce(0, +) == 800)
        let many = c.filter { $0.headingPath == ["Many"] }
        #expect(many.count == 1 && many.first?.words == 150)
    }

    @Test func crlfCjkAndWords() throws {
        let c = try chunks("# 细胞\r\n\r\n线粒体产生能量。叶绿体进行光合作用。\r\n")
        #expect(c.map(\.text) == ["线粒体产生能量。叶绿体进行光合作用。"] && c.first?.headingPath == ["细胞"] && c.first?.lines == 3...3)
        #expect(NoteChunker.wordCount("Héllo wörld, 2 cats") == 4 && NoteChunker.wordCount("日本語") == 3)
    }

    /// cmark moves footnote definitions to the end of the tree: a chunk still spans its lines in
    /// the file's order (this crashed on the sample vault).
    @Test func footnotesOutOfTheTreesOrder() throws {
        let c = try chunks("Text with a note.[^1]\n\n[^1]: The footnote.\n\nMore text after it.\n")
        #expect(c.count == 1 && c.first?.lines == 1...5, "\(c)")
    }

    /// A hostile note — a million words in one paragraph, deep headings — is cut in linear time.
    @Test func aHugeParagraphIsCutInLinearTime() throws {
        let text = String(repeating: "a b c d e f g h i j. ", count: 100_000)
        let c = try chunks(text)
        #expect(c.count >= 1_000_000 / (NoteChunker.maximumWords + 10) && c.allSatisfy { $0.words <= NoteChunker.maximumWords })
    }

    /// No chunk passes the hard limit, whatever holds the words: a sentence without an end, a
    /// card's answer, a list, a run of ideographs, words joined by punctuation. Every word is
    /// kept, in order, and each piece keeps its lines (search's snippets cost the square of a
    /// chunk's matches: such a chunk made one search take 27 s).
    @Test func noChunkPassesTheHardLimit() throws {
        let run = String(repeating: "alpha beta ", count: 2_000)          // 4,000 words, no sentence end
        let list = (1...1_500).map { "- item \($0)" }.joined(separator: "\n")
        let ideographs = String(repeating: "細胞", count: 1_000)
        let text = "# A\n\n" + run + "\n\nQ: What?\nA: " + run + "\n\n" + list + "\n\n" + ideographs + "\n\n"
            + String(repeating: "x,", count: 3_000) + "\n"
        let c = try chunks(text)
        #expect(c.allSatisfy { $0.words <= NoteChunker.hardMaximumWords }, "\(c.map(\.words))")
        let card = c.filter(\.isCard)
        let kinds = card.map(\.kind)
        #expect(card.count == 14 && kinds.allSatisfy { $0 == kinds.first })
        #expect(card.allSatisfy { $0.lines == 5...6 })
        #expect(card.map(\.words).reduce(0, +) == 4_001)
        let prose = c.filter { !$0.isCard }
        #expect(prose.map(\.words).reduce(0, +) == 12_000, "4,000 + 3,000 + 2,000 + 3,000")
        // The run's words in order, the pieces on its line; the list's pieces on their own lines.
        #expect(prose.filter { $0.lines == 3...3 }.map(\.text).joined(separator: " ") == run.trimmingSpaces())
        let items = prose.filter { $0.text.hasPrefix("- item") }
        #expect(items.count == 10)
        #expect(items.first?.lines == 8...157)
        #expect(items.last?.lines.upperBound == 1_507)
        #expect(prose.contains { $0.text.hasPrefix("細胞") && $0.words == NoteChunker.maximumWords })
    }

    /// A note of many cards is cut in time linear in them (each line's card looked up once).
    @Test func manyCardsAreCutInLinearTime() throws {
        let text = (0..<50_000).map { "Q: q\($0)?\nA: a\n\nprose \($0)\n" }.joined(separator: "\n")
        let c = try chunks(text)
        #expect(c.filter(\.isCard).count == 50_000)
        #expect(c.filter { !$0.isCard }.map(\.words).reduce(0, +) == 100_000)
    }

    @Test func wordPiecesCutBetweenWordsOnly() {
        #expect(NoteChunker.wordPieces("a b c d e", maximum: 2) == ["a b", "c d", "e"])
        #expect(NoteChunker.wordPieces("one,two;three four", maximum: 2) == ["one,two;", "three four"])
        #expect(NoteChunker.wordPieces("日本語です", maximum: 2) == ["日本", "語で", "す"])
        #expect(NoteChunker.wordPieces("  \n ", maximum: 2).isEmpty)
        // A letter and its combining mark are never parted.
        #expect(NoteChunker.wordPieces("e\u{301} e\u{301} e\u{301}", maximum: 1).map(\.unicodeScalars.count) == [2, 2, 2])
    }
}

/// An imported document's page anchors: each chunk takes the page above it; anchors are not text.
@Suite struct NoteChunkerPageTests {
    @Test func chunksTakeThePageAboveThem() throws {
        let text = "---\ntitle: T\n---\n\n<!-- page 1 -->\n\nFirst page text here.\n\n<!-- page 2 -->\n\n## Two\n\nSecond page text.\n\nterm :: definition\n"
        let note = try #require(parse(text, path: "T.md").note)
        let chunks = NoteChunker.chunks(of: note, bytes: Array(text.utf8))
        #expect(chunks.map(\.page) == [1, 2, 2])
        #expect(chunks.map(\.text) == ["First page text here.", "Second page text.", "term\n\ndefinition"])
        // No anchors: no pages.
        let plain = "# A\n\nText.\n"
        let plainNote = try #require(parse(plain, path: "A.md").note)
        #expect(NoteChunker.chunks(of: plainNote, bytes: Array(plain.utf8)).allSatisfy { $0.page == nil })
    }
}

/// A transcribed recording's time anchors: each chunk takes the time above it; each live note is a
/// chunk of its own with the time it starts with; anchors are not text.
@Suite struct NoteChunkerTimeTests {
    @Test func chunksTakeTheTimeAboveThem() throws {
        let text = "---\ntitle: T\n---\n\n## Live notes\n\n- **0:42** Enzymes lower energy.\n- **1:08** White cells fight infection.\n\n"
            + "## Transcript\n\n<!-- time 0:00 -->\n\n"
            + "### 0:00–0:41\n\nFirst part said here.\n\n<!-- time 1:02:03 -->\n\n### 1:02:03–1:02:40\n\nLater part said here.\n"
        let note = try #require(parse(text, path: "T.md").note)
        let chunks = NoteChunker.chunks(of: note, bytes: Array(text.utf8))
        #expect(chunks.map(\.time) == [42, 68, 0, 3723])
        #expect(chunks.map(\.page) == [nil, nil, nil, nil])
        #expect(chunks.map(\.text) == ["- **0:42** Enzymes lower energy.", "- **1:08** White cells fight infection.",
                                       "First part said here.", "Later part said here."])
        #expect(chunks.map(\.lines) == [7...7, 8...8, 16...16, 22...22])
        #expect(chunks[3].headingPath == ["Transcript", "1:02:03–1:02:40"])
    }

    /// A list that is not all live notes is prose as any other list: one chunk, no time.
    @Test func aListWithOtherItemsIsOneChunk() throws {
        let text = "# Notes\n\n- **0:42** Enzymes lower energy.\n- **Bold** but no time.\n- plain\n"
        let note = try #require(parse(text, path: "N.md").note)
        let chunks = NoteChunker.chunks(of: note, bytes: Array(text.utf8))
        #expect(chunks.count == 1 && chunks[0].time == nil && chunks[0].lines == 3...5)
    }

    @Test func liveNoteClocks() {
        #expect(TimeAnchor.seconds(ofLiveNote: "- **1:08** text") == 68)
        #expect(TimeAnchor.seconds(ofLiveNote: "  * **1:02:03** text") == 3723)
        #expect(TimeAnchor.seconds(ofLiveNote: "- **1:8** text") == nil)
        #expect(TimeAnchor.seconds(ofLiveNote: "- **1:08**text") == nil)
        #expect(TimeAnchor.seconds(ofLiveNote: "-**1:08** text") == nil)
        #expect(TimeAnchor.seconds(ofLiveNote: "- **word** text") == nil)
    }
}
