@testable import QuireStudy
import Foundation
import Testing
import QuireModel
import QuireScheduling
import QuireWatch
@testable import QuireTestSupport
import QuireIndex

/// A session taking in notes edited on disk while it runs, as the review screen does with the
/// watcher's batches (here real files, and the real watcher in the last test).
@Suite struct ReviewControllerChangesTests {
    private func session(_ g: GradingVault) throws -> ReviewController {
        let index = g.vault.index(concurrency: 1)
        let note = try #require(index.notes.first)
        let entries = note.cards.map { StudySession.Entry(card: $0.id, path: note.path, section: .new) }
        return ReviewController(writer: try g.writer(), index: index, entries: entries, dayEnd: at(23))
    }

    @Test func anEditedCardShowsItsNewTextAndADeletedOneIsSkipped() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var controller = try session(g)
            let next = controller.next(at: at(22))
            let first = try #require(next)
            #expect(controller.card(first)?.card.back == "The mitochondrion.")
            // The answer is corrected (same question: the card keeps its place), and the ribosome
            // card is deleted.
            let edited = GradingVault.biology.replacingOccurrences(of: "A: The mitochondrion.", with: "A: The mitochondrion (mostly).")
                .replacingOccurrences(of: "Ribosome :: the site of protein synthesis.\n", with: "")
            try dir.write("Biology/organelles.md", edited)
            let taken = controller.takeIn([.changed("Biology/organelles.md")]) { _, _ in nil }
            #expect(taken.reread == ["Biology/organelles.md"])
            #expect(taken.gone.count == 1)
            #expect(taken.renamed.count == 1)
            let ids = try g.cards("Biology/organelles.md").map(\.id)
            #expect(controller.session.pending.allSatisfy { ids.contains($0.card) })
        }
    }

    @Test func theSessionsOwnWriteIsNotAChange() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var controller = try session(g)
            let next = controller.next(at: at(22))
            let first = try #require(next)
            try controller.answer(first, .good, at: at(22), milliseconds: 1000)
            let taken = controller.takeIn([.changed("Biology/organelles.md")]) { _, _ in .reviewing }
            #expect(taken.isEmpty)
        }
    }

    @Test func aCardThatBecameDueElsewhereJoinsAndADeletedNoteLeaves() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir, notes: ["Biology/organelles.md": GradingVault.biology, "other.md": "x :: y\n"])
            var controller = try session(g)
            let before = controller.session.leftCount
            try dir.write("new.md", "joining :: card\n")
            var taken = controller.takeIn([.changed("new.md")]) { card, _ in card.front == "joining" ? .reviewing : nil }
            #expect(taken.joined.count == 1)
            #expect(controller.session.leftCount == before + 1)
            let joined = try #require(controller.session.pending.last)
            #expect(controller.card(joined)?.card.back == "card")
            try dir.remove("Biology")
            taken = controller.takeIn([.removed("Biology/organelles.md")]) { _, _ in nil }
            #expect(taken.gone.count == before)
            #expect(controller.session.leftCount == 1)
        }
    }

    @Test func theWatcherDeliversAnEditorsSaveToTheSession() throws {
        try withTempDir { dir in
            let g = try GradingVault.make(dir)
            var controller = try session(g)
            let watcher = InotifyWatcher(root: dir.path)
            try watcher.start()
            defer { watcher.stop() }
            let next = controller.next(at: at(22))
            let first = try #require(next)
            // An editor's save: a temporary file renamed over the note.
            let edited = GradingVault.biology.replacingOccurrences(of: "A: The mitochondrion.", with: "A: Mitochondria.")
            try dir.write("Biology/.organelles.md.swp", edited)
            try FileManager.default.removeItem(atPath: dir.full("Biology/organelles.md"))
            try FileManager.default.moveItem(atPath: dir.full("Biology/.organelles.md.swp"), toPath: dir.full("Biology/organelles.md"))
            let batch = try #require(try watcher.next(timeout: .seconds(2)))
            let taken = controller.takeIn(batch) { _, _ in nil }
            // The card's ID is made from its text, so the edit gave it a new one; the session
            // follows it.
            let renamed = try #require(taken.renamed.first)
            #expect(renamed.old == first.card)
            #expect(taken.gone.isEmpty)
            var current = first
            current.card = renamed.new
            #expect(controller.card(current)?.card.back == "Mitochondria.")
            #expect(controller.session.pending.first?.card == renamed.new)
        }
    }
}
