@testable import QuireReview
import Foundation
import Testing
import QuireModel
import QuireScheduling
@testable import QuireParsing
@testable import QuireTestSupport

@Suite struct ReviewWriterTests {
    private let path = "Biology/organelles.md"

    @Test func gradeAppendsTheLogLineThenChangesOnlyTheCardsLine() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let before = try dir.text(path)
            let outcome = try v.writer().grade(card.id, .good, inNote: path, at: at(22), answerMilliseconds: 6400)
            #expect(outcome.wrote)
            let expected = FSRSScheduler().next(nil, rating: .good, at: at(22), card: card.id)
            let after = try #require(outcome.changes.first?.after)
            #expect(after.sameSchedule(as: expected.stored))
            #expect(after.fingerprint == card.fingerprint)
            // Exactly one line (and a blank line after it) was added to the front matter; the comment
            // and the body are intact.
            let text = try dir.text(path)
            let line = "  \(card.id): {fp: \(card.fingerprint), state: learning, step: 1, due: 2026-11-22T09:10:00Z, last: 2026-11-22T09:00:00Z, stability: 2.3065, difficulty: 2.1181, reps: 1, lapses: 0}"
            #expect(text == before.replacingOccurrences(of: "tags: [biology]   # keep this comment\n",
                                                        with: "tags: [biology]   # keep this comment\nquire:\n\(line)\n\n"))
            let snapshot = SettingsSnapshot.id(of: SchedulerSettings())
            let lines = try v.logLines()
            let id = try #require(lines.first.flatMap(eventID))
            #expect(lines == [
                "2026-11-22T09:00:00.000Z grade \(card.id) good id=\(id) sched=fsrs cfg=\(snapshot) ms=6400 path=Biology/organelles.md",
            ])
            #expect(try dir.text(SettingsSnapshot.path(id: snapshot)) == SettingsSnapshot.text(of: SchedulerSettings()))
            #expect(try dir.entries(SettingsSnapshot.folder) == [snapshot + ".yaml"])
            #expect(v.replay().differences.isEmpty)
        }
    }

    @Test func theNextGradeReadsTheStoredStateBack() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let w = try v.writer()
            var live: SchedulingState?
            for (i, rating) in [Rating.good, .good, .again, .good, .easy, .hard].enumerated() {
                let time = at(1 + i * 4, 9, i * 7)
                _ = try w.grade(card.id, rating, inNote: path, at: time)
                live = FSRSScheduler().next(live, rating: rating, at: time, card: card.id).stored
            }
            let stored = try #require(v.cards(path).first?.schedule)
            #expect(stored.sameSchedule(as: try #require(live)))
            #expect(stored.reps == 6 && stored.lapses == 1)
        }
    }

    @Test func crlfAndBOMFilesKeepTheirBytes() throws {
        try withTempDir { dir in
            let text = "\u{FEFF}---\r\ntitle: Windows\r\n---\r\nQ: One?\r\nA: Two.\r\n"
            let v = try GradingVault.make(dir, notes: ["w.md": text])
            let card = try #require(v.cards("w.md").first)
            _ = try v.writer().grade(card.id, .easy, inNote: "w.md", at: at(22))
            let after = try dir.text("w.md")
            #expect(after.hasPrefix("\u{FEFF}---\r\ntitle: Windows\r\nquire:\r\n  \(card.id): {"))
            #expect(after.hasSuffix("}\r\n\r\n---\r\nQ: One?\r\nA: Two.\r\n"))
            #expect(!after.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        }
    }

    @Test func threeButtonDecksRefuseHard() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, config: "decks:\n  Biology:\n    buttons: 3\n")
            let card = try #require(v.cards(path).first)
            let before = try dir.read(path)
            #expect(throws: ReviewError.self) { try v.writer().grade(card.id, .hard, inNote: path, at: at(22)) }
            #expect(try dir.read(path) == before)
            #expect(try v.logLines().isEmpty)
        }
    }

    @Test func deckOverridesPickTheScheduler() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, config: "decks:\n  Biology:\n    scheduler: sm2\n")
            let card = try #require(v.cards(path).first)
            let outcome = try v.writer().grade(card.id, .good, inNote: path, at: at(22))
            #expect(outcome.changes.first?.after?.ease == 2.5)
            #expect(outcome.changes.first?.after?.interval == 1)
            #expect(outcome.events.first?.field("sched") == "sm2")
        }
    }

    @Test func aCardThatIsNotInTheNoteIsAnErrorAndNothingIsWritten() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let before = try dir.read(path)
            let missing = try #require(CardID("zzzzzzzzzzzz"))
            #expect(throws: ReviewError.self) { try v.writer().grade(missing, .good, inNote: path, at: at(22)) }
            #expect(try dir.read(path) == before)
            #expect(try v.logLines().isEmpty)
        }
    }

    @Test func anUnreadableNoteIsAnErrorWithItsLocation() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir, notes: ["bad.md": "---\ntitle: [unclosed\n---\nQ: a?\nA: b.\n"])
            do {
                _ = try v.writer().grade(try #require(CardID("aaaaaaaaaaaa")), .good, inNote: "bad.md", at: at(22))
                Issue.record("expected an error")
            } catch {
                #expect("\(error)".hasPrefix("bad.md:3:1: error:"))
            }
            #expect(try v.logLines().isEmpty)
        }
    }

    @Test func bulkEventsOnOneNoteAreOneWrite() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let cards = try v.cards(path)
            let requests = cards.map { ReviewWriter.Request(card: $0.id, action: .suspend) }
            let outcome = try v.writer().record(requests, inNote: path, at: at(22))
            #expect(outcome.changes.count == cards.count)
            #expect(try v.cards(path).allSatisfy { $0.schedule?.suspended == true && $0.state == .new })
            #expect(try v.logLines().count == cards.count)
            // Suspending again changes nothing, so nothing is logged or written.
            let again = try v.writer().record(requests, inNote: path, at: at(23))
            #expect(!again.wrote)
            #expect(try v.logLines().count == cards.count)
        }
    }

    @Test func dryRunWritesNothing() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let card = try #require(v.cards(path).first)
            let before = try dir.read(path)
            let outcome = try v.writer().record([.init(card: card.id, action: .bury(until: at(23, 4)))], inNote: path,
                                                at: at(22), dryRun: true)
            #expect(outcome.diff?.contains("+  \(card.id): {fp: \(card.fingerprint), state: new, reps: 0, lapses: 0, buried: 2026-11-23T04:00:00Z}") == true)
            #expect(try dir.read(path) == before)
            #expect(try v.logLines().isEmpty)
        }
    }

    @Test func resetRemovesTheLineButKeepsSuspension() throws {
        try withTempDir { dir in
            let v = try GradingVault.make(dir)
            let cards = try v.cards(path)
            let w = try v.writer()
            _ = try w.grade(cards[0].id, .good, inNote: path, at: at(20))
            _ = try w.grade(cards[1].id, .good, inNote: path, at: at(20))
            _ = try w.record([.init(card: cards[1].id, action: .suspend)], inNote: path, at: at(20, 10))
            _ = try w.record([.init(card: cards[0].id, action: .reset), .init(card: cards[1].id, action: .reset)],
                             inNote: path, at: at(21))
            let now = try v.cards(path)
            #expect(now[0].schedule == nil)
            #expect(now[1].schedule?.suspended == true && now[1].schedule?.reps == 0)
            #expect(try dir.text(path).contains("\(cards[0].id)") == false)
            #expect(v.replay().differences.isEmpty)
        }
    }

    @Test func noteAfterIsWhatTheWrittenFileParsesToAndKnownNotesSkipTheParse() throws {
        try withTempDir { dir in
            let notes = ["plain.md": "Q: One?\nA: Two.\n\nThree :: four\n",
                         "crlf.md": "\u{FEFF}---\r\ntitle: W\r\n---\r\nQ: One?\r\nA: Two.\r\n\r\nThe {{c1::cloze}} {{c2::two}}.\r\n"]
            let v = try GradingVault.make(dir, notes: notes)
            let w = try v.writer()
            func summary(_ n: Note) -> [String] {
                ["\(n.byteCount) \(n.contentDigest)"] + n.cards.map { "\($0.id) \($0.lines) \($0.column) \($0.fingerprint) \(String(describing: $0.schedule))" }
            }
            for path in notes.keys.sorted() {
                var known: Note? = nil
                for (i, rating) in [Rating.good, .again, .good, .easy, .hard, .good].enumerated() {
                    let cards = try v.cards(path)
                    let card = cards[i % cards.count]
                    let outcome = try w.grade(card.id, rating, inNote: path, at: at(1 + i), known: known)
                    let parsed = try #require(NoteParser.parse(try dir.read(path), path: path).note)
                    #expect(summary(outcome.noteAfter) == summary(parsed), "\(path) after grade \(i)")
                    known = outcome.noteAfter
                }
            }
            // A stale known note (the file changed since) is not trusted.
            let parsed = try #require(NoteParser.parse(try dir.read("plain.md"), path: "plain.md").note)
            try dir.write("plain.md", try dir.text("plain.md") + "\nQ: Added?\nA: Yes.\n")
            let added = try #require(try v.cards("plain.md").last)
            let outcome = try w.grade(added.id, .good, inNote: "plain.md", at: at(20), known: parsed)
            #expect(outcome.wrote)
        }
    }
}
