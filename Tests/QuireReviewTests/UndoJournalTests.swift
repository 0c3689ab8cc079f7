@testable import QuireReview
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

@Suite struct UndoJournalTests {
    @Test func entriesRoundTripWhateverTheBytes() throws {
        let entries = [
            UndoJournal.Entry(time: at(22), card: try #require(CardID("abcdefgh1234")), path: "Dir with space/n-ō.md",
                              before: "", after: "---\r\nquire:\r\n  x: {a: 100%}\r\n---\r\n"),
            UndoJournal.Entry(time: at(23), card: try #require(CardID("abcdefgh1234")), path: "-",
                              before: "\u{FEFF}---\ntitle: a b\n---\n", after: "-"),
        ]
        let text = entries.map { UndoJournal.format($0) + "\n" }.joined()
        #expect(text.split(separator: "\n").count == 2)
        #expect(UndoJournal.parse(text + "garbage line\n") == entries)
    }

    @Test func theJournalIsCutWhenItGrowsTooLarge() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            let card = try #require(CardID("abcdefgh1234"))
            let big = String(repeating: "x", count: 10_000)
            for i in 0..<120 {
                vault.appendToJournal([UndoJournal.Entry(time: Timestamp(seconds: Int64(i)), card: card, path: "n.md", before: big, after: big)])
            }
            let size = try dir.read(UndoJournal.path).count
            #expect(size <= UndoJournal.limit + 40_000)
            #expect(vault.journalEntry(card: card, time: Timestamp(seconds: 119)) != nil)
            #expect(vault.journalEntry(card: card, time: Timestamp(seconds: 0)) == nil)
        }
    }
}
