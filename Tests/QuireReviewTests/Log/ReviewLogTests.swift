@testable import QuireReview
import Testing
import QuireModel
@testable import QuireSystem
@testable import QuireTestSupport
import QuireVault

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

    /// A log of more than a megabyte is parsed in parts on every core: the same events, in order,
    /// and the bad lines at their lines, as one pass would give.
    @Test func aLongLogParsedInPartsIsTheSameAsOnePass() {
        var text = "# quire log v1\n"
        var expected: [(line: Int, card: String)] = []
        var bad: [Int] = []
        var line = 1
        for i in 0..<12_000 {
            line += 1
            if i % 997 == 0 {
                text += "garbage line \(i)\r\n"
                bad.append(line)
                continue
            }
            let card = "card" + String(i % 500)
            let time = Timestamp(milliseconds: t.milliseconds + Int64(i) * 1000).iso8601(milliseconds: true)
            text += "\(time) grade \(card) good id=e\(i) sched=fsrs ms=\(i) path=Deck/n%20\(i % 500).md\n"
            expected.append((line, card))
        }
        #expect(text.utf8.count > 1 << 20)
        let parsed = ReviewLog.parse(Array(text.utf8))
        #expect(parsed.events.map(\.card.rawValue) == expected.map(\.card))
        #expect(parsed.lines == expected.map(\.line))
        #expect(parsed.errors.map(\.line) == bad && parsed.errors.allSatisfy { $0.column == 1 })
        #expect(parsed.events.last?.field("path") == "Deck/n 499.md" && parsed.events.last?.field("ms") == "11999")
    }

    /// A field that is not UTF-8, raw or percent-decoded, is an error of its line at its column;
    /// the lines around it are read.
    @Test func invalidUTF8IsALineError() {
        var bytes = Array("2026-11-22T09:14:03.120Z grade 7k2m9xq4v1ab good path=a.md\n".utf8)
        bytes += Array("2026-11-22T09:14:04.120Z grade 7k2m9xq4v1ab good ms=1 path=b".utf8) + [0xFF] + Array(".md\n".utf8)
        bytes += Array("2026-11-22T09:14:05.120Z grade 7k2m9xq4v1ab good path=c%FF.md\n".utf8)
        bytes += Array("2026-11-22T09:14:06.120Z grade 7k2m9xq4v1ab easy path=d.md\n".utf8)
        let parsed = ReviewLog.parse(bytes)
        #expect(parsed.events.map { $0.field("path") } == ["a.md", "d.md"])
        #expect(parsed.errors.map(\.line) == [2, 3])
        #expect(parsed.errors.first?.column == 55 && parsed.errors.first?.message.hasPrefix("invalid UTF-8") == true)
        #expect(parsed.errors.last?.message.hasPrefix("bad percent-encoding") == true)
    }

    /// Quire's own time forms are read digit by digit; every form reads as `Timestamp(iso8601:)` reads it.
    @Test func timesReadAsTimestampReadsThem() {
        for text in ["2026-11-22T09:14:03.120Z", "2026-11-22T09:14:03Z", "2024-02-29T23:59:60Z", "2026-02-29T10:00:00Z",
                     "2026-13-01T00:00:00Z", "2026-04-31T00:00:00.000Z", "2026-11-22T24:00:00Z", "2026-11-22T09:60:00Z",
                     "2026-11-22T09:14:03.1Z", "2026-11-22T09:14:03+01:00", "2026-11-22", "2026-11-22T09:14", "20x6-11-22T09:14:03Z"] {
            let line = "\(text) suspend 7k2m9xq4v1ab"
            let parsed = try? ReviewLog.parseLine(line[...], number: 1)
            #expect(parsed?.time == Timestamp(iso8601: text), "\(text)")
        }
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

    /// A `set` event gives a whole state; a field it cannot read is an error at its column.
    @Test func setEvents() throws {
        let line = "2026-11-22T09:00:00.000Z set 7k2m9xq4v1ab id=a1 state=review due=2026-12-01T08:00:00Z last=2026-11-20T08:00:00Z "
            + "stability=12.5 difficulty=5.25 interval=11 reps=4 lapses=1 imported=anki"
        let event = try ReviewLog.parseLine(line[...], number: 1)
        #expect(event.action == .set)
        let state = try #require(event.setState)
        #expect(state.state == .review && state.due == Timestamp(iso8601: "2026-12-01T08:00:00Z") && state.stability == 12.5)
        #expect(state.difficulty == 5.25 && state.interval == 11 && state.reps == 4 && state.lapses == 1)
        #expect(ReviewLog.format(event) == line)
        let (_, errors, _) = ReviewLog.parse("""
            2026-11-22T09:00:00.000Z set 7k2m9xq4v1ab state=review due=soon
            2026-11-22T09:00:00.000Z set 7k2m9xq4v1ab due=2026-12-01T08:00:00Z
            2026-11-22T09:00:00.000Z set 7k2m9xq4v1ab state=kind-of reps=1

            """)
        #expect(errors.map(\.description) == [
            "1:56: field 'due' must be a timestamp, not 'soon'",
            "2:67: a set event needs state=",
            "3:43: field 'state' must be new, learning, review or relearning, not 'kind-of'",
        ])
    }
}
