import Testing
@testable import QuireReview
import QuireIndex
import QuireModel
import QuireScheduling
import QuireSystem
@testable import QuireTestSupport

/// Fitted FSRS parameters written into `.quire/config.yaml` (`quire optimize --write`): for the
/// vault or a deck prefix, the file's other bytes kept, and read back by the settings reader.
@Suite struct ConfigEditTests {
    static let fitted = [0.0666, 0.4062, 0.7246, 2.606, 6.4091, 0.8122, 3.017, 0.001, 1.808, 0.1727, 0.7329,
                         1.5031, 0.0704, 0.3103, 1.659, 0.5974, 1.9496, 0.5292, 0.1141, 0.0609, 0.1]

    static let file = """
        # my settings
        scheduler: fsrs   # keep this comment
        desired_retention: 0.9
        decks:            # per deck
          Languages:
            desired_retention: 0.85   # Spanish is hard
            learning_steps: [1m, 10m, 1h]

          History: {scheduler: sm2, buttons: 3}
        new_per_day: 20

        """

    func edited(_ deck: String?, _ file: String = Self.file) throws -> (text: String, config: VaultConfig) {
        let out = try ConfigEdit.setParameters(Self.fitted, fittedOn: "2026-11-27", deck: deck, in: Array(file.utf8))
        let (config, diagnostics) = VaultConfig.parse(out, path: ".quire/config.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return (String(decoding: out, as: UTF8.self), config)
    }

    @Test func forTheVault() throws {
        let (text, config) = try edited(nil)
        #expect(text.hasPrefix(Self.file))
        #expect(text.dropFirst(Self.file.count) == "fsrs_parameters: [0.0666, 0.4062, 0.7246, 2.606, 6.4091, 0.8122, 3.017, 0.001, 1.808, 0.1727, 0.7329, 1.5031, 0.0704, 0.3103, 1.659, 0.5974, 1.9496, 0.5292, 0.1141, 0.0609, 0.1]\nfsrs_optimized: 2026-11-27\n")
        #expect(config.settings.parameters.values == Self.fitted)
        #expect(config.parametersFitted == "2026-11-27")
        // A deck without parameters of its own has the vault's, fitted the same day.
        #expect(config.parametersFitted(for: DeckPath("Languages/Spanish")!) == "2026-11-27")
        #expect(config.settings(for: DeckPath("Languages")!).parameters.values == Self.fitted)
        // Written again: the values replaced in place.
        let again = try ConfigEdit.setParameters(FSRSParameters.fsrs6Defaults.values, fittedOn: "2026-12-01", deck: nil, in: Array(text.utf8))
        let reread = VaultConfig.parse(again, path: "c").config
        #expect(reread.settings.parameters == .fsrs6Defaults && reread.parametersFitted == "2026-12-01")
        #expect(String(decoding: again, as: UTF8.self).hasPrefix(Self.file))
    }

    @Test func forADeckWrittenAsABlock() throws {
        let (text, config) = try edited("Languages")
        #expect(text == Self.file.replacingOccurrences(of: "    learning_steps: [1m, 10m, 1h]\n", with: """
                learning_steps: [1m, 10m, 1h]
                fsrs_parameters: [0.0666, 0.4062, 0.7246, 2.606, 6.4091, 0.8122, 3.017, 0.001, 1.808, 0.1727, 0.7329, 1.5031, 0.0704, 0.3103, 1.659, 0.5974, 1.9496, 0.5292, 0.1141, 0.0609, 0.1]
                fsrs_optimized: 2026-11-27

            """), "\(text)")
        let languages = config.settings(for: DeckPath("Languages/Spanish")!)
        #expect(languages.parameters.values == Self.fitted && languages.desiredRetention == 0.85 && languages.learningSteps == [60, 600, 3600])
        #expect(config.settings.parameters == .fsrs6Defaults)
        #expect(config.parametersFitted(for: DeckPath("Languages")!) == "2026-11-27")
        #expect(config.parametersFitted(for: DeckPath("Biology")!) == nil)
        // Again: replaced inside the block.
        let again = try ConfigEdit.setParameters(FSRSParameters.fsrs6Defaults.values, fittedOn: "2026-12-01", deck: "Languages", in: Array(text.utf8))
        let reread = VaultConfig.parse(again, path: "c").config
        #expect(reread.settings(for: DeckPath("Languages")!).parameters == .fsrs6Defaults)
        #expect(String(decoding: again, as: UTF8.self).components(separatedBy: "fsrs_parameters").count == 2)
    }

    @Test func forAFlowDeckAndANewOne() throws {
        let (text, config) = try edited("History")
        #expect(text.contains("  History: {scheduler: sm2, buttons: 3, fsrs_parameters: [0.0666, "))
        let history = config.settings(for: DeckPath("History")!)
        #expect(history.kind == .sm2 && history.buttons == 3 && history.parameters.values == Self.fitted)
        let (added, addedConfig) = try edited("Biology/Cells")
        #expect(added.contains("\n  Biology/Cells: {fsrs_parameters: [0.0666, "))
        #expect(addedConfig.settings(for: DeckPath("Biology/Cells/Membranes")!).parameters.values == Self.fitted)
        #expect(addedConfig.settings(for: DeckPath("Biology")!).parameters == .fsrs6Defaults)
        // A file without decks: gets the mapping.
        let (fresh, freshConfig) = try edited("Biology", "scheduler: fsrs\n")
        #expect(fresh.hasPrefix("scheduler: fsrs\ndecks:\n  Biology: {fsrs_parameters: ["))
        #expect(freshConfig.parametersFitted(for: DeckPath("Biology")!) == "2026-11-27")
    }

    @Test func aDeckThatIsNotAMappingIsRefused() {
        #expect(throws: (any Error).self) {
            try ConfigEdit.setParameters(Self.fitted, fittedOn: "2026-11-27", deck: "Biology", in: Array("decks:\n  Biology: [1, 2]\n".utf8))
        }
        #expect(throws: (any Error).self) {
            try ConfigEdit.setParameters(Self.fitted, fittedOn: "2026-11-27", deck: "Biology",
                                         in: Array("decks:\n  Biology:\n    scheduler: fsrs\n# out of the block\n    buttons: 3\n".utf8))
        }
    }

    @Test func aBadDayIsAWarning() {
        let (config, diagnostics) = VaultConfig.parse(Array("fsrs_optimized: yesterday\n".utf8), path: "c.yaml")
        #expect(config.parametersFitted == nil)
        #expect(diagnostics.map(\.message) == ["'fsrs_optimized' must be a day like 2026-11-27; setting ignored"])
    }
}
