import Testing
@testable import QuireModel

@Suite struct RatingTests {
    @Test func namesAndValues() {
        #expect(Rating.allCases.map(\.name) == ["again", "hard", "good", "easy"])
        #expect(Rating.allCases.map(\.rawValue) == [1, 2, 3, 4])
    }

    @Test func parsingNamesAndNumbers() {
        #expect(Rating(name: "good") == .good)
        #expect(Rating(name: "AGAIN") == .again)
        #expect(Rating(name: "Easy") == .easy)
        #expect(Rating(name: "2") == .hard)
        #expect(Rating(name: "4") == .easy)
        #expect(Rating(name: "0") == nil)
        #expect(Rating(name: "5") == nil)
        #expect(Rating(name: "") == nil)
        #expect(Rating(name: "goo") == nil)
        #expect(Rating(name: " good") == nil)
    }
}
