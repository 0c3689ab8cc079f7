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
            let (config, _) = try LoadedVault.readSettings(of: session.vault)
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

/// Settings that cannot be read stop what depends on them, located; never the defaults in silence.
@Suite struct SettingsErrorTests {
    @Test func aBrokenSettingsFileIsALocatedError() throws {
        try withTempDir { dir in
            let session = try StudyContextTests.vault(dir)
            try dir.write(".quire/config.yaml", "new_per_day: 30\nday_rollover: [4\n")
            #expect(throws: AppError.self) { try LoadedVault.readSettings(of: session.vault) }
            do throws(AppError) {
                _ = try session.dayEnd(at: at(26))
                Issue.record("the day's end was computed from the default settings")
            } catch {
                #expect(error.description.hasPrefix(".quire/config.yaml:3:1: error: ") && error.description.contains("nothing done"),
                        "\(error)")
            }
            // Curation's review days are settings too: the same error, not the default days.
            #expect(throws: AppError.self) { try CurationContext(loaded: session, now: at(26)) }
            // A warning (a key Quire does not know) comes back with the settings.
            try dir.write(".quire/config.yaml", "new_per_day: 30\nno_such_key: 1\n")
            let (config, diagnostics) = try LoadedVault.readSettings(of: session.vault)
            #expect(config.study.newPerDay == 30 && diagnostics.contains { $0.severity == .warning })
        }
    }
}
