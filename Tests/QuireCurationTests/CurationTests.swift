import Testing
@testable import QuireCuration
import QuireModel
import QuireSupport

/// Which notes a review takes, where each period stands, and what is due.
@Suite struct CurationTests {
    static func day(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilCalendar.daysFromCivil(year: y, month: m, day: d) }

    static func note(_ path: String, _ created: String?, cycle: NoteCycle? = nil, archived: Bool = false) -> CurationNote {
        var n = Note(path: path, title: path, deck: DeckPath("Default")!)
        n.created = created.flatMap { Timestamp(iso8601: $0) }
        n.cycle = cycle
        n.archived = archived
        return CurationNote(n, utcOffsetSeconds: 0) { Timestamp(iso8601: "2026-10-01T10:00:00Z") }
    }

    @Test func creationDates() {
        #expect(Self.note("a.md", "2026-11-20").created == Self.day(2026, 11, 20))
        let named = Self.note("Daily/2026-11-05 Thought.md", nil)
        #expect(named.created == Self.day(2026, 11, 5) && named.createdInferred)
        #expect(Self.note("2026-11-05.md", nil).created == Self.day(2026, 11, 5))
        // Not a date: 2026-11-051, 2026-13-01; the file's time then.
        #expect(Self.note("2026-11-051.md", nil).created == Self.day(2026, 10, 1))
        #expect(Self.note("2026-13-01.md", nil).created == Self.day(2026, 10, 1))
    }

    @Test func periodsStatusAndWhatIsDue() {
        let c = Curation(notes: [
            Self.note("a.md", "2026-11-02"), Self.note("b.md", "2026-11-04", cycle: .weekly),
            Self.note("c.md", "2026-11-05", archived: true), Self.note("d.md", "2026-11-10"),
            Self.note("e.md", "2026-10-20", cycle: .weekly), Self.note("f.md", "2026-10-21", cycle: .monthly),
            Self.note("g.md", "2026-10-22", cycle: .weekly, archived: true),
        ])
        let w45 = CurationPeriod("2026-W45", review: .weekly)!
        #expect(c.members(of: w45).map(\.path) == ["a.md", "b.md", "c.md"])
        #expect(c.eligible(in: w45).map(\.path) == ["a.md"])
        let s = c.status(of: w45)
        #expect(s.total == 3 && s.kept == 1 && s.archived == 1 && s.left == 1 && s.state == .inProgress)
        // October: e kept weekly awaits the monthly review; f was kept monthly; g archived monthly.
        let october = CurationPeriod("2026-10", review: .monthly)!
        #expect(c.eligible(in: october).map(\.path) == ["e.md"])
        #expect(c.status(of: october).kept == 1 && c.status(of: october).archived == 1)
        // On 2026-11-22: weeks 45 and 46 are due, October's month; November's is not yet.
        let due = c.pending(today: Self.day(2026, 11, 22)).map(\.period.description)
        #expect(due == ["2026-10", "2026-W45", "2026-W46"], "\(due)")
        #expect(!due.contains("2026-11"))
        #expect(c.oldestPending(.weekly, today: Self.day(2026, 11, 22))?.description == "2026-W45")
        // The month's review warns about its weeks still open.
        let november = CurationPeriod("2026-11", review: .monthly)!
        #expect(c.incompleteLower(than: november).map(\.period.description) == ["2026-W45", "2026-W46"])
    }
}
