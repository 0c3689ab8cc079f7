import QuireSupport
import Testing

@Suite struct EditDistanceTests {
    @Test func countsTranspositionsAndStopsEarly() {
        #expect(EditDistance.between("mitochondria", "mitochondira") == 1)
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.between("abc", "abc") == 0)
        #expect(EditDistance.between(String(repeating: "a", count: 5000), String(repeating: "b", count: 5000), limit: 2) == 3)
    }

    @Test func suggestsTheNearestNameOnlyWhenNear() {
        let settings = ["desired_retention", "new_per_day", "reviews_per_day", "scheduler"]
        #expect(EditDistance.suggestion(for: "desired-retention", among: settings) == "desired_retention")
        #expect(EditDistance.suggestion(for: "New-Per-Day", among: settings) == "new_per_day")
        #expect(EditDistance.suggestion(for: "sheduler", among: settings) == "scheduler")
        #expect(EditDistance.suggestion(for: "reveiws_per_day", among: settings) == "reviews_per_day")
        #expect(EditDistance.suggestion(for: "colour", among: settings) == nil)
        #expect(EditDistance.suggestion(for: "scheduler", among: settings) == nil)
        #expect(EditDistance.suggestion(for: String(repeating: "x", count: 100_000), among: settings) == nil)
        #expect(EditDistance.suggestion(for: "x", among: []) == nil)
    }
}
