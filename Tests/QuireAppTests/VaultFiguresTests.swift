import Testing
import QuireIndex
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport

/// The figures of `stats`, `report` and the server's report page, from a study context on a real
/// vault: the cards a query selects, their decks, the curation summary.
@Suite struct VaultFiguresTests {
    @Test func theCardsAQuerySelectsAndTheirDecks() throws {
        try withTempDir { dir in
            let session = try StudyContextTests.vault(dir)
            let (config, _) = try VaultSession.readSettings(of: session.vault)
            let context = StudyContext(session, config: config, now: at(26), readLog: false)
            let all = VaultFigures(context, query: .all)
            #expect(all.statistics.counts.total == 35 && all.statistics.counts.new == 35)
            #expect(Set(all.decks.values.map(\.description)) == ["Biology", "Spanish"])
            let spanish = VaultFigures(context, query: try Query(arguments: ["deck:Spanish"]), days: 7)
            #expect(spanish.statistics.counts.total == 5 && spanish.decks.count == 5)
            // Two notes, neither decided yet.
            #expect(all.curation.kept == 0 && all.curation.archived == 0)
        }
    }
}
