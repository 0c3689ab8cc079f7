import QuireModel
import QuireScheduling
import QuireYAML
import QuireSystem
import QuireParsing
import QuireVault

/// Which scheduler decides when cards are due (`fsrs`, `sm2`, `flow`).
public typealias SchedulerKind = SchedulerSettings.Kind

/// Settings from `.quire/config.yaml` (FORMAT.md §7): the vault's scheduler settings and the
/// overrides for deck prefixes under `decks:`.
public struct VaultConfig: Sendable, Equatable {
    /// The settings for cards whose deck no override names.
    public var settings = SchedulerSettings()
    /// Settings for decks and their sub-decks, complete (the vault's settings with the override's
    /// keys applied), most specific first.
    public var deckSettings: [(deck: DeckPath, settings: SchedulerSettings)] = []

    /// Daily limits and session defaults for `quire review` and `quire today`.
    public var study = StudySettings()

    /// The day `quire optimize --write` fitted the vault's parameters (`fsrs_optimized`), and
    /// each deck's that it fitted apart.
    public var parametersFitted: String?
    public var deckParametersFitted: [DeckPath: String] = [:]

    /// Which card syntax the vault's notes use (`card_syntax`, FORMAT.md §3.8).
    public var cardSyntax: CardSyntaxName = .quire

    /// The note categories (`categories:`, FORMAT.md §7.3) with their colours (`#rrggbb`), as
    /// written; without the key, the ones `quire init` seeds.
    public var categories: [(name: String, color: String?)] = VaultConfig.seededCategories
    /// When curation reviews fall due (`review_days`): the week's ISO weekday (1 Monday … 7 Sunday),
    /// the day of the next month, the month and day of the next year.
    public var reviewDays = (weekday: 7, monthDay: 1, yearMonth: 1, yearDay: 1)
    /// The folder `quire new` writes notes into (`notes_folder`, relative to the vault).
    public var notesFolder = "Notes"
    /// Which notes enter curation (`curation_notes`, a query, docs/QUERIES.md); nil for the default
    /// rule: notes in the notes folder, notes with a category, and notes already curated.
    public var curationNotes: Query?
    /// The source types offered for notes (`source_types:`); without the key, the seeded ones.
    public var sourceTypes: [String] = ["Link", "Book", "Video", "Podcast", "Article", "Person", "Other"]
    /// The paths that are no notes of the vault (`ignore:`, ``IgnoredPaths``): templates, drafts.
    public var ignore: [String] = []

    /// The categories `quire init` writes, with their colours.
    public static let seededCategories: [(name: String, color: String?)] = [
        ("Productivity", "#137fec"), ("Relationships", "#ec4899"), ("Health", "#10b981"), ("Finance", "#f59e0b"),
        ("Leadership", "#8b5cf6"), ("Mindset", "#ef4444"), ("Career", "#06b6d4"), ("Communication", "#84cc16"),
        ("Learning", "#fb923c"),
    ]

    /// The values of `card_syntax`.
    public enum CardSyntaxName: String, Sendable, Equatable {
        /// Quire's own (FORMAT.md §3.1–§3.7).
        case quire
        /// The Obsidian spaced-repetition plugin's, with its settings from `.obsidian/`.
        case obsidianSR = "obsidian-sr"
    }

    /// Default settings.
    /// Whether a note enters curation (FORMAT.md §2.2): it matches `curation_notes` when that is
    /// set; otherwise it is in the notes folder (at the vault's top when that is ""), has a
    /// category, or was curated already (`cycle` or `reviewed`). So a deck of cards imported from
    /// Anki does not flood the weekly review.
    public func curates(_ note: Note, now: Timestamp, dayEnd: Timestamp) -> Bool {
        if let curationNotes { return curationNotes.matches(note: note, now: now, dayEnd: dayEnd) }
        if note.category != nil || note.cycle != nil || note.reviewed != nil { return true }
        if notesFolder.isEmpty { return !note.path.contains("/") }
        return note.path.hasPrefix(notesFolder + "/")
    }

