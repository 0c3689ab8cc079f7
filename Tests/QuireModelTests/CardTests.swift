import Testing
@testable import QuireModel

@Suite struct CardTests {
    let now = Timestamp(year: 2026, month: 11, day: 22, hour: 12)

    func card(_ schedule: SchedulingState?) -> Card {
        Card(id: CardID("abc")!, kind: .basic, variant: .single, front: "q", back: "a", lines: 1...1, column: 1,
             headingPath: [], identityText: "q\u{1F}a", hasExplicitID: false, schedule: schedule)
    }

    @Test func newCardIsNeverDue() {
        #expect(card(nil).state == .new)
        #expect(!card(nil).isDue(at: now))
        var s = SchedulingState()
        s.due = now.adding(seconds: -10)
        #expect(!card(s).isDue(at: now))
    }

    @Test func dueWhenTimeHasCome() {
        var s = SchedulingState()
        s.state = .review
        s.due = now
        #expect(card(s).isDue(at: now))
        s.due = now.adding(seconds: 1)
        #expect(!card(s).isDue(at: now))
        s.due = nil
        #expect(card(s).isDue(at: now))
    }

    @Test func suspendedBuriedAndInactiveAreNotDue() {
        var s = SchedulingState()
        s.state = .review
        s.due = now.adding(seconds: -60)
        s.suspended = true
        #expect(!card(s).isDue(at: now))
        s.suspended = false
        s.buriedUntil = now.adding(seconds: 60)
        #expect(!card(s).isDue(at: now))
        s.buriedUntil = nil
        s.flow = .inactive
        #expect(!card(s).isDue(at: now))
    }

    @Test func fingerprintUsesKindAndVariant() {
        let c = Card(id: CardID("x")!, kind: .cloze, variant: .cloze(66), front: "", back: "", lines: 1...1, column: 1,
                     headingPath: [], identityText: "t", hasExplicitID: false)
        #expect(c.fingerprint.shape == 0xC0 | 2)
    }
}
