import Foundation
import Testing
import QuireIndex
import QuireModel
import QuireReview
import QuireSupport
import QuireSystem
import QuireWatch
@testable import QuireServer
@testable import QuireTestSupport
import QuireVault

/// The web page's study logic on a real vault in a temporary folder: sessions, grades written to
/// the note and the log, undo, the other keys, two pages at once, and notes changed on disk.
@Suite struct StudyDeskTests {
    /// A vault of 3 new cards in Biology and 2 in Spanish, made by init (a `.quire/` folder).
    static func vault(_ dir: TempDir) throws -> Vault {
        try dir.write(".quire/config.yaml", "scheduler: fsrs\n")
        try dir.write(".quire/device", "desktest\n")
        try dir.write("Biology/cells.md", "---\ndeck: Biology\n---\n\nWhat makes ATP? :: The mitochondrion\n\nWhat holds DNA? :: The nucleus\n\nWhat makes proteins? :: The ribosome\n")
        try dir.write("Spanish/words.md", "---\ndeck: Spanish\n---\n\nWhat is 'dog' in Spanish? :: perro\n\nWhat is 'cat' in Spanish? :: gato\n")
        return try Vault(root: dir.path)
    }

    static func field(_ value: JSONValue, _ path: String...) -> JSONValue? {
        var v: JSONValue? = value
        for key in path {
            guard case .object(let fields)? = v else { return nil }
            v = fields.first { $0.0 == key }?.1
        }
        return v
    }

    static func string(_ value: JSONValue, _ path: String...) -> String? {
        var v: JSONValue? = value
        for key in path {
            guard case .object(let fields)? = v else { return nil }
            v = fields.first { $0.0 == key }?.1
        }
        if case .string(let s)? = v { return s }
        return nil
    }