    public init() {}

    /// The scheduler used where no deck override applies.
    public var scheduler: SchedulerKind { settings.kind }
    /// Hour (0–23, local time) when a new study day begins; one for the whole vault.
    public var dayRollover: Int { settings.dayRolloverHour }

    /// The settings for a card in `deck`: the longest `decks:` prefix that contains it, else the
    /// vault's.
    public func settings(for deck: DeckPath) -> SchedulerSettings {
        deckSettings.first { deck.isWithin($0.deck) }?.settings ?? settings
    }

    /// The day the parameters that apply to `deck` were fitted by `quire optimize --write`; nil
    /// for the defaults or parameters written by hand.
    public func parametersFitted(for deck: DeckPath) -> String? {
        guard let override = deckSettings.first(where: { deck.isWithin($0.deck) }) else { return parametersFitted }
        if let day = deckParametersFitted[override.deck] { return day }
        return override.settings.parameters == settings.parameters ? parametersFitted : nil
    }

    public static func == (a: VaultConfig, b: VaultConfig) -> Bool {
        a.settings == b.settings && a.study == b.study && a.cardSyntax == b.cardSyntax
            && a.parametersFitted == b.parametersFitted && a.deckParametersFitted == b.deckParametersFitted
            && a.deckSettings.elementsEqual(b.deckSettings) { $0.deck == $1.deck && $0.settings == $1.settings }
            && a.categories.elementsEqual(b.categories) { $0.name == $1.name && $0.color == $1.color }
            && a.sourceTypes == b.sourceTypes && a.notesFolder == b.notesFolder && a.curationNotes == b.curationNotes && a.reviewDays == b.reviewDays
            && a.ignore == b.ignore
    }

