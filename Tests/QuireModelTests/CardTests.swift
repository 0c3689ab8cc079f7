import Testing
@testable import QuireModel

@Suite struct CardTests {
    let now = Timestamp(year: 2026, month: 11, day: 22, hour: 12)
    /// The next study day starts at 4 the next morning.
    let dayEnd = Timestamp(year: 2026, month: 11, day: 23, hour: 4)

    func card(_ schedule: SchedulingState?) -> Card {
        Card(id: CardID("abc")!, kind: .basic, variant: .single, front: "q", back: "a", lines: 1...1, column: 1,
             headingPath: [], identityText: "q\u{1F}a", hasExplicitID: false, schedule: schedule)
    }

    @Test func newCardIsNeverDue() {
        #expect(card(nil).state == .new)
        #expect(!card(nil).isDue(at: now, dayEnd: dayEnd))
        var s = SchedulingState()
        s.due = now.adding(seconds: -10)
        #expect(!card(s).isDue(at: now, dayEnd: dayEnd))
    }

    @Test func dueWhenTimeHasCome() {
        var s = SchedulingState()
        s.state = .review
        s.due = now
        #expect(card(s).isDue(at: now, dayEnd: dayEnd))
        // A review card is due for its whole study day; a learning step only once its time has come.
        s.due = now.adding(seconds: 1)
        #expect(card(s).isDue(at: now, dayEnd: dayEnd))
        s.due = dayEnd
        #expect(!card(s).isDue(at: now, dayEnd: dayEnd))
        s.state = .learning
        s.due = now.adding(seconds: 1)
        #expect(!card(s).isDue(at: now, dayEnd: dayEnd))
        s.due = now
        #expect(card(s).isDue(at: now, dayEnd: dayEnd))
        s.state = .review
        s.due = nil
        #expect(card(s).isDue(at: now, dayEnd: dayEnd))
    }

    @Test func suspendedBuriedAndInactiveAreNotDue() {
        var s = SchedulingState()
        s.state = .review
        s.due = now.adding(seconds: -60)
        s.suspended = true
        #expect(!card(s).isDue(at: now, dayEnd: dayEnd))
        s.suspended = false
        s.buriedUntil = now.adding(seconds: 60)
        #expect(!card(s).isDue(at: now, dayEnd: dayEnd))
        s.buriedUntil = nil
        s.flow = .inactive
        #expect(!card(s).isDue(at: now, dayEnd: dayEnd))
    }

    @Test func fingerprintUsesKindAndVariant() {
        let c = Card(id: CardID("x")!, kind: .cloze, variant: .cloze(66), front: "", back: "", lines: 1...1, column: 1,
                     headingPath: [], identityText: "t", hasExplicitID: false)
        #expect(c.fingerprint.shape == 0xC0 | 2)
    }
}
