@testable import QuireIndex
import Testing
import QuireModel
import QuireScheduling
@testable import QuireTestSupport

@Suite struct VaultConfigTests {
    private func parse(_ text: String) -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        VaultConfig.parse(Array(text.utf8), path: ".quire/config.yaml")
    }

    @Test func readsSettings() throws {
        let (config, diagnostics) = parse("""
            scheduler: SM2
            day_rollover: 0
            desired_retention: 0.85
            learning_steps: [30s, 5m, 1.5h, 2d, 15]
            relearning_steps: []
            maximum_interval: 365
            fuzz: false
            buttons: 3
            interval_ordering: false
            fsrs_parameters: [0.4, 0.6, 2.4, 5.8, 4.93, 0.94, 0.86, 0.01, 1.49, 0.14, 0.94, 2.18, 0.05, 0.34, 1.26, 0.29, 2.61]

            """)
        #expect(diagnostics.isEmpty)
        let s = config.settings
        #expect(s.kind == .sm2 && config.scheduler == .sm2)
        #expect(s.dayRolloverHour == 0 && config.dayRollover == 0)
        #expect(s.desiredRetention == 0.85)
        #expect(s.learningSteps == [30, 300, 5400, 172_800, 900])
        #expect(s.relearningSteps == [])
        #expect(s.maximumInterval == 365)
        #expect(!s.fuzz && !s.intervalOrdering)
        #expect(s.buttons == 3 && s.ratings == [.again, .good, .easy])
        #expect(s.parameters.sourceCount == 17)
    }

    @Test func templateReadsAsTheDefaults() {
        let (config, diagnostics) = parse(VaultConfig.template)
        #expect(diagnostics.isEmpty)
        #expect(config == VaultConfig())
    }

    @Test func deckOverridesLayerOnTheVaultSettingsAndTheLongestPrefixWins() throws {
        let (config, diagnostics) = parse("""
            desired_retention: 0.8
            buttons: 3
            decks:
              Languages:
                scheduler: sm2
              Languages/Spanish/Verbs:
                scheduler: flow
              Biology:
                desired_retention: 0.95

            """)
        #expect(diagnostics.isEmpty)
        func settings(_ deck: String) throws -> SchedulerSettings { config.settings(for: try #require(DeckPath(deck))) }
        #expect(try settings("History").kind == .fsrs)
        #expect(try settings("History").desiredRetention == 0.8)
        #expect(try settings("Languages/French").kind == .sm2)
        #expect(try settings("Languages/French").buttons == 3)
        #expect(try settings("Languages/Spanish/Verbs/Irregular").kind == .flow)
        #expect(try settings("Languages/Spanish").kind == .sm2)
        #expect(try settings("Biology/Cells").desiredRetention == 0.95)
        #expect(try settings("Biology/Cells").buttons == 3)
        #expect(try settings("LanguagesX").kind == .fsrs)
    }

    @Test func badValuesAndUnknownKeysAreWarningsWithLocations() {
        let (config, diagnostics) = parse("""
            scheduler: anki
            day_rollover: 24
            colour: red
            learning_steps: [1m, -3m]
            fsrs_parameters: [1, 2]
            decks:
              Spanish:
                day_rollover: 3
                buttons: 5
              Biology: sm2

            """)
        #expect(config.settings == SchedulerSettings())
        #expect(config.deckSettings.map(\.deck.description) == ["Spanish"])
        #expect(printed(diagnostics) == [
            ".quire/config.yaml:1:12: warning: 'scheduler' must be fsrs, sm2 or flow; setting ignored",
            ".quire/config.yaml:2:15: warning: 'day_rollover' must be an hour from 0 to 23; setting ignored",
            ".quire/config.yaml:3:1: warning: unknown setting 'colour'",
            ".quire/config.yaml:4:17: warning: 'learning_steps' must be a list of durations like [1m, 10m] (s, m, h or d; a bare number is minutes); setting ignored",
            ".quire/config.yaml:5:18: warning: FSRS parameters: expected 17, 19 or 21 values, got 2; setting ignored",
            ".quire/config.yaml:8:5: warning: 'day_rollover' applies to the whole vault and cannot be set per deck",
            ".quire/config.yaml:9:14: warning: 'buttons' must be 3 or 4; setting ignored",
            ".quire/config.yaml:10:12: error: the settings for deck 'Biology' must be a mapping",
        ])
    }

    /// `ignore:`: a list (or one pattern); an empty, climbing or control-character entry is a
    /// located warning and unused; the key's value shown as `quire config` shows it.
    @Test func ignoredPaths() {
        #expect(parse("ignore: [Templates, '**/*.draft.md']\n").config.ignore == ["Templates", "**/*.draft.md"])
        #expect(parse("ignore: Templates/\n").config.ignore == ["Templates/"])
        #expect(parse("ignore:\n").config.ignore.isEmpty && parse("ignore:\n").diagnostics.isEmpty)
        let bad = parse("ignore: [ok, '', ../up, \"a\\tb\", {x: 1}]\n")
        #expect(bad.config.ignore == ["ok"])
        #expect(bad.diagnostics.count == 4 && bad.diagnostics.allSatisfy {
            $0.line == 1 && $0.message == "an 'ignore' entry must be a path or pattern inside the vault, like Templates; unused"
        }, "\(printed(bad.diagnostics))")
        #expect(printed(parse("ignore: {a: b}\n").diagnostics).first?.contains("'ignore' must be a list") == true)
        #expect(VaultConfig.flowItem("Templates") == "Templates" && VaultConfig.flowItem("**/*.md") == "'**/*.md'"
                && VaultConfig.flowItem("It's, here") == "'It''s, here'")
    }

    @Test func emptyAndNonMappingFiles() {
        #expect(VaultConfig.parse([], path: "c").diagnostics.isEmpty)
        #expect(printed(VaultConfig.parse(Array("- a\n".utf8), path: "c").diagnostics) == ["c:1:1: error: settings must be a mapping"])
    }
}
