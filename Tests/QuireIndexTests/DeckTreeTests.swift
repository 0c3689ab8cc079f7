@testable import QuireIndex
import Testing
import QuireModel
@testable import QuireTestSupport

@Suite struct DeckTreeTests {
    private func build(_ dir: TempDir) throws -> VaultIndex {
        let due = "state: review, due: 2026-11-01, reps: 1, lapses: 0"
        func write(_ path: String, _ front: String, _ body: String, states: [String: String]) throws {
            let bare = try #require(parse(body, path: path).note)
            let lines = bare.cards.compactMap { c in states[c.front].map { "  \(c.id): {fp: \(c.fingerprint), \($0)}" } }
            try dir.write(path, "---\n\(front)" + (lines.isEmpty ? "" : "quire:\n" + lines.joined(separator: "\n") + "\n") + "---\n" + body)
        }
        try write("Biology/Cells/a.md", "tags: [exam, bio/cells]\n", "n1 :: x\nd1 :: x\nl1 :: x\ns1 :: x\n", states: [
            "d1": due, "l1": "state: learning, due: 2026-11-23, reps: 1, lapses: 0",
            "s1": due + ", suspended: true",
        ])
        try write("Biology/Cells/b.md", "tags: Exam\n", "n2 :: x\n", states: [:])
        try write("Biology/c.md", "", "d2 :: x\n#bio\n", states: ["d2": due])
        try write("root.md", "archived: true\n", "d3 :: x\n", states: ["d3": due])
        try write("Chemistry/Acids/x.md", "deck: Chemistry\n", "a ::: b\n", states: [:])
        return VaultIndex.build(root: dir.path)
    }

    @Test func countsIncludeSubDecks() throws {
        try withTempDir { dir in
            let index = try build(dir)
            #expect(index.diagnostics.isEmpty)
            let tree = index.deckTree(now: fixedNow, dayEnd: fixedNow)
            #expect(tree.map(\.path.description) == ["Biology", "Chemistry", "Default"])
            let biology = tree[0]
            #expect(biology.counts == DeckCounts(notes: 3, cards: 6, new: 2, due: 2, learning: 1, suspended: 1))
            #expect(biology.children.map(\.path.description) == ["Biology/Cells"])
            #expect(biology.children[0].counts == DeckCounts(notes: 2, cards: 5, new: 2, due: 1, learning: 1, suspended: 1))
            #expect(biology.children[0].children.isEmpty)
            #expect(tree[1].counts == DeckCounts(notes: 1, cards: 2, new: 2, due: 0, learning: 0, suspended: 0))
            #expect(tree[1].children.isEmpty)
            // An archived note's cards are never due.
            #expect(tree[2].counts == DeckCounts(notes: 1, cards: 1, new: 0, due: 0, learning: 0, suspended: 0))
        }
    }

    @Test func tagCounts() throws {
        try withTempDir { dir in
            let counts = try build(dir).tagCounts()
            #expect(counts.map(\.tag.name) == ["bio", "bio/cells", "exam"])
            #expect(counts.map(\.notes) == [1, 1, 2])
            #expect(counts.map(\.cards) == [1, 4, 5])
        }
    }
}
