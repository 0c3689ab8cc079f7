import Foundation
import Testing

/// `quire retention` on SampleVault: a table from 0.70 to 0.97 with the current retention and a
/// recommendation marked, deterministic, JSON with every retention; more retention costs more
/// minutes and remembers more; SM-2 decks are left out and refused alone.
@Suite struct RetentionTests {
    @Test func simulatesAndRecommends() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let text = try q.run(["retention", "--runs", "4"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("current") && text.stdout.contains("recommended: desired_retention: 0."), "\(text.stdout)")
        #expect(text.stdout.contains("cards with other schedulers left out"), "\(text.stdout)")
        // How sure: SampleVault's parameters are the defaults, and it says what that means.
        #expect(text.stdout.contains("how sure: the parameters are FSRS-6's defaults, not fitted to your reviews"), "\(text.stdout)")
        #expect(try q.run(["retention", "--runs", "4"]).stdout == text.stdout)
        let json = try q.run(["retention", "--runs", "4", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let outcomes = try #require(object["outcomes"] as? [[String: Double]])
        #expect(outcomes.count == 28 && outcomes.first?["desired_retention"] == 0.7 && outcomes.last?["desired_retention"] == 0.97)
        let first = outcomes[0], last = outcomes[27]
        #expect((first["minutes_per_day"] ?? 0) < (last["minutes_per_day"] ?? 0) && (first["remembered"] ?? 0) < (last["remembered"] ?? 0))
        #expect((object["timed_answers"] as? Int ?? 0) > 300 && object["current"] as? Double == 0.9)
        let recommended = try #require(object["recommended"] as? Double)
        #expect(text.stdout.contains(String(format: "desired_retention: %.2f", recommended)))
        // A deck scheduled by SM-2 alone: nothing to simulate.
        let sm2 = try q.run(["retention", "--deck", "History"])
        #expect(sm2.status != 0 && sm2.stderr.contains("not FSRS"), "\(sm2)")
        #expect(try q.run(["retention", "--days", "3"]).status != 0)
    }
}