    /// A text as an item of a YAML flow list: plain when YAML reads it back so, else single-quoted.
    public static func flowItem(_ text: String) -> String {
        let plain = !text.isEmpty && !text.contains(where: { ",[]{}#&*!|>'\"%@`:?".contains($0) })
            && text.first.map { $0 != "-" && $0 != " " } == true && text.last != " "
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Whether a text is a colour `#rrggbb`.
    public static func isColor(_ text: String) -> Bool {
        let u = Array(text.utf8)
        return u.count == 7 && u[0] == UInt8(ascii: "#") && u.dropFirst().allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) }
    }

    /// The file `quire init` writes.
    public static let template = """
        # Quire settings. See docs/FORMAT.md in the Quire repository.
        scheduler: fsrs        # fsrs | sm2 | flow
        day_rollover: 4        # hour (local time) when a new study day begins
        desired_retention: 0.9 # FSRS: the chance of recall intervals aim for
        learning_steps: [1m, 10m]
        relearning_steps: [10m]
        maximum_interval: 36500  # days
        fuzz: true             # spread review intervals a little
        buttons: 4             # 4: again/hard/good/easy; 3: again/good/easy
        new_per_day: 20        # new cards a day, at most
        reviews_per_day: 200   # reviews a day, at most
        session: mixed         # quire review's default: new (20) | review (25) | mixed (5 new + 20)
        bury_siblings: true    # a cloze group's or reversed pair's cards not on the same day
        leech_threshold: 8     # lapses that make a card a leech (0: never)
        leech_action: suspend  # suspend | tag: a leech's note is tagged 'leech', and the card suspended
        card_syntax: quire     # quire | obsidian-sr (exactly the cards of the Obsidian spaced-repetition plugin)
        categories:            # note categories and their colours (quire category add|rename|remove|list)
          Productivity: "#137fec"
          Relationships: "#ec4899"
          Health: "#10b981"
          Finance: "#f59e0b"
          Leadership: "#8b5cf6"
          Mindset: "#ef4444"
          Career: "#06b6d4"
          Communication: "#84cc16"
          Learning: "#fb923c"
        source_types: [Link, Book, Video, Podcast, Article, Person, Other]
        notes_folder: Notes    # where quire new writes notes
        # ignore: [Templates]  # folders and files that are no notes (templates, drafts; patterns like **/*.draft.md)
        review_days:           # when curation reviews fall due (quire curate status)
          weekly: sunday
          monthly: 1           # day of the next month
          yearly: 01-01        # month-day of the next year
        # decks:               # settings for a deck and its sub-decks
        #   Languages/Spanish:
        #     scheduler: sm2

        """

    /// Reads settings; problems come back as diagnostics for `path`, and the defaults are used for
    /// the settings in question.
    public static func parse(_ bytes: [UInt8], path: String) -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        var config = VaultConfig()
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(bytes, baseMark: .start)
        } catch {
            return (config, [Diagnostic(.error, path: path, line: error.mark.line, column: error.mark.column,
                                        message: error.message)])
        }
        guard let root else { return (config, []) }
        var reader = SettingsReader(path: path)
        guard let map = root.mapping else {
            return (config, [Diagnostic(.error, path: path, line: root.start.line, column: root.start.column,
                                        message: "settings must be a mapping")])
        }
        var draft = SettingsDraft(SchedulerSettings())
        var study = StudySettings()
        var deckNodes: [(YAMLScalar, YAMLNode)] = []
        reader.reportRepeatedKeys(map.entries)
        for (key, value) in map.entries {
            switch key.value {
            case "decks":
                if let decks = value.mapping {
                    deckNodes = decks.entries
                    reader.reportRepeatedKeys(decks.entries)
                } else if !(value.scalar?.isNull ?? false) {
                    reader.problem(.error, value.start, "'decks' must map deck names to settings")
                }
            case "fsrs_optimized": config.parametersFitted = reader.day(value)
            case "categories": config.categories = reader.categories(value)
            case "review_days": reader.readReviewDays(value, into: &config.reviewDays)
            case "notes_folder": reader.readNotesFolder(value, into: &config)
            case "curation_notes": reader.readCurationNotes(value, into: &config)
            case "source_types": reader.readSourceTypes(value, into: &config)
            case "ignore": reader.readIgnore(value, into: &config)
            case "card_syntax": reader.readCardSyntax(value, into: &config)
            default:
                if !reader.readStudy(key, value, into: &study) { reader.read(key, value, into: &draft, topLevel: true) }
            }
        }
        config.study = study
        config.settings = reader.build(draft, at: root.start, fallback: SchedulerSettings())
        for (key, value) in deckNodes { reader.readDeck(key, value, into: &config) }
        // Most specific first, so the first prefix that matches is the longest.
        config.deckSettings.sort { $0.deck.components.count > $1.deck.components.count }
        return (config, reader.diagnostics)
    }
}

/// The keys of `.quire/config.yaml` that are not scheduler settings, each read by a step of its own.
extension SettingsReader {
    /// `categories:`, names and colours (a colour that is not `#rrggbb` is a warning and unused).
    mutating func categories(_ value: YAMLNode) -> [(name: String, color: String?)] {
        guard let entries = value.mapping?.entries else {
            if !(value.scalar?.isNull ?? false) {
                problem(.warning, value.start, "'categories' must map category names to colours (#137fec)")
            }
            return []
        }
        reportRepeatedKeys(entries)
        return entries.map { name, color in
            let text = color.scalar.flatMap { $0.isNull ? nil : $0.value }
            if let text, !VaultConfig.isColor(text) {
                problem(.warning, color.start, "the colour of category '\(name.value)' must be like #137fec; none used")
            }
            return (name.value, text.flatMap { VaultConfig.isColor($0) ? $0 : nil })
        }
    }

