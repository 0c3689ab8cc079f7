import ArgumentParser
import QuireModel
import QuireScheduling
import QuireIndex
import QuireReview
import QuireStudy

/// What `today`, `due` and `review` share: the indexed vault, its settings, the log's statistics,
/// and the study day.
struct StudyContext {
    let loaded: LoadedVault
    let config: VaultConfig
    let stats: StudyStats
    /// The review log in order, undone events taken out.
    let history: ReviewHistory
    let now: Timestamp
    let utcOffset: Int

    /// - Parameter readLog: whether to read the log into ``history`` and ``stats`` (`quire stats`
    ///   reads it its own way, as a ``StatisticsLog``).
    init(_ options: VaultOptions, readLog: Bool = true) throws {
        loaded = try LoadedVault(options)
        let (config, diagnostics) = try LoadedVault.settings(of: loaded.vault)
        Output.diagnostics(diagnostics, root: loaded.vault.root, toStandardError: true, color: false)
        self.config = config
        now = options.now
        utcOffset = Clock.utcOffset(at: now)
        history = ReviewHistory(readLog ? loaded.vault.reviewLog().events : [])
        stats = StudyStats(history: history, utcOffset: { Clock.utcOffset(at: $0) },
                           rolloverHour: config.dayRollover)
    }

    /// The deck of each card at `locations`.
    func decks(of locations: [CardLocation]) -> [CardID: DeckPath] {
        let index = loaded.index
        var decks: [CardID: DeckPath] = [:]
        for loc in locations { decks[index.card(at: loc).id] = index.notes[loc.note].deck }
        return decks
    }

    /// The settings a logged event on a card was answered with: its `cfg=` snapshot, else the
    /// settings of the card's deck in `decks` (``SettingsResolver``).
    func eventSettings(decks: [CardID: DeckPath]) -> @Sendable (ReviewEvent, CardID) -> SchedulerSettings {
        let resolver = SettingsResolver(vault: loaded.vault, config: config)
        return { event, card in resolver.settings(for: event, deck: decks[card]) }
    }

    /// Today's plan, optionally limited to cards a query selects.
    func plan(query: Query? = nil, limit: Bool = true) -> StudyPlan {
        let index = loaded.index
        return StudyPlan(index: index, stats: stats, settings: config.study, now: now, utcOffset: utcOffset,
                         rolloverHour: config.dayRollover, limit: limit) { loc in
            guard let query else { return true }
            return query.matches(card: index.card(at: loc), in: index.notes[loc.note], now: now, dayEnd: dayEnd)
        }
    }

    /// The study day.
    var today: Day { Day(containing: now, utcOffsetSeconds: utcOffset, rolloverHour: config.dayRollover) }

    /// When the study day ends.
    var dayEnd: Timestamp { today.advanced(by: 1).start(utcOffsetSeconds: utcOffset, rolloverHour: config.dayRollover) }

    /// Why a session has nothing to study, and how to study more: the daily limits and the
    /// siblings that held cards back, and the ways past them.
    static func nothingToStudy(plan: StudyPlan, custom: CustomStudy?, settings: StudySettings) -> [String] {
        guard custom == nil else {
            let what = switch custom {
            case .ahead(let days): "no card is due in the next \(days == 1 ? "day" : "\(days) days") that is not due already"
            case .failedToday: "no card was answered Again today"
            case .forgotten(let days): "no card was answered Again in the last \(days == 1 ? "day" : "\(days) days")"
            default: "the query selects no card that is not suspended"
            }
            return ["Nothing to study: \(what)."]
        }
        var lines = ["Nothing to study now."]
        if plan.newOverLimit > 0 {
            lines.append("\(Output.counted(plan.newOverLimit, "new card")) \(plan.newOverLimit == 1 ? "waits" : "wait") beyond today's new-card limit (new_per_day: \(settings.newPerDay); \(plan.studiedToday.new) studied today).")
        }
        if plan.overLimit > 0 {
            lines.append("\(Output.counted(plan.overLimit, "due card")) \(plan.overLimit == 1 ? "waits" : "wait") beyond today's review limit (reviews_per_day: \(settings.reviewsPerDay); \(plan.studiedToday.reviews) studied today).")
        }
        if plan.siblingsDeferred > 0 {
            lines.append("\(Output.counted(plan.siblingsDeferred, "card")) \(plan.siblingsDeferred == 1 ? "waits" : "wait") because a card of the same note was studied today (bury_siblings).")
        }
        lines.append("To study more: 'quire review --mode custom --new N --reviews N [QUERY]' goes past today's limits;"
            + " --ahead DAYS takes cards due in the next days; --cram QUERY any cards, their schedules untouched.")
        return lines
    }

    /// `13 min`, `1 h 5 min`, `40 s`.
    static func duration(seconds: Int) -> String { StudyStats.duration(seconds: seconds) }
}
