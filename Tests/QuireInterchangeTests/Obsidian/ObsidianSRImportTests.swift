@testable import QuireInterchange
import Testing
import QuireModel
import QuireParsing
import QuireReview
import QuireScheduling

/// The plugin's `<!--SR:…-->` schedules planned into Quire's lines and log.
@Suite struct ObsidianSRImportTests {
    static let note = """
        ---
        tags: [flashcards]
        ---
        perro::dog
        <!--SR:!2026-11-30,4,270-->

        casa:::house <!--SR:!2026-12-02,6,250!2026-11-28,3,230-->

        broken::card
        <!--SR:!soon,x,y-->

        gato::cat

        """
    static let now = Timestamp(year: 2026, month: 11, day: 26, hour: 9)

    static func plan(strip: Bool) -> ObsidianSRImport {
        var n = 0
        return ObsidianSRImport.plan([("Spanish.md", Array(note.utf8))], settings: ObsidianSRSettings(), strip: strip, now: now,
                                     day: { y, m, d in Timestamp(year: y, month: m, day: d, hour: 4) },
                                     eventIDs: { n += 1; return "e\(n)" })
    }

    @Test func schedulesBecomeLinesAndSetEvents() throws {
        let plan = Self.plan(strip: false)
        #expect(plan.isWritable)
        #expect(plan.diagnostics.map(\.description) == ["Spanish.md:9: warning: the plugin's schedule 'soon,x,y' cannot be read; card "
                                                        + "\(try #require(NoteParser.parse(Array(Self.note.utf8), path: "Spanish.md", syntax: .obsidianSR(ObsidianSRSettings())).note?.cards[3].id)) not migrated"])
        let change = try #require(plan.changes.first)
        #expect(change.cards == 3)
        let note = try #require(NoteParser.parse(change.edited, path: "Spanish.md", syntax: .obsidianSR(ObsidianSRSettings())).note)
        let states = note.cards.map(\.schedule)
        #expect(states.map { $0?.due } == [Timestamp(year: 2026, month: 11, day: 30, hour: 4), Timestamp(year: 2026, month: 12, day: 2, hour: 4),
                                          Timestamp(year: 2026, month: 11, day: 28, hour: 4), nil, nil])
        #expect(states[0]?.ease == 2.7 && states[0]?.interval == 4 && states[0]?.state == .review)
        #expect(states[2]?.lastReview == Timestamp(year: 2026, month: 11, day: 25, hour: 4))
        // The comments stay; replaying the log gives the lines.
        #expect(String(decoding: change.edited, as: UTF8.self).contains("<!--SR:!2026-11-30,4,270-->"))
        let history = ReviewHistory(ReviewLog.parse(plan.logLines.joined(separator: "\n")).events)
        for card in note.cards where card.schedule != nil {
            #expect(history.state(of: card.id) { _ in SchedulerSettings() }?.sameSchedule(as: card.schedule ?? SchedulingState()) == true)
        }
    }

    @Test func stripTakesTheCommentsOut() throws {
        let change = try #require(Self.plan(strip: true).changes.first)
        let text = String(decoding: change.edited, as: UTF8.self)
        #expect(!text.contains("<!--SR:!2026"))
        // A comment that did not move stays.
        #expect(text.hasSuffix("perro::dog\n\ncasa:::house\n\nbroken::card\n<!--SR:!soon,x,y-->\n\ngato::cat\n"))
    }

    @Test func aNoteAlreadyMigratedIsLeft() throws {
        let once = try #require(Self.plan(strip: false).changes.first)
        var n = 0
        let again = ObsidianSRImport.plan([("Spanish.md", once.edited)], settings: ObsidianSRSettings(), strip: false, now: Self.now,
                                          day: { y, m, d in Timestamp(year: y, month: m, day: d) }, eventIDs: { n += 1; return "f\(n)" })
        #expect(again.changes.isEmpty && again.logLines.isEmpty)
    }
}