    /// `review_days:`, the days of the weekly, monthly and yearly curation reviews.
    mutating func readReviewDays(_ value: YAMLNode, into days: inout (weekday: Int, monthDay: Int, yearMonth: Int, yearDay: Int)) {
        for (k, v) in value.mapping?.entries ?? [] {
            let text = v.scalar?.value.lowercased() ?? ""
            switch k.value {
            case "weekly":
                let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
                if let i = names.firstIndex(of: text) { days.weekday = i + 1 } else {
                    problem(.warning, v.start, "'weekly' must be a day of the week, like sunday")
                }
            case "monthly":
                if let d = Int(text), (1...31).contains(d) { days.monthDay = d } else {
                    problem(.warning, v.start, "'monthly' must be a day of the month, 1 to 31")
                }
            case "yearly":
                let parts = text.split(separator: "-").compactMap { Int($0) }
                if parts.count == 2, (1...12).contains(parts[0]), (1...31).contains(parts[1]) {
                    days.yearMonth = parts[0]
                    days.yearDay = parts[1]
                } else {
                    problem(.warning, v.start, "'yearly' must be a month and day, like 01-01")
                }
            default:
                problem(.warning, k.start, "unknown review '\(k.value)' (weekly, monthly, yearly)")
            }
        }
    }

    mutating func readNotesFolder(_ value: YAMLNode, into config: inout VaultConfig) {
        let text = value.scalar?.value ?? ""
        if Vault.isPlainRelativePath(text) || text.isEmpty { config.notesFolder = text } else {
            problem(.warning, value.start, "'notes_folder' must be a folder inside the vault, like Notes")
        }
    }

    mutating func readCurationNotes(_ value: YAMLNode, into config: inout VaultConfig) {
        let text = value.scalar?.value ?? ""
        if text.isEmpty || value.scalar?.isNull == true {
            config.curationNotes = nil
        } else {
            do { config.curationNotes = try Query(parsing: text) } catch {
                problem(.warning, value.start, "'curation_notes' is not a query (\(error.description)); the default rule stands")
            }
        }
    }

    mutating func readSourceTypes(_ value: YAMLNode, into config: inout VaultConfig) {
        if let items = value.sequence?.items {
            config.sourceTypes = items.compactMap { $0.scalar?.value }
        } else if !(value.scalar?.isNull ?? false) {
            problem(.warning, value.start, "'source_types' must be a list, like [Book, Article]")
        }
    }

    /// `ignore:`, a list of path patterns (one pattern alone is a list of one); a pattern that is
    /// empty, holds a control character or climbs out (`..`) is a warning and unused.
    mutating func readIgnore(_ value: YAMLNode, into config: inout VaultConfig) {
        let items: [YAMLNode]
        if let list = value.sequence?.items {
            items = list
        } else if let scalar = value.scalar {
            if scalar.isNull { return }
            items = [value]
        } else {
            problem(.warning, value.start, "'ignore' must be a list of paths or patterns, like [Templates, '**/*.draft.md']")
            return
        }
        for item in items {
            guard let text = item.scalar.flatMap({ $0.isNull ? nil : $0.value.trimmingSpaces() }), !text.isEmpty,
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
                  !text.split(separator: "/").contains("..") else {
                problem(.warning, item.start, "an 'ignore' entry must be a path or pattern inside the vault, like Templates; unused")
                continue
            }
            config.ignore.append(text)
        }
    }

    mutating func readCardSyntax(_ value: YAMLNode, into config: inout VaultConfig) {
        if let name = value.scalar.flatMap({ VaultConfig.CardSyntaxName(rawValue: $0.value) }) {
            config.cardSyntax = name
        } else {
            problem(.error, value.start, "'card_syntax' must be quire or obsidian-sr")
        }
    }

