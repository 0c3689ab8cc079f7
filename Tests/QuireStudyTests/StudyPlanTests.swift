@testable import QuireStudy
import Testing
import QuireModel
import QuireScheduling
@testable import QuireIndex
@testable import QuireParsing
@testable import QuireReview
@testable import QuireTestSupport

@Suite struct StudyPlanTests {
    private let now = at(22, 12)

    /// An index of notes given as text.
    private func index(_ notes: [String: String]) -> VaultIndex {
        VaultIndex(root: "/v", notes: notes.keys.sorted().compactMap { NoteParser.parse(Array((notes[$0] ?? "").utf8), path: $0).note })
    }

    private func line(_ id: String, _ fields: String) -> String { "  \(id): {\(fields)}" }

    private func plan(_ index: VaultIndex, _ settings: StudySettings = StudySettings(), events: [ReviewEvent] = [],
                      limit: Bool = true) -> StudyPlan {
        let stats = StudyStats(history: ReviewHistory(events), calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0))
        return StudyPlan(index: index, stats: stats, settings: settings, now: now, calendar: StudyCalendar(rolloverHour: 4, utcOffsetSeconds: 0), limit: limit)
    }

    private static let body = "Q: one\nA: 1 ^c1\n\nQ: two\nA: 2 ^c2\n\nQ: three\nA: 3 ^c3\n\nQ: four\nA: 4 ^c4\n\nQ: five\nA: 5 ^c5\n\nQ: six\nA: 6 ^c6\n"

    @Test func sectionsOrderAndLateness() {
        let text = "---\nquire:\n" + [
            line("c1", "state: review, due: 2026-11-19T09:00:00Z, interval: 4, reps: 2, lapses: 0"),
            line("c2", "state: learning, step: 0, due: 2026-11-22T11:59:00Z, reps: 1, lapses: 0"),
            line("c3", "state: review, due: 2026-11-22T20:00:00Z, interval: 5, reps: 2, lapses: 0"),
            line("c4", "state: review, due: 2026-11-22T08:00:00Z, interval: 40, reps: 5, lapses: 0"),
            line("c5", "state: review, due: 2026-11-23T09:00:00Z, interval: 4, reps: 2, lapses: 0"),
            line("c6", "state: review, due: 2026-11-12T09:00:00Z, interval: 4, reps: 2, lapses: 0, suspended: true"),
        ].joined(separator: "\n") + "\n---\n" + Self.body + "\nQ: seven\nA: 7\n"
        let p = plan(index(["n.md": text]))
        #expect(p.items.map(\.card.rawValue) == ["c1", "c2", "c3", "c4", p.items.last?.card.rawValue ?? ""])
        #expect(p.items.map(\.section) == [.overdue, .learning, .reviewing, .mastered, .new])
        #expect(p.items.first?.daysLate == 3)
        #expect(p.estimatedSeconds == 5 * 30)
    }

    @Test func dailyLimitsCountWhatWasStudiedToday() {
        let notes = (0..<10).map { i in ("n\(i).md", "Q: new \(i)?\nA: yes\n") }
        let idx = index(Dictionary(uniqueKeysWithValues: notes))
        var settings = StudySettings()
        settings.newPerDay = 4
        let doneToday = [ReviewEvent(time: at(22, 9), card: CardID("zzzzzzzzzzz1")!, action: .grade(.good))]
        let p = plan(idx, settings, events: doneToday)
        #expect(p.items.count == 3)
        #expect(p.newOverLimit == 7)
        #expect(p.studiedToday.new == 1)
        #expect(plan(idx, settings, limit: false).items.count == 10)
    }

    @Test func overTheLimitTheNeglectedTheStrugglingAndTheRecentComeFirst() {
        func due(_ id: String) -> String { line(id, "state: review, due: 2026-11-22T09:00:00Z, interval: 3, reps: 3, lapses: 0") }
        let text = "---\nquire:\n" + ["c1", "c2", "c3", "c4", "c5", "c6"].map(due).joined(separator: "\n") + "\n---\n" + Self.body
        var settings = StudySettings()
        settings.reviewsPerDay = 3
        let c = { (text: String) -> CardID in CardID(text) ?? CardID.unassigned }
        let events = [
            // c1, c2, c4 studied yesterday; c2 struggles; c3, c5, c6 were last studied long ago.
            ReviewEvent(time: at(21, 9), card: c("c1"), action: .grade(.good)),
            ReviewEvent(time: at(21, 9), card: c("c2"), action: .grade(.again)),
            ReviewEvent(time: at(21, 9), card: c("c4"), action: .grade(.good)),
            ReviewEvent(time: at(1, 9), card: c("c3"), action: .grade(.good)),
            ReviewEvent(time: at(1, 9), card: c("c5"), action: .grade(.good)),
            ReviewEvent(time: at(1, 9), card: c("c6"), action: .grade(.again)),
        ]
        let p = plan(index(["n.md": text]), settings, events: events)
        #expect(p.overLimit == 3)
        let chosen = Set(p.items.map(\.card.rawValue))
        #expect(chosen == ["c3", "c5", "c6"])
        #expect(p.items.first?.card.rawValue == "c6")  // not recent and struggling
        // The same inputs give the same plan (the draw is seeded by the day).
        #expect(plan(index(["n.md": text]), settings, events: events).items == p.items)
    }

    @Test func siblingsWaitForAnotherDay() {
        let text = "The {{c1::heart}} pumps {{c2::blood}}.\n\nHund ::: dog\n\nQ: single?\nA: yes\n"
        let idx = index(["n.md": text])
        let p = plan(idx)
        #expect(p.items.count == 3)             // one cloze, one direction, the single card
        #expect(p.siblingsDeferred == 2)
        // A sibling studied earlier today closes its group for the day.
        let cloze1 = idx.notes[0].cards[0].id
        let studied = plan(idx, events: [ReviewEvent(time: at(22, 9), card: cloze1, action: .grade(.good))])
        #expect(!studied.items.contains { idx.card(at: $0.location).variant == .cloze(2) })
        var off = StudySettings()
        off.burySiblings = false
        #expect(plan(idx, off).items.count == 5)
    }

    @Test func archivedNotesAndInactiveCardsStayOut() {
        let idx = index(["a.md": "---\narchived: true\n---\nQ: old?\nA: yes\n",
                         "f.md": "---\nquire:\n" + line("c1", "state: review, flow: inactive, reps: 3, lapses: 0") + "\n---\nQ: one\nA: 1 ^c1\n"])
        #expect(plan(idx).items.isEmpty)
    }
}
