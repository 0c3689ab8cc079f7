@testable import QuireReview
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport

/// The review log's line format (FORMAT.md §6).
@Suite struct ReviewLogTests {
    let t = Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 14, second: 3, millisecond: 120)
    let id = CardID("7k2m9xq4v1ab")!

    @Test func formatsTheExampleLines() {
        #expect(ReviewLog.format(ReviewEvent(time: t, card: id, action: .grade(.good), fields: [
            ("sched", "fsrs"), ("ms", "6400"), ("path", "Biology/Cells/mitochondria.md"),
        ])) == "2026-11-22T09:14:03.120Z grade 7k2m9xq4v1ab good sched=fsrs ms=6400 path=Biology/Cells/mitochondria.md")
        #expect(ReviewLog.format(ReviewEvent(time: t, card: id, action: .undo(of: Timestamp(milliseconds: t.milliseconds + 7002))))
            == "2026-11-22T09:14:03.120Z undo 7k2m9xq4v1ab of=2026-11-22T09:14:10.122Z")
        #expect(ReviewLog.format(ReviewEvent(time: t, card: id, action: .bury(until: Timestamp(year: 2026, month: 11, day: 23))))
            == "2026-11-22T09:14:03.120Z bury 7k2m9xq4v1ab until=2026-11-23T00:00:00Z")
        #expect(ReviewLog.format(ReviewEvent(time: Timestamp(seconds: 0), card: id, action: .suspend))
            == "1970-01-01T00:00:00.000Z suspend 7k2m9xq4v1ab")
    }

    @Test func everyEventRoundTrips() {
        let actions: [ReviewAction] = [
            .grade(.again), .grade(.hard), .grade(.good), .grade(.easy), .undo(of: t), .suspend, .unsuspend,
            .bury(until: Timestamp(year: 2026, month: 12, day: 1, hour: 4)), .reset, .promote, .demote, .deactivate,
        ]
        for (i, action) in actions.enumerated() {
            let event = ReviewEvent(time: Timestamp(milliseconds: t.milliseconds + Int64(i)), card: id, action: action,
                                    fields: [("path", "My Notes/100% done.md"), ("note", "tab\there\nnewline é")])
            let line = ReviewLog.format(event)
            #expect(!line.contains("\n") && !line.contains("\t"))
            #expect(line.split(separator: " ").count == (action.word == "grade" || action.word == "undo"
                || action.word == "bury" ? 6 : 5))
            let parsed = ReviewLog.parse(line + "\n")
            #expect(parsed.errors.isEmpty)
            #expect(parsed.events == [event])
        }
    }

    @Test func percentEncoding() {
        #expect(ReviewLog.percentEncode("My Notes/100% done.md") == "My%20Notes/100%25%20done.md")
        #expect(ReviewLog.percentEncode("a\tb\u{7F}c\u{1}") == "a%09b%7Fc%01")
        #expect(ReviewLog.percentEncode("é=ok") == "é=ok")
        #expect(ReviewLog.percentDecode("My%20Notes/100%25%20done.md") == "My Notes/100% done.md")
        #expect(ReviewLog.percentDecode("%c3%a9") == "é")
        #expect(ReviewLog.percentDecode("%") == nil)
        #expect(ReviewLog.percentDecode("%2") == nil)
        #expect(ReviewLog.percentDecode("%zz") == nil)
        #expect(ReviewLog.percentDecode("%FF") == nil)
    }

    @Test func skipsBlankLinesAndCommentsAndReadsCRLF() {
        let text = "# quire log v1\r\n\r\n   \r\n2026-11-22T09:14:03.120Z suspend 7k2m9xq4v1ab\r\n# note\n"
            + "2026-11-22T09:15:00Z reset 7k2m9xq4v1ab future=1\n"
        let (events, errors, _) = ReviewLog.parse(text)
        #expect(errors.isEmpty)
        #expect(events.map(\.action) == [.suspend, .reset])
        #expect(events[1].time == Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: 15))
        #expect(events[1].field("future") == "1")
        #expect(events[0].field("future") == nil)
    }

    @Test func errorsHaveLineAndColumnAndReadingGoesOn() {
        let lines = [
            "# quire log v1",
            "2026-11-22T09:14:03.120Z grade",
            "yesterday grade 7k2m9xq4v1ab good",
            "2026-11-22T09:14:03.120Z grade bad.id good",
            "2026-11-22T09:14:03.120Z grade 7k2m9xq4v1ab great",
            "2026-11-22T09:14:03.120Z grade 7k2m9xq4v1ab",
            "2026-11-22T09:14:03.120Z undo 7k2m9xq4v1ab",
            "2026-11-22T09:14:03.120Z bury 7k2m9xq4v1ab until=later",
            "2026-11-22T09:14:03.120Z explode 7k2m9xq4v1ab",
            "2026-11-22T09:14:03.120Z grade 7k2m9xq4v1ab good novalue",
            "2026-11-22T09:14:03.120Z suspend 7k2m9xq4v1ab =x",
            "2026-11-22T09:14:03.120Z suspend 7k2m9xq4v1ab  path=%zz",
            "2026-11-22T09:14:03.120Z suspend 7k2m9xq4v1ab path=é novalue",
            "2026-11-22T09:14:03.120Z suspend 7k2m9xq4v1ab",
        ]
        let (events, errors, _) = ReviewLog.parse(lines.joined(separator: "\n"))
        #expect(events.map(\.action) == [.suspend])
        #expect(errors.map(\.description) == [
            "2:31: expected 'TIME EVENT CARD …'",
            "3:1: bad time 'yesterday'",
            "4:32: bad card ID 'bad.id'",
            "5:45: expected a rating (again, hard, good, easy)",
            "6:44: expected a rating (again, hard, good, easy)",
            "7:43: expected of=TIME",
            "8:44: expected until=TIME",
            "9:26: unknown event 'explode'",
            "10:50: expected key=value, found 'novalue'",
            "11:47: expected key=value, found '=x'",
            "12:48: bad percent-encoding in 'path=%zz'",
            // Columns count bytes: `é` is two.
            "13:55: expected key=value, found 'novalue'",
        ])
    }

    @Test func lastLoggedPathReadsEveryLogFromItsEnd() throws {
        try withTempDir { dir in
            let vault = try Vault.initialize(dir.path)
            let other = CardID("aaaabbbbcccc")!
            func line(_ minute: Int, _ card: CardID, _ path: String?) -> String {
                ReviewLog.format(ReviewEvent(time: Timestamp(year: 2026, month: 11, day: 22, hour: 9, minute: minute),
                                             card: card, action: .grade(.good), fields: path.map { [("path", $0)] } ?? []))
            }
            #expect(vault.lastLoggedPath(of: id) == nil)
            // Within a file the last line naming the card wins, even if an earlier line has a later time.
            try dir.write(".quire/log/one.log", [ReviewLog.header, line(30, id, "old.md"), line(10, id, "A/new note.md"),
                                                 line(40, other, "other.md"), line(41, id, nil)].joined(separator: "\r\n") + "\r\n")
            #expect(vault.lastLoggedPath(of: id) == "A/new note.md")
            #expect(vault.lastLoggedPath(of: other) == "other.md")
            // Across files the later time wins.
            try dir.write(".quire/log/two.log", [ReviewLog.header, line(20, id, "moved.md")].joined(separator: "\n"))
            #expect(vault.lastLoggedPath(of: id) == "moved.md")
            try dir.write(".quire/log/two.log", [ReviewLog.header, line(5, id, "older.md"), "garbage " + id.rawValue].joined(separator: "\n"))
            #expect(vault.lastLoggedPath(of: id) == "A/new note.md")
            // The file's last line, before its final line break.
            try dir.write(".quire/log/two.log", [ReviewLog.header, line(50, id, "last.md")].joined(separator: "\n") + "\n")
            #expect(vault.lastLoggedPath(of: id) == "last.md")
        }
    }
}