    /// One deck's settings under `decks:`, over the vault's (read first).
    mutating func readDeck(_ key: YAMLScalar, _ value: YAMLNode, into config: inout VaultConfig) {
        guard let deck = DeckPath(key.value) else {
            return problem(.error, key.start, "'\(key.value)' is not a deck name")
        }
        guard let entries = value.mapping?.entries else {
            return problem(.error, value.start, "the settings for deck '\(deck)' must be a mapping")
        }
        var deckDraft = SettingsDraft(config.settings)
        reportRepeatedKeys(entries)
        for (k, v) in entries {
            if k.value == "fsrs_optimized" {
                config.deckParametersFitted[deck] = day(v)
            } else {
                read(k, v, into: &deckDraft, topLevel: false)
            }
        }
        config.deckSettings.append((deck, build(deckDraft, at: value.start, fallback: config.settings)))
    }
}

/// The settings being read, before validation as a whole.
private struct SettingsDraft {
    var kind: SchedulerKind
    var desiredRetention: Double
    var learningSteps: [Int]
    var relearningSteps: [Int]
    var maximumInterval: Int
    var fuzz: Bool
    var buttons: Int
    var parameters: [Double]
    var dayRolloverHour: Int
    var intervalOrdering: Bool

    init(_ s: SchedulerSettings) {
        kind = s.kind
        desiredRetention = s.desiredRetention
        learningSteps = s.learningSteps
        relearningSteps = s.relearningSteps
        maximumInterval = s.maximumInterval
        fuzz = s.fuzz
        buttons = s.buttons
        parameters = s.parameters.values
        dayRolloverHour = s.dayRolloverHour
        intervalOrdering = s.intervalOrdering
    }
}

/// Reads setting keys into a draft, collecting diagnostics with their locations.
private struct SettingsReader {
    let path: String
    var diagnostics: [Diagnostic] = []

    init(path: String) { self.path = path }

    mutating func problem(_ severity: Diagnostic.Severity, _ mark: YAMLMark, _ message: String) {
        diagnostics.append(Diagnostic(severity, path: path, line: mark.line, column: mark.column, message: message))
    }

    /// A warning for each key written again in one mapping: the last one counts, as YAML readers
    /// that accept repeats take it.
    mutating func reportRepeatedKeys(_ entries: [(key: YAMLScalar, value: YAMLNode)]) {
        var first: [String: YAMLMark] = [:]
        for entry in entries {
            if let earlier = first[entry.key.value] {
                problem(.warning, entry.key.start, "'\(entry.key.value)' is repeated (first at line \(earlier.line)); this later one counts")
            } else {
                first[entry.key.value] = entry.key.start
            }
        }
    }

    /// Reads a study setting; false when `key` is not one.
    mutating func readStudy(_ key: YAMLScalar, _ value: YAMLNode, into s: inout StudySettings) -> Bool {
        let scalar = value.scalar
        func warn(_ expected: String) { problem(.warning, value.start, "'\(key.value)' must be \(expected); setting ignored") }
        switch key.value {
        case "new_per_day":
            if let n = scalar?.int, (0...100_000).contains(n) { s.newPerDay = n } else { warn("a number from 0 to 100000") }
        case "reviews_per_day":
            if let n = scalar?.int, (0...1_000_000).contains(n) { s.reviewsPerDay = n } else { warn("a number from 0 to 1000000") }
        case "session":
            if let m = scalar.flatMap({ StudyMode(rawValue: $0.value) }), m != .custom { s.mode = m } else { warn("new, review or mixed") }
        case "bury_siblings":
            if let b = scalar?.bool { s.burySiblings = b } else { warn("true or false") }
        case "leech_threshold":
            if let n = scalar?.int, (0...1000).contains(n) { s.leechThreshold = n } else { warn("a number from 0 (never) to 1000") }
        case "leech_action":
            if let a = scalar.flatMap({ LeechAction(rawValue: $0.value) }) { s.leechAction = a } else { warn("suspend or tag") }
        default:
            return false
        }
        return true
    }

