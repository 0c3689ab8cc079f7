@testable import QuireIndex
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireParsing
@testable import QuireTestSupport

/// Every way of changing one file, checked against a full build of the vault as it is after.
@Suite struct VaultIndexUpdateTests {
    private func full(_ dir: TempDir) -> VaultIndex { VaultIndex.build(root: dir.path, concurrency: 1) }

    private func reparse(_ dir: TempDir, _ path: String, into index: inout VaultIndex) -> NoteUpdate {
        guard let (bytes, stamp) = try? FileIO().read(dir.full(path)) else { return index.remove(path: path) }
        let parsed = NoteParser.parse(bytes, path: path)
        return index.update(path: path, note: parsed.note, stamp: stamp, diagnostics: parsed.diagnostics)
    }

    private func expectSame(_ a: VaultIndex, _ b: VaultIndex, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.notes.map(dump) == b.notes.map(dump), sourceLocation: sourceLocation)
        #expect(a.diagnostics == b.diagnostics, sourceLocation: sourceLocation)
        #expect(a.cardCount == b.cardCount, sourceLocation: sourceLocation)
        #expect(a.stamps == b.stamps, sourceLocation: sourceLocation)
        for (n, note) in b.notes.enumerated() {
            for (c, card) in note.cards.enumerated() where b.location(exactly: card.id) == CardLocation(note: n, card: c) {
                #expect(a.location(exactly: card.id) == CardLocation(note: n, card: c), sourceLocation: sourceLocation)
            }
        }
    }

    @Test func editAddRemoveAndBreakMatchAFullBuild() throws {
        try withTempDir { dir in
            try dir.write("b.md", "one :: 1\n\ntwo :: 2\n")
            try dir.write("d/e.md", "three :: 3\n")
            try dir.write("f.md", "four :: 4\n")
            var index = full(dir)

            try dir.write("b.md", "one :: 1\n\ntwo :: changed\n\nfive :: 5\n")
            var u = reparse(dir, "b.md", into: &index)
            #expect(u.kind == .changed)
            #expect(u.addedCards.count - u.removedCards.count == 1)
            #expect(u.addedCards.count + u.changedCards.count >= 2)
            expectSame(index, full(dir))

            try dir.write("a.md", "first :: 0\n")
            u = reparse(dir, "a.md", into: &index)
            #expect(u.kind == .added && u.addedCards.count == 1)
            expectSame(index, full(dir))

            try dir.write("d/e.md", "---\ntitle: [\n---\n")
            u = reparse(dir, "d/e.md", into: &index)
            #expect(u.kind == .removed && u.diagnostics.count == 1)
            expectSame(index, full(dir))

            try dir.write("d/e.md", "three :: 3\n")
            u = reparse(dir, "d/e.md", into: &index)
            #expect(u.kind == .added)
            expectSame(index, full(dir))

            try dir.remove("f.md")
            u = reparse(dir, "f.md", into: &index)
            #expect(u.kind == .removed && u.removedCards.count == 1)
            expectSame(index, full(dir))

            u = reparse(dir, "a.md", into: &index)
            #expect(u.kind == .unchanged)
            #expect(index.remove(path: "never.md").kind == .unchanged)
            expectSame(index, full(dir))
        }
    }

    @Test func aScheduleChangeIsAChangedCard() throws {
        try withTempDir { dir in
            let body = "Mitochondrion :: the powerhouse of the cell\n"
            let card = try #require(cards(body, path: "a.md").first)
            try dir.write("a.md", noteWithState([storedLine(card, reps: 1)], body: body))
            var index = full(dir)
            try dir.write("a.md", noteWithState([storedLine(card, reps: 2)], body: body))
            let u = reparse(dir, "a.md", into: &index)
            #expect(u.kind == .changed)
            #expect(u.changedCards == [card.id])
            #expect(u.addedCards.isEmpty && u.removedCards.isEmpty)
            expectSame(index, full(dir))
        }
    }

    @Test func duplicateIDsAppearingAndGoingMatchAFullBuild() throws {
        try withTempDir { dir in
            let body = "Mitochondrion :: the powerhouse of the cell\n"
            let card = try #require(cards(body, path: "a.md").first)
            let text = noteWithState([storedLine(card)], body: body)
            try dir.write("a.md", text)
            try dir.write("c.md", "other :: card\n")
            var index = full(dir)
            try dir.write("b-copy.md", text)
            _ = reparse(dir, "b-copy.md", into: &index)
            #expect(index.hasErrors)
            expectSame(index, full(dir))
            try dir.remove("a.md")
            _ = reparse(dir, "a.md", into: &index)
            #expect(!index.hasErrors)
            expectSame(index, full(dir))
        }
    }
}
