@testable import QuireReview
import Foundation
import Testing
import QuireModel
@testable import QuireIndex
@testable import QuireTestSupport

@Suite struct ReviewWriterUndoTests {
    @Test(arguments: [
        "Q: One?\nA: Two.\n",
        "\u{FEFF}---\r\ntitle: Windows   # note\r\nquire:\r\n  other00000aa: {state: review, reps: 3, lapses: 0}\r\n---\r\nQ: One?\r\nA: Two.\r\n",
        "---\ntitle: 'Quoted'\ntags:\n  - a\n---\n\nQ: One?\nA: Two.\n",
    ])
    func undoRestoresTheFileByteForByte(_ text: String) throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, notes: ["n.md": text])
            let card = try #require(v.cards("n.md").first)
            let w = try v.writer()
            _ = try w.grade(card.id, .good, inNote: "n.md", at: at(20))
            let afterFirst = try dir.read("n.md")
            _ = try w.grade(card.id, .again, inNote: "n.md", at: at(22))
            let u1 = try w.undoLast(at: at(22, 9, 1))
            #expect(u1.exact && u1.path == "n.md")
            #expect(u1.undone.action == .grade(.again))
            #expect(try dir.read("n.md") == afterFirst)
            let u2 = try w.undoLast(at: at(22, 9, 2))
            #expect(u2.undone.action == .grade(.good) && u2.state == nil)
            #expect(try dir.text("n.md") == text)
            #expect(throws: ReviewError.self) { try w.undoLast(at: at(22, 9, 3)) }
            #expect(v.replay().differences.isEmpty)
            let lines = try v.logLines()
            #expect(lines.count == 4)
            let id = try #require(eventID(lines[1]))
            #expect(lines[2] == "2026-11-22T09:01:00.000Z undo \(card.id) of=2026-11-22T09:00:00.000Z of-id=\(id) path=n.md")
        }
    }

    @Test func undoAfterTheFrontMatterChangedRestoresOnlyTheCardsState() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let path = "Biology/organelles.md"
            let card = try #require(v.cards(path).first)
            let w = try v.writer()
            _ = try w.grade(card.id, .good, inNote: path, at: at(20))
            let stateAfterFirst = try v.cards(path).first?.schedule
            _ = try w.grade(card.id, .good, inNote: path, at: at(21))
            // The user edits the front matter in another editor.
            try dir.write(path, try dir.text(path).replacingOccurrences(of: "title: Organelles", with: "title: Cell organelles"))
            let u = try w.undoLast(at: at(21, 10))
            #expect(!u.exact)
            let now = try dir.text(path)
            #expect(now.contains("title: Cell organelles"))
            #expect(try v.cards(path).first?.schedule == stateAfterFirst)
            #expect(v.replay().differences.isEmpty)
        }
    }

    @Test func undoFindsACardThatMovedToAnotherNote() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, notes: ["a.md": "Q: Moving card?\nA: Yes.\n"])
            let card = try #require(v.cards("a.md").first)
            let w = try v.writer()
            _ = try w.grade(card.id, .good, inNote: "a.md", at: at(20))
            // The note is renamed (git mv): the scheduling line moves with it.
            try FileManager.default.moveItem(atPath: dir.full("a.md"), toPath: dir.full("b.md"))
            #expect(throws: ReviewError.self) { try w.undoLast(at: at(21)) }
            let u = try w.undoLast(at: at(21)) { $0 == card.id ? "b.md" : nil }
            #expect(u.path == "b.md")
            #expect(try dir.text("b.md") == "Q: Moving card?\nA: Yes.\n")
        }
    }

    @Test func undoSkipsOtherDevicesReviews() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, notes: ["a.md": "Q: One?\nA: Two.\n\nQ: Three?\nA: Four.\n"])
            let cards = try v.cards("a.md")
            let mine = try v.writer()
            let theirs = ReviewWriter(vault: v.vault, config: VaultConfig(), device: "other001")
            _ = try mine.grade(cards[0].id, .good, inNote: "a.md", at: at(20))
            _ = try theirs.grade(cards[1].id, .good, inNote: "a.md", at: at(21))
            let u = try mine.undoLast(at: at(22))
            #expect(u.undone.card == cards[0].id)
            #expect(!u.exact)  // the other device's grade changed the front matter since
            let now = try v.cards("a.md")
            #expect(now[0].schedule == nil)
            #expect(now[1].schedule?.reps == 1)
            #expect(v.replay().differences.isEmpty)
        }
    }
}