    /// A day written `YYYY-MM-DD`; else a warning and nil.
    mutating func day(_ value: YAMLNode) -> String? {
        let text = value.scalar?.value ?? ""
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) {
            return text
        }
        problem(.warning, value.start, "'fsrs_optimized' must be a day like 2026-11-27; setting ignored")
        return nil
    }

    mutating func read(_ key: YAMLScalar, _ value: YAMLNode, into d: inout SettingsDraft, topLevel: Bool) {
        let name = key.value
        let scalar = value.scalar
        func warn(_ expected: String) { problem(.warning, value.start, "'\(name)' must be \(expected); setting ignored") }
        switch name {
        case "scheduler":
            if let s = scalar.flatMap({ SchedulerKind(rawValue: $0.value.lowercased()) }) { d.kind = s } else { warn("fsrs, sm2 or flow") }
        case "day_rollover":
            guard topLevel else {
                problem(.warning, key.start, "'day_rollover' applies to the whole vault and cannot be set per deck")
                return
            }
            if let h = scalar?.int, (0...23).contains(h) { d.dayRolloverHour = h } else { warn("an hour from 0 to 23") }
        case "desired_retention":
            if let r = scalar?.double, r > 0, r < 1 { d.desiredRetention = r } else { warn("a number between 0 and 1, like 0.9") }
        case "learning_steps", "relearning_steps":
            if let steps = Self.steps(value) {
                if name == "learning_steps" { d.learningSteps = steps } else { d.relearningSteps = steps }
            } else {
                warn("a list of durations like [1m, 10m] (s, m, h or d; a bare number is minutes)")
            }
        case "maximum_interval":
            if let n = scalar?.int, (1...36_500).contains(n) { d.maximumInterval = n } else { warn("a number of days from 1 to 36500") }
        case "fuzz":
            if let b = scalar?.bool { d.fuzz = b } else { warn("true or false") }
        case "buttons":
            if let n = scalar?.int, n == 3 || n == 4 { d.buttons = n } else { warn("3 or 4") }
        case "interval_ordering":
            if let b = scalar?.bool { d.intervalOrdering = b } else { warn("true or false") }
        case "fsrs_parameters":
            let numbers = value.sequence?.items.map { $0.scalar?.double }
            guard let numbers, numbers.allSatisfy({ $0 != nil }) else {
                warn("a list of 17, 19 or 21 numbers")
                return
            }
            let values = numbers.compactMap { $0 }
            do {
                _ = try FSRSParameters(values)
                d.parameters = values
            } catch {
                problem(.warning, value.start, error.description + "; setting ignored")
            }
        default:
            problem(.warning, key.start, "unknown setting '\(name)'")
        }
    }

    /// Validates the draft as a whole; on failure reports it and returns `fallback`.
    mutating func build(_ d: SettingsDraft, at mark: YAMLMark, fallback: SchedulerSettings) -> SchedulerSettings {
        do {
            return try SchedulerSettings(kind: d.kind, desiredRetention: d.desiredRetention, learningSteps: d.learningSteps,
                                         relearningSteps: d.relearningSteps, maximumInterval: d.maximumInterval,
                                         fuzz: d.fuzz, buttons: d.buttons, parameters: d.parameters,
                                         dayRolloverHour: d.dayRolloverHour, intervalOrdering: d.intervalOrdering)
        } catch {
            problem(.warning, mark, error.description + "; using the defaults")
            return fallback
        }
    }

    /// Durations in seconds from a list like `[1m, 10m]` (units s, m, h, d; a bare number is minutes,
    /// as in Anki). Nil when any item is not a positive duration.
    static func steps(_ node: YAMLNode) -> [Int]? {
        let items: [String]
        if let seq = node.sequence {
            guard let texts = Optional(seq.items.compactMap { $0.scalar?.value }), texts.count == seq.items.count else { return nil }
            items = texts
        } else if let s = node.scalar {
            items = s.isNull ? [] : s.value.split(separator: " ").map(String.init)
        } else {
            return nil
        }
        var out: [Int] = []
        for item in items {
            guard let seconds = duration(item) else { return nil }
            out.append(seconds)
        }
        return out
    }

    /// `90s`, `10m`, `1.5h`, `2d`, or minutes without a unit.
    static func duration(_ text: String) -> Int? {
        let t = text.trimmingSpaces()
        let unit = t.last.flatMap { "smhd".contains($0) ? $0 : nil }
        guard let number = Double(unit == nil ? t : String(t.dropLast())), number.isFinite, number > 0 else { return nil }
        let scale: Double = switch unit {
        case "s": 1
        case "h": 3600
        case "d": 86_400
        default: 60
        }
        let seconds = (number * scale).rounded()
        return seconds >= 1 && seconds < 1e9 ? Int(seconds) : nil
    }
}

