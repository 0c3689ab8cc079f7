import Testing
import QuireIndex
import QuireModel
import QuireSystem
@testable import QuireApp
@testable import QuireTestSupport
import QuireVault

/// Where a vault's FSRS parameters come from, and how well they predict its history.
@Suite struct ParameterCalibrationTests {
    static func calibration(_ dir: TempDir, config: String) throws -> ParameterCalibration {
        _ = try QuizSetupTests.context(dir)
        try dir.write(".quire/config.yaml", config)
        let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
        let context = StudyContext(loaded, config: try LoadedVault.readSettings(of: loaded.vault).config, now: at(22, 10))
        let figures = VaultFigures(context, query: try Query(arguments: []))
        return ParameterCalibration(context, log: figures.log, decks: figures.decks)
    }

    @Test func theSourceOfTheParameters() throws {
        try withTempDir { dir in
            let defaults = try Self.calibration(dir, config: "")
            #expect(defaults.source == .defaults && defaults.predictions == 0 && defaults.current == nil)
            #expect(defaults.json.serialized(pretty: false)
                    == "{\"source\":\"defaults\",\"optimized\":null,\"predictions\":0,\"current\":null,\"defaults\":null}")
            // FSRS-6's defaults with the first weight changed.
            let weights = "0.3, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629, "
                + "1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542"
            let custom = try Self.calibration(dir, config: "fsrs_parameters: [\(weights)]\n")
            #expect(custom.source == .custom, "\(custom.source)")
            let perDeck = try Self.calibration(dir, config: "decks:\n  Geography:\n    fsrs_parameters: [\(weights)]\n")
            #expect(perDeck.source == .perDeck && perDeck.json.serialized(pretty: false).hasPrefix("{\"source\":\"per-deck\""))
        }
    }

    /// What the optimizer reads: the chosen deck's cards' history and parameters.
    @Test func theOptimizersInput() throws {
        try withTempDir { dir in
            _ = try QuizSetupTests.context(dir)
            let loaded = LoadedVault(try Vault(root: dir.path), cached: false)
            let context = StudyContext(loaded, config: try LoadedVault.readSettings(of: loaded.vault).config, now: at(22, 10))
            let all = try Query(arguments: [])
            let input = context.optimizerInput(query: all, deck: DeckPath("Geography"))
            #expect(input.history.reviewCount == 0 && input.current == .fsrs6Defaults && input.fitted == nil)
            #expect(context.optimizerInput(query: all, deck: DeckPath("History")).history.cards.isEmpty)
        }
    }
}
