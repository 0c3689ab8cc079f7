import Testing
import QuireIndex
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// The retention simulation from a real vault: every retention simulated, the same outcome each
/// time; a deck another scheduler schedules is refused with the reason.
@Suite struct RetentionSimulationTests {
    @Test func simulatedOnceTheSameEachTime() throws {
        try withTempDir { dir in
            let context = try QuizSetupTests.context(dir)
            let all = try Query(arguments: [])
            let simulated = try context.simulateRetention(query: all, deck: nil, days: 30, runs: 2)
            #expect(simulated.cards.count == 12 && simulated.learnt == 0 && simulated.answers == 0)
            #expect(simulated.outcomes.map(\.desiredRetention) == RetentionSimulation.retentions)
            #expect(simulated.parameterSource == "defaults" && simulated.recommended != nil)
            let again = try context.simulateRetention(query: all, deck: nil, days: 30, runs: 2)
            #expect(again.outcomes.map(\.remembered) == simulated.outcomes.map(\.remembered))
            #expect(simulated.json.serialized(pretty: false).hasPrefix("{\"cards\":12,\"learnt\":0,\"days\":30,\"runs\":2,"))
        }
    }

    @Test func aDeckOfAnotherSchedulerIsRefused() throws {
        try withTempDir { dir in
            _ = try QuizSetupTests.context(dir)
            try dir.write(".quire/config.yaml", "scheduler: sm2\n")
            let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
            let context = StudyContext(loaded, config: try LoadedVault.readSettings(of: loaded.vault).config, now: at(22, 10))
            let all = try Query(arguments: [])
            do throws(AppError) {
                _ = try context.simulateRetention(query: all, deck: nil, days: 30, runs: 1)
                Issue.record("SM-2 cards were simulated as FSRS's")
            } catch {
                #expect(error.description == "deck Default is scheduled by sm2, not FSRS: nothing to simulate", "\(error)")
            }
        }
    }
}
