import Testing
import QuireIndex
import QuireModel
import QuireSystem
@testable import QuireReview
@testable import QuireTestSupport
import QuireVault

/// `quire config set|unset` on a real settings file: comments, order and quoting kept, values the
/// reader refuses refused with its located message, decks' entries edited in place.
@Suite struct VaultSettingsTests {
    static let file = """
        # My settings
        scheduler: fsrs        # the default
        desired_retention: 0.9
        decks:
          Languages:
            learning_steps: [1m, 10m]   # slow
          Chemistry: {fuzz: false}

        """

    @Test func setAndUnsetKeepEverythingElse() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", Self.file)
            let vault = try Vault(root: dir.path)
            try vault.setSetting("desired_retention", to: "0.85", deck: nil)
            try vault.setSetting("new_per_day", to: "30", deck: nil)
            try vault.setSetting("maximum_interval", to: "365", deck: DeckPath("Languages"))
            try vault.setSetting("buttons", to: "3", deck: DeckPath("Chemistry"))
            try vault.setSetting("fuzz", to: "true", deck: DeckPath("History"))
            try vault.setSetting("learning_steps", to: nil, deck: DeckPath("Languages"))
            try vault.setSetting("fuzz", to: nil, deck: DeckPath("History"))
            #expect(try dir.text(".quire/config.yaml") == """
                # My settings
                scheduler: fsrs        # the default
                desired_retention: 0.85
                decks:
                  Languages:
                    maximum_interval: 365
                  Chemistry: {fuzz: false, buttons: 3}
                new_per_day: 30

                """)
            let config = try vault.readConfig().config
            #expect(config.settings(for: DeckPath("Languages/Spanish")!).maximumInterval == 365)
            // The last key of a deck's block unset: the entry goes.
            try vault.setSetting("maximum_interval", to: nil, deck: DeckPath("Languages"))
            #expect(try !dir.text(".quire/config.yaml").contains("Languages"))
            #expect(config.settings(for: DeckPath("Chemistry")!).buttons == 3 && config.study.newPerDay == 30)
        }
    }

    @Test func refusedValuesWriteNothing() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", Self.file)
            let vault = try Vault(root: dir.path)
            for (key, value, deck) in [("desired_retention", "7", nil), ("buttons", "5", DeckPath("Languages")), ("nosuch", "1", nil),
                                       ("day_rollover", "3", DeckPath("Languages")), ("scheduler", "fsrs\nbuttons: 3", nil),
                                       ("learning_steps", "[1m, soon]", nil), ("new_per_day", "{a: 1}", nil)] as [(String, String, DeckPath?)] {
                #expect(throws: CategoryError.self, "\(key) \(value)") { try vault.setSetting(key, to: value, deck: deck) }
            }
            #expect(try dir.text(".quire/config.yaml") == Self.file)
            // The reader's own message, at the line and column of the value.
            do { try vault.setSetting("desired_retention", to: "7", deck: nil) } catch let error as CategoryError {
                #expect(error.description.hasPrefix(".quire/config.yaml:3:20: warning: 'desired_retention' must be a number between 0 and 1"))
            }
            // A name that is no setting: the nearest one when one is near.
            do { try vault.setSetting("desired-retention", to: "0.8", deck: nil) } catch let error as CategoryError {
                #expect(error.description == "no setting 'desired-retention'; did you mean 'desired_retention'?")
            }
            do { try vault.setSetting("nosuch", to: "1", deck: nil) } catch let error as CategoryError {
                #expect(error.description == "no setting 'nosuch' (quire config list shows them)")
            }
            #expect(try dir.text(".quire/config.yaml") == Self.file)
        }
    }

    @Test func whereEachValueComesFrom() throws {
        try withTempDir { dir in
            try dir.write(".quire/config.yaml", Self.file)
            let vault = try Vault(root: dir.path)
            let config = try vault.readConfig().config
            let bytes = try dir.read(".quire/config.yaml")
            let spanish = Dictionary(ConfigKeys.settings(bytes, config: config, deck: DeckPath("Languages/Spanish")).map { ($0.key, $0) }) { a, _ in a }
            #expect(spanish["learning_steps"]?.value == "[1m, 10m]" && spanish["learning_steps"]?.source == ".quire/config.yaml:6 (decks: Languages)")
            #expect(spanish["desired_retention"]?.source == ".quire/config.yaml:3")
            #expect(spanish["new_per_day"]?.value == "20" && spanish["new_per_day"]?.source == "default")
            #expect(ConfigKeys.all.allSatisfy { !$0.takes.isEmpty && !$0.about.isEmpty })
        }
    }
}