extension Vault {
    /// The vault's settings: defaults when there is no config file; when there is one that cannot
    /// be read (a link, a FIFO, no permission), the defaults with an error saying so. Commands that
    /// schedule use ``readConfig()``, which refuses instead.
    public func config() -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        do { return try readConfig() } catch {
            return (VaultConfig(), [Diagnostic(.error, path: Vault.folderName + "/config.yaml",
                                               message: Self.reason(error) + "; the default settings are used")])
        }
    }

    /// The vault's settings (defaults when there is no config file, with the file's problems as
    /// diagnostics), or an error when the file exists but cannot be read: scheduling with the
    /// default settings instead of the user's would be wrong without a word.
    public func readConfig() throws(FileIOError) -> (config: VaultConfig, diagnostics: [Diagnostic]) {
        let rel = Vault.folderName + "/config.yaml"
        let path = try internalPath(rel)
        guard linkStamp(rel) != nil else { return (VaultConfig(), []) }
        return VaultConfig.parse(try io.read(path).bytes, path: rel)
    }

    /// The paths that are no notes of the vault (`ignore:` in `.quire/config.yaml`).
    public func ignoredPaths() -> IgnoredPaths { IgnoredPaths(config().config.ignore) }

    /// The card syntax of the vault's notes (FORMAT.md §3.8): Quire's own, or the Obsidian
    /// spaced-repetition plugin's with the settings of its `data.json` (its defaults when the file
    /// is missing; when it cannot be read or holds errors, its defaults with a diagnostic).
    public func cardSyntax() -> (syntax: CardSyntax, diagnostics: [Diagnostic]) {
        guard config().config.cardSyntax == .obsidianSR else { return (.quire, []) }
        let plugin = obsidianSRSettings()
        return (.obsidianSR(plugin.settings), plugin.diagnostics)
    }

    /// The Obsidian spaced-repetition plugin's settings from its `data.json` (its defaults when the
    /// file is missing; when it cannot be read, its defaults with a diagnostic), whatever the
    /// vault's `card_syntax`.
    public func obsidianSRSettings() -> (settings: ObsidianSRSettings, diagnostics: [Diagnostic]) {
        let rel = ObsidianSRSettings.dataPath
        guard linkStamp(rel) != nil else { return (ObsidianSRSettings(), []) }
        do {
            // A constant path inside the vault: no folder on the way may be a link, and the file
            // itself is opened without following one (FileIO.read).
            return ObsidianSRSettings.read(try io.read(try io.pathWithoutLinkedFolders(root, rel)).bytes, path: rel)
        } catch {
            return (ObsidianSRSettings(), [Diagnostic(.error, path: rel, message: Self.reason(error) + "; the plugin's default settings are used")])
        }
    }

    /// The stamp of a path relative to the root, not following a final link.
    func linkStamp(_ relative: String) -> FileStamp? { io.linkStamp(fullPath(relative)) }

    /// A file error's message without the path it starts with (a diagnostic shows the path).
    static package func reason(_ error: FileIOError) -> String {
        let text = error.description
        guard let colon = text.range(of: ": ") else { return text }
        return String(text[colon.upperBound...])
    }
}
