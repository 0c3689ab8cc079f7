@testable import QuireParsing
import Testing
import QuireModel
import QuireYAML
@testable import QuireTestSupport

@Suite struct SchedulingLineTests {
    @Test func storedLineRoundTripsThroughAParse() throws {
        let body = "x :: y\n"
        let card = try #require(cards(body).first)
        var state = SchedulingState()
        state.fingerprint = card.fingerprint
        state.state = .review
        state.due = Timestamp(year: 2026, month: 11, day: 25, hour: 9)
        state.lastReview = Timestamp(year: 2026, month: 11, day: 13, hour: 9)
        state.stability = 12.4021
        state.difficulty = 5.1733
        state.reps = 4
        state.unknownFields = [("mine", "\"a: b\"")]
        let text = state.fields.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        #expect(text == "fp: \(card.fingerprint), state: review, due: 2026-11-25T09:00:00Z, last: 2026-11-13T09:00:00Z, "
            + "stability: 12.4021, difficulty: 5.1733, reps: 4, lapses: 0, mine: \"a: b\"")
        let (note, diagnostics) = parse(noteWithState(["  \(card.id): {\(text)}"], body: body))
        #expect(diagnostics.isEmpty)
        #expect(note?.cards.first?.schedule == state)
    }
}
