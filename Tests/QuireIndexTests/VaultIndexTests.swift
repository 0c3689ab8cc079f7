@testable import QuireIndex
import Testing
import QuireModel
import QuireSupport
import Synchronization
@testable import QuireTestSupport

@Suite struct VaultIndexTests {
    /// A build reports the files it found, then every one of them read, counts in order.
    @Test func aBuildReportsItsProgress() throws {
        try withTempDir { dir in
            for n in 0..<50 { try dir.write("f/\(n).md", "q\(n) :: a\n") }
            try dir.write("broken.md", "---\ntitle: [\n---\n")
            let seen = Mutex<[(Int, Int)]>([])
            let progress = WorkProgress { done, total in seen.withLock { $0.append((done, total)) } }
            _ = VaultIndex.build(root: dir.path, concurrency: 2, progress: progress)
            let reports = seen.withLock { $0 }
            #expect(reports.first.map { $0 == (0, 51) } == true)
            #expect(reports.last.map { $0 == (51, 51) } == true)
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 < $1.0 && $1.1 == 51 })
            #expect(progress.current == (51, 51))
        }
    }

    @Test func aBadFileDoesNotStopOthers() throws {
        try withTempDir { dir in
            try dir.write("good.md", "x :: y\n")
            try dir.write("binary.md", bytes: [0x61, 0, 0x62])
            try dir.write("broken.md", "---\ntitle: [\n---\n")
            try dir.write("z/also-good.md", "a :: b\n\nc :: d\n")
            try dir.write("invalid.md", bytes: Array("ok\n".utf8) + [0xFF])
            let index = VaultIndex.build(root: dir.path, concurrency: 2)
            #expect(index.notes.map(\.path) == ["good.md", "z/also-good.md"])
            #expect(index.cardCount == 3)
            #expect(index.hasErrors)
            #expect(index.stamps.count == 2)
            let errors = index.diagnostics.filter { $0.severity == .error }.map(\.path)
            #expect(errors == ["binary.md", "broken.md", "invalid.md"])
            #expect(index.diagnostics.map(\.description).contains("invalid.md:2:1: error: invalid UTF-8; file skipped"))
        }
    }

    @Test func duplicateStoredIDAcrossFilesIsAnErrorOnTheSecond() throws {
        try withTempDir { dir in
            let body = "Mitochondrion :: the powerhouse of the cell\n"
            let card = try #require(cards(body, path: "a.md").first)
            let text = noteWithState([storedLine(card)], body: body)
            try dir.write("a.md", text)
            try dir.write("b-copy.md", text)
            let index = VaultIndex.build(root: dir.path)
            #expect(index.notes.count == 2)
            #expect(index.cardCount == 1)
            let errors = index.diagnostics.filter { $0.severity == .error }.map(\.description)
            #expect(errors == ["b-copy.md:5:1: error: card ID '\(card.id)' is also used by a.md:5 (a copied file?); this card is left out"])
            // The card left out is not listed twice.
            #expect(index.cards(matching: .all, now: fixedNow, dayEnd: fixedNow).count == 1)
            #expect(index.cardCount(matching: .all, now: fixedNow, dayEnd: fixedNow) == 1)
            #expect(index.location(of: card.id.rawValue) == CardLocation(note: 0, card: 0))
        }
    }

    @Test func sameTextInTwoFilesIsTwoCards() throws {
        try withTempDir { dir in
            try dir.write("a.md", "x :: y\n")
            try dir.write("b.md", "x :: y\n")
            let index = VaultIndex.build(root: dir.path)
            #expect(index.cardCount == 2)
            #expect(!index.hasErrors)
        }
    }

    @Test func lookupByPrefix() throws {
        let notes = [Note(path: "a.md", title: "a", deck: .defaultDeck, cards: [
            Card(id: CardID("abcd1111")!, kind: .basic, variant: .single, front: "", back: "", lines: 1...1, column: 1,
                 headingPath: [], identityText: "", hasExplicitID: true),
            Card(id: CardID("abcd2222")!, kind: .basic, variant: .single, front: "", back: "", lines: 2...2, column: 1,
                 headingPath: [], identityText: "", hasExplicitID: true),
        ])]
        let index = VaultIndex(root: "/", notes: notes)
        #expect(index.location(of: "abcd1") == CardLocation(note: 0, card: 0))
        #expect(index.location(of: "abcd2222") == CardLocation(note: 0, card: 1))
        #expect(index.location(of: "abcd") == nil)   // ambiguous
        #expect(index.location(of: "abc") == nil)    // too short
        #expect(index.location(of: "zzzz") == nil)
    }

    @Test func diagnosticsAreSortedByPathThenLine() throws {
        try withTempDir { dir in
            try dir.write("b.md", "Q: one?\n\nQ: two?\n")
            try dir.write("a.md", "Q: lonely?\n")
            let index = VaultIndex.build(root: dir.path)
            #expect(index.diagnostics.map { "\($0.path):\($0.line ?? 0)" } == ["a.md:1", "b.md:1", "b.md:3"])
        }
    }

    @Test func largeNoteParsesCompletely() throws {
        try withTempDir { dir in
            // About 50 MB: long prose paragraphs with a card after every tenth.
            let filler = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit; ", count: 70)
            var text = "---\ntitle: Big\n---\n"
            text.reserveCapacity(52 << 20)
            var cardCount = 0
            var paragraphs = 0
            var line = 4                  // the line the next paragraph starts on
            var lastAnswerLine = 0
            while text.utf8.count < 50 << 20 {
                text += filler + "\n\n"
                paragraphs += 1
                line += 2
                if paragraphs % 10 == 0 {
                    text += "Term \(cardCount) :: definition number \(cardCount)\n\n"
                    line += 2
                    text += "Q: question \(cardCount)?\nA: answer \(cardCount)\n\n"
                    lastAnswerLine = line + 1
                    line += 3
                    cardCount += 2
                }
            }
            try dir.write("big.md", text)
            let index = VaultIndex.build(root: dir.path)
            #expect(index.diagnostics.isEmpty)
            let note = try #require(index.notes.first)
            #expect(note.byteCount >= 50 << 20)
            #expect(note.cards.count == cardCount)
            #expect(index.cardCount == cardCount)
            #expect(note.cards.last?.back == "answer \(cardCount - 2)")
            #expect(note.cards.last?.lines == (lastAnswerLine - 1)...lastAnswerLine)
        }
    }
}
