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
    let now: Timestamp
    let utcOffset: Int

    init(_ options: VaultOptions) throws {
        loaded = try LoadedVault(options)
        let (config, diagnostics) = try LoadedVault.settings(of: loaded.vault)
        Output.diagnostics(diagnostics, root: loaded.vault.root, toStandardError: true, color: false)
        self.config = config
        now = options.now
        utcOffset = Clock.utcOffset(at: now)
        let log = loaded.vault.reviewLog()
        stats = StudyStats(history: ReviewHistory(log.events), utcOffset: { Clock.utcOffset(at: $0) },
                           rolloverHour: config.dayRollover)
    }

    /// Today's plan, optionally limited to cards a query selects.
    func plan(query: Query? = nil, limit: Bool = true) -> StudyPlan {
        let index = loaded.index
        return StudyPlan(index: index, stats: stats, settings: config.study, now: now, utcOffset: utcOffset,
                         rolloverHour: config.dayRollover, limit: limit) { loc in
            guard let query else { return true }
            return query.matches(card: index.card(at: loc), in: index.notes[loc.note], now: now)
        }
    }

    /// The study day.
    var today: Day { Day(containing: now, utcOffsetSeconds: utcOffset, rolloverHour: config.dayRollover) }

    /// When the study day ends.
    var dayEnd: Timestamp { today.advanced(by: 1).start(utcOffsetSeconds: utcOffset, rolloverHour: config.dayRollover) }

    /// `13 min`, `1 h 5 min`, `40 s`.
    static func duration(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
