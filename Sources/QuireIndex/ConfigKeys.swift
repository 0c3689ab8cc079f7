import QuireModel
import QuireSupport
import QuireScheduling
import QuireYAML

/// One setting of `.quire/config.yaml` (FORMAT.md §7), as `quire config` shows and sets it.
public struct ConfigKey: Sendable {
    /// The key as written.
    public let name: String
    /// What it takes, as the error for a wrong value says it.
    public let takes: String
    /// What it does.
    public let about: String
    /// Whether a deck may set it under `decks:` (the scheduler's keys but `day_rollover`).
    public let perDeck: Bool
    /// The value in use, as YAML, from the settings that apply (the deck's or the vault's).
    let value: @Sendable (SchedulerSettings, VaultConfig) -> String
}

/// Every setting `quire config` knows, in the order `list` shows them.
public enum ConfigKeys {
    public static let all: [ConfigKey] = [
        ConfigKey(name: "scheduler", takes: "fsrs, sm2 or flow", about: "the scheduler", perDeck: true) { s, _ in s.kind.rawValue },
        ConfigKey(name: "desired_retention", takes: "a number between 0 and 1", about: "FSRS: the chance of recall intervals aim for",
                  perDeck: true) { s, _ in number(s.desiredRetention) },
        ConfigKey(name: "learning_steps", takes: "a list of durations like [1m, 10m]", about: "FSRS: steps of a new card",
                  perDeck: true) { s, _ in steps(s.learningSteps) },
        ConfigKey(name: "relearning_steps", takes: "a list of durations like [10m]", about: "FSRS: steps after a lapse",
                  perDeck: true) { s, _ in steps(s.relearningSteps) },
        ConfigKey(name: "maximum_interval", takes: "days, 1 to 36500", about: "the longest interval", perDeck: true) { s, _ in
            String(s.maximumInterval)
        },
        ConfigKey(name: "fuzz", takes: "true or false", about: "FSRS: spread review intervals a little", perDeck: true) { s, _ in String(s.fuzz) },
        ConfigKey(name: "buttons", takes: "3 or 4", about: "answer buttons: 4 again/hard/good/easy, 3 again/good/easy", perDeck: true) { s, _ in
            String(s.buttons)
        },
        ConfigKey(name: "interval_ordering", takes: "true or false", about: "FSRS: keep hard < good < easy intervals", perDeck: true) { s, _ in
            String(s.intervalOrdering)
        },
        ConfigKey(name: "fsrs_parameters", takes: "a list of 17, 19 or 21 numbers", about: "FSRS weights (quire optimize --write fits them)",
                  perDeck: true) { s, _ in "[" + s.parameters.values.map(number).joined(separator: ", ") + "]" },
        ConfigKey(name: "day_rollover", takes: "an hour from 0 to 23", about: "local hour a study day begins", perDeck: false) { s, _ in
            String(s.dayRolloverHour)
        },
        ConfigKey(name: "new_per_day", takes: "a number from 0 to 100000", about: "new cards a day", perDeck: false) { _, c in
            String(c.study.newPerDay)
        },
        ConfigKey(name: "reviews_per_day", takes: "a number from 0 to 1000000", about: "reviews a day", perDeck: false) { _, c in
            String(c.study.reviewsPerDay)
        },
        ConfigKey(name: "session", takes: "new, review or mixed", about: "what quire review QUERY studies", perDeck: false) { _, c in
            c.study.mode.rawValue
        },
        ConfigKey(name: "bury_siblings", takes: "true or false", about: "one card of a note a day", perDeck: false) { _, c in
            String(c.study.burySiblings)
        },
        ConfigKey(name: "leech_threshold", takes: "a number from 0 (never) to 1000", about: "lapses that make a card a leech",
                  perDeck: false) { _, c in String(c.study.leechThreshold) },
        ConfigKey(name: "leech_action", takes: "suspend or tag", about: "what becomes of a leech", perDeck: false) { _, c in
            c.study.leechAction.rawValue
        },
        ConfigKey(name: "card_syntax", takes: "quire or obsidian-sr", about: "how cards are written in notes", perDeck: false) { _, c in
            c.cardSyntax.rawValue
        },
        ConfigKey(name: "notes_folder", takes: "a folder of the vault", about: "where quire new writes notes", perDeck: false) { _, c in
            c.notesFolder
        },
        ConfigKey(name: "ignore", takes: "a list of paths or patterns like [Templates, '**/*.draft.md']",
                  about: "folders and files that are no notes", perDeck: false) { _, c in
            "[" + c.ignore.map(VaultConfig.flowItem).joined(separator: ", ") + "]"
        },
    ]

    /// The key named `name`.
    public static func key(_ name: String) -> ConfigKey? { all.first { $0.name == name } }

    /// What to say of a name that is no setting: the nearest setting when one is near
    /// (`desired-retention`: did you mean `desired_retention`?).
    public static func unknown(_ name: String) -> String {
        let near = EditDistance.suggestion(for: name, among: all.map(\.name))
        return "no setting '\(name)'" + (near.map { "; did you mean '\($0)'?" } ?? " (quire config list shows them)")
    }

    /// A setting in use: its value, and where it comes from — `default`, or the file's line
    /// (`.quire/config.yaml:12`, with the deck entry it is in).
    public struct Setting: Sendable, Equatable {
        public var key: String
        public var value: String
        public var source: String
    }

    /// The settings in use, for the vault or for `deck`, read from the settings file's bytes.
    public static func settings(_ file: [UInt8], config: VaultConfig, deck: DeckPath?, path: String = ".quire/config.yaml") -> [Setting] {
        let root = (try? YAMLParser.parse(file))?.mapping
        let entry = deck.flatMap { d in config.deckSettings.first { d.isWithin($0.deck) }?.deck }
        let deckMapping = entry.flatMap { e in root?["decks"]?.mapping?.entries.last { DeckPath($0.key.value) == e }?.value.mapping }
        let scheduler = deck.map { config.settings(for: $0) } ?? config.settings
        return all.map { key in
            var source = "default"
            if key.perDeck, let entry, let node = deckMapping?.entries.last(where: { $0.key.value == key.name }) {
                source = "\(path):\(node.key.start.line) (decks: \(entry))"
            } else if let node = root?.entries.last(where: { $0.key.value == key.name }) {
                source = "\(path):\(node.key.start.line)"
            }
            return Setting(key: key.name, value: key.value(scheduler, config), source: source)
        }
    }

    static func number(_ x: Double) -> String {
        let text = String(x)
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Steps in seconds as written: `[1m, 10m]`.
    static func steps(_ seconds: [Int]) -> String {
        "[" + seconds.map { s in
            if s % 86_400 == 0 { return "\(s / 86_400)d" }
            if s % 3600 == 0 { return "\(s / 3600)h" }
            if s % 60 == 0 { return "\(s / 60)m" }
            return "\(s)s"
        }.joined(separator: ", ") + "]"
    }
}