    @Test func gradeUndoAndTheOtherKeys() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let desk = try StudyDesk(vault: try Self.vault(dir), cached: false, pinnedNow: at(26))
        let overview = try await desk.overview()
        #expect(Self.field(overview, "plan", "new") == .int(5))
        let first = try await desk.start(deck: "Biology")
        let id = try #require(Self.string(first, "session"))
        let card = try #require(Self.string(first, "card", "id"))
        #expect(Self.string(first, "card", "path") == "Biology/cells.md")
        #expect(Self.string(first, "card", "front")?.contains("What makes ATP?") == true)
        // Good: the note's line gets its schedule, the log its event; the next card comes.
        let second = try await desk.grade(id, card: card, rating: "good")
        #expect(Self.string(second, "message")?.hasPrefix("Good:") == true)
        #expect(Self.string(second, "card", "id") != card)
        #expect(try dir.text("Biology/cells.md").contains("quire:\n  \(card):"))
        #expect(try dir.text(".quire/log/desktest.log").contains(" grade \(card) good "))
        // The same card again (a second click): refused, nothing written.
        await #expect(throws: ServerError.self) { try await desk.grade(id, card: card, rating: "good") }
        #expect(try dir.text(".quire/log/desktest.log").components(separatedBy: " grade ").count == 2)
        // Undo: the card back, the log says so.
        let back = try await desk.undo(id)
        #expect(Self.string(back, "card", "id") == card)
        #expect(try dir.text(".quire/log/desktest.log").contains(" undo \(card) "))
        // Bury and suspend write their keys; skip only moves the card.
        let next = try await desk.act(id, card: card, action: "bury")
        #expect(Self.string(next, "message") == "Buried until tomorrow.")
        let other = try #require(Self.string(next, "card", "id"))
        let skipped = try await desk.act(id, card: other, action: "skip")
        let third = try #require(Self.string(skipped, "card", "id"))
        #expect(third != other)
        _ = try await desk.act(id, card: third, action: "suspend")
        #expect(try dir.text(".quire/log/desktest.log").contains(" suspend \(third) "))
        await #expect(throws: ServerError.self) { try await desk.act(id, card: other, action: "delete") }
        // A rating the card has no button for, and a session that does not exist.
        await #expect(throws: ServerError.self) { try await desk.grade(id, card: other, rating: "perfect") }
        await #expect(throws: ServerError.self) { try await desk.state(of: "nosuchsession") }
    }

    /// The page's search takes query words as the command line does: `deck:Spanish` keeps only
    /// that deck's hits.
    @Test func searchKeepsWhatQueryWordsSelect() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let desk = try StudyDesk(vault: try Self.vault(dir), cached: false, pinnedNow: at(26))
        func paths(_ text: String) async throws -> Set<String> {
            guard case .array(let hits)? = Self.field(try await desk.search(text), "hits") else { return [] }
            return Set(hits.compactMap { Self.string($0, "path") })
        }
        #expect(try await paths("what") == ["Biology/cells.md", "Spanish/words.md"])
        #expect(try await paths("deck:Spanish what") == ["Spanish/words.md"])
        #expect(try await paths("deck:Chemistry what").isEmpty)
    }

    /// A hit read on the page: the note rendered in two parts, cut at the hit's line (front
    /// matter counted, as search cites it); a note the index does not hold is refused.
    @Test func aHitsNoteIsReadOnThePage() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let desk = try StudyDesk(vault: try Self.vault(dir), cached: false, pinnedNow: at(26))
        let note = try await desk.note("Biology/cells.md", line: 7)
        #expect(Self.string(note, "title") != nil && Self.string(note, "path") == "Biology/cells.md")
        let before = try #require(Self.string(note, "before")), from = try #require(Self.string(note, "from"))
        #expect(before.contains("The mitochondrion") && !before.contains("The nucleus") && !before.contains("deck:"), "\(before)")
        #expect(from.hasPrefix("<p>What holds DNA?") && from.contains("The ribosome"), "\(from)")
        await #expect(throws: ServerError.self) { try await desk.note("../Biology/cells.md", line: 1) }
        await #expect(throws: ServerError.self) { try await desk.note("Nowhere.md", line: 1) }
    }

    @Test func twoPagesNeverAnswerOneCardTwice() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let desk = try StudyDesk(vault: try Self.vault(dir), cached: false, pinnedNow: at(26))
        let a = try await desk.start(deck: "Spanish")
        let b = try await desk.start(deck: "Spanish")
        let idA = try #require(Self.string(a, "session")), idB = try #require(Self.string(b, "session"))
        let card = try #require(Self.string(a, "card", "id"))
        #expect(Self.string(b, "card", "id") == card)
        _ = try await desk.grade(idA, card: card, rating: "easy")
        // B's page still shows the card: its grade is refused, and B moves on to the other card.
        await #expect(throws: ServerError.self) { try await desk.grade(idB, card: card, rating: "again") }
        let now = try await desk.state(of: idB)
        #expect(Self.string(now, "card", "id") != card)
        #expect(try dir.text(".quire/log/desktest.log").components(separatedBy: " grade ").count == 2)
    }

    @Test func undoTakesBackThisPagesAnswerOnly() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let desk = try StudyDesk(vault: try Self.vault(dir), cached: false, pinnedNow: at(26))
        let a = try await desk.start(deck: "Biology"), b = try await desk.start(deck: "Spanish")
        let idA = try #require(Self.string(a, "session")), idB = try #require(Self.string(b, "session"))
        let cardA = try #require(Self.string(a, "card", "id")), cardB = try #require(Self.string(b, "card", "id"))
        _ = try await desk.grade(idA, card: cardA, rating: "good")
        _ = try await desk.grade(idB, card: cardB, rating: "easy")
        // Page A's undo takes back A's answer, though B answered last on this device.
        let back = try await desk.undo(idA)
        #expect(Self.string(back, "card", "id") == cardA)
        let log = try dir.text(".quire/log/desktest.log")
        #expect(log.contains(" undo \(cardA) ") && !log.contains(" undo \(cardB) "))
        #expect(try dir.text("Spanish/words.md").contains("quire:\n  \(cardB):"))
    }

    /// The page answers a card, then the terminal (another session of the same device) answers
    /// it too: the page's undo takes back the page's answer only (before, this device's last
    /// answer on the card, the terminal's, went in 29 of 30 rounds of the adversarial trial).
    /// The card's state is then the terminal's answer alone, as `replay` gives it.
    @Test func undoLeavesTheTerminalsLaterAnswerOnTheSameCard() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let vault = try Self.vault(dir)
        let desk = try StudyDesk(vault: vault, cached: false, pinnedNow: at(26))
        let page = try await desk.start(deck: "Biology")
        let id = try #require(Self.string(page, "session"))
        let card = try #require(Self.string(page, "card", "id"))
        _ = try await desk.grade(id, card: card, rating: "good")
        let terminal = ReviewWriter(vault: vault, config: try vault.config().config, device: "desktest")
        _ = try terminal.grade(try #require(CardID(card)), .easy, inNote: "Biology/cells.md", at: Timestamp(milliseconds: at(26).milliseconds + 60_000))
        _ = try await desk.undo(id)
        let log = try dir.text(".quire/log/desktest.log")
        let lines = log.split(separator: "\n")
        let pageGrade = try #require(lines.first { $0.contains(" grade \(card) good ") })
        let terminalGrade = try #require(lines.first { $0.contains(" grade \(card) easy ") })
        let undo = try #require(lines.first { $0.contains(" undo \(card) ") })
        func field(_ line: Substring, _ name: String) -> String? {
            line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        #expect(field(undo, "of-id") == field(pageGrade, "id") && field(undo, "of-id") != field(terminalGrade, "id"))
        // The note holds what the terminal's answer alone gives: replay finds nothing to change.
        let replay = ReviewReplay(vault: vault, index: vault.index(concurrency: 1), config: try vault.config().config)
        #expect(replay.differences.isEmpty && replay.replayedCards == 1, "\(replay.differences.map(\.summary))")
    }

    @Test func explainAndRetryTheFailed() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let vault = try Self.vault(dir)
        try dir.write("Solo/one.md", "---\ndeck: Solo\n---\n# Energy\n\nCells burn glucose for energy.\n\nWhat makes ATP? :: The mitochondrion\n")
        let desk = try StudyDesk(vault: vault, cached: false, pinnedNow: at(26))
        let first = try await desk.start(deck: "Solo")
        let id = try #require(Self.string(first, "session")), card = try #require(Self.string(first, "card", "id"))
        // x: the text the card was made from, as HTML.
        let explained = try await desk.explain(id, card: card)
        #expect(Self.string(explained, "html")?.contains("Cells burn glucose for energy.") == true)
        // Again, the card comes back as a learning step; Good; done; r goes over the failed card again.
        var done = try await desk.grade(id, card: card, rating: "again")
        // Its learning steps come back within the session (learn-ahead): Easy graduates it.
        for _ in 0..<4 where Self.field(done, "done") != .bool(true) { done = try await desk.grade(id, card: card, rating: "easy") }
        #expect(Self.field(done, "done") == .bool(true) && Self.field(done, "summary", "failed") == .int(1))
        let again = try await desk.retry(id)
        #expect(Self.string(again, "card", "id") == card)
    }

    @Test func aNoteChangedOnDiskIsFollowed() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let desk = try StudyDesk(vault: try Self.vault(dir), cached: false, pinnedNow: at(26))
        let first = try await desk.start(deck: "Spanish")
        let id = try #require(Self.string(first, "session"))
        // The card's answer edited in another editor: the page's card shows it.
        try dir.write("Spanish/words.md", "---\ndeck: Spanish\n---\n\nWhat is 'dog' in Spanish? :: el perro\n\nWhat is 'cat' in Spanish? :: gato\n")
        let paths = await desk.takeIn([.changed("Spanish/words.md")])
        #expect(paths == ["Spanish/words.md"])
        let now = try await desk.state(of: id)
        #expect(Self.string(now, "card", "back")?.contains("el perro") == true)
        // The note deleted: nothing of it is left to study.
        try dir.remove("Spanish/words.md")
        _ = await desk.takeIn([.removed("Spanish/words.md")])
        let after = try await desk.state(of: id)
        #expect(Self.field(after, "done") == .bool(true))
        #expect(Self.field(try await desk.overview(), "cards") == .int(3))
    }

    @Test func aTypedAnswerIsComparedAndLogged() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let vault = try Self.vault(dir)
        try dir.write("Typed/words.md", "---\ndeck: Typed\ntype: true\n---\n\nWhat is 'house' in Spanish? :: casa\n")
        let desk = try StudyDesk(vault: vault, cached: false, pinnedNow: at(26))
        let first = try await desk.start(deck: "Typed")
        let id = try #require(Self.string(first, "session")), card = try #require(Self.string(first, "card", "id"))
        #expect(Self.field(first, "card", "type") == .bool(true))
        let checked = try await desk.check(id, card: card, typed: "cosa")
        #expect(Self.field(checked, "correct") == .bool(false))
        #expect(Self.field(checked, "segments") == .array([.array([.string("c"), .string("same")]), .array([.string("a"), .string("missing")]),
                                                            .array([.string("o"), .string("wrong")]), .array([.string("sa"), .string("same")])]))
        _ = try await desk.grade(id, card: card, rating: "again")
        #expect(try dir.text(".quire/log/desktest.log").contains(" grade \(card) again ") && dir.text(".quire/log/desktest.log").contains("typed=cosa"))
        // Other notes' cards are typed only when the server is asked to type every answer.
        let other = try await desk.start(deck: "Spanish")
        #expect(Self.field(other, "card", "type") == .bool(false))
        await desk.typeEveryAnswer(true)
        let typed = try await desk.state(of: try #require(Self.string(other, "session")))
        #expect(Self.field(typed, "card", "type") == .bool(true))
    }

    @Test func newCardsPastTodaysLimit() async throws {
        let dir = try TempDir.make()
        defer { dir.remove() }
        let vault = try Self.vault(dir)
        try dir.write(".quire/config.yaml", "scheduler: fsrs\nnew_per_day: 1\n")
        let desk = try StudyDesk(vault: vault, cached: false, pinnedNow: at(26))
        let overview = try await desk.overview()
        guard case .array(let decks)? = Self.field(overview, "decks") else { Issue.record("no decks"); return }
        // One new card in today's plan; the deck's others are "unseen", for "learn new".
        #expect(decks.contains { Self.string($0, "deck") == "Spanish" && Self.field($0, "unseen") == .int(2) && Self.field($0, "new") == .int(0) })
        let learn = try await desk.start(deck: "Spanish", learnNew: true)
        #expect(Self.field(learn, "remaining", "new") == .int(2))
    }

    @Test func anUninitializedVaultIsRefused() throws {
        try withTempDir { dir in
            try dir.write("note.md", "Q? :: A\n")
            #expect(throws: ServerError.self) { try StudyDesk(vault: try Vault(root: dir.path), cached: false, pinnedNow: nil) }
        }
    }
}
