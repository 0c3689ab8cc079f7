import Testing
import QuireModel
@testable import QuireVault

@Suite struct VaultConfigTests {
    @Test func readsSettings() {
        let (config, diagnostics) = VaultConfig.parse(Array("scheduler: SM2\nday_rollover: 0\n".utf8), path: ".quire/config.yaml")
        #expect(config.scheduler == .sm2)
        #expect(config.dayRollover == 0)
        #expect(diagnostics.isEmpty)
    }

    @Test func badValuesAndUnknownKeysAreWarnings() {
        let (config, diagnostics) = VaultConfig.parse(Array("scheduler: anki\nday_rollover: 24\ncolour: red\n".utf8),
                                                      path: ".quire/config.yaml")
        #expect(config == VaultConfig())
        #expect(printed(diagnostics) == [
            ".quire/config.yaml:1:12: warning: 'scheduler' must be fsrs, sm2 or flow; using fsrs",
            ".quire/config.yaml:2:15: warning: 'day_rollover' must be an hour from 0 to 23; using 4",
            ".quire/config.yaml:3:1: warning: unknown setting 'colour'",
        ])
    }

    @Test func emptyAndNonMappingFiles() {
        #expect(VaultConfig.parse([], path: "c").diagnostics.isEmpty)
        #expect(printed(VaultConfig.parse(Array("- a\n".utf8), path: "c").diagnostics) == ["c:1:1: error: settings must be a mapping"])
    }
}
