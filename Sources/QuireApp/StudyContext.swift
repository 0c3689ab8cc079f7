import QuireIndex
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
import QuireSystem

/// What studying needs loaded, for any front end: the indexed vault, its settings, the log's
/// statistics, and the study day.
public struct StudyContext {
    public let loaded: LoadedVault
    public let config: VaultConfig
    public let stats: StudyStats
    /// The review log in order, undone events taken out.
    public let history: ReviewHistory
    public let now: Timestamp
    /// The local offset from UTC at ``now``, in seconds.
    public let utcOffset: Int
    /// The vault's study days (its `day_rollover`, this machine's time zone), built once here and
    /// passed down to everything that draws the line between two days.
    public let calendar: StudyCalendar

    /// - Parameters:
    ///   - config: the vault's settings (``LoadedVault/readSettings(of:)``).
    ///   - readLog: whether to read the log into ``history`` and ``stats`` (statistics read it their
    ///     own way, as a ``StatisticsLog``).
    public init(_ loaded: LoadedVault, config: VaultConfig, now: Timestamp, readLog: Bool = true) {
        self.loaded = loaded
        self.config = config
        self.now = now
        calendar = StudyCalendar(config)
        utcOffset = calendar.utcOffset(now)
        history = ReviewHistory(readLog ? loaded.vault.reviewLog().events : [])
        stats = StudyStats(history: history, calendar: calendar)
    }

    /// The deck of each card at `locations`.
    public func decks(of locations: [CardLocation]) -> [CardID: DeckPath] {
        let index = loaded.index
        var decks: [CardID: DeckPath] = [:]
        for loc in locations { decks[index.card(at: loc).id] = index.notes[loc.note].deck }
        return decks
    }

    /// The settings a logged event on a card was answered with: its `cfg=` snapshot, else the
    /// settings of the card's deck in `decks` (``SettingsResolver``).
    public func eventSettings(decks: [CardID: DeckPath]) -> @Sendable (ReviewEvent, CardID) -> SchedulerSettings {
        let resolver = SettingsResolver(vault: loaded.vault, config: config)
        return { event, card in resolver.settings(for: event, deck: decks[card]) }
    }

    /// Today's plan, optionally limited to cards a query selects.
    public func plan(query: Query? = nil, limit: Bool = true) -> StudyPlan {
        let index = loaded.index, now = now, dayEnd = dayEnd
        return StudyPlan(index: index, stats: stats, settings: config.study, now: now, calendar: calendar, limit: limit) { loc in
            guard let query else { return true }
            return query.matches(card: index.card(at: loc), in: index.notes[loc.note], now: now, dayEnd: dayEnd)
        }
    }

    /// The study day.
    public var today: Day { calendar.day(containing: now) }

    /// When the study day ends.
    public var dayEnd: Timestamp { calendar.end(containing: now) }
}

extension StudyCalendar {
    /// The study days `config` sets (`day_rollover`), in this machine's time zone.
    public init(_ config: VaultConfig) {
        self.init(rolloverHour: config.dayRollover, utcOffset: { SystemClock.utcOffset(at: $0) })
    }
}
