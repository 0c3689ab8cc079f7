import QuireCuration
import QuireIndex
import QuireModel
import QuireReview
import QuireStudy
import QuireSystem

/// The figures of `quire stats`, `quire report` and the server's report page, for any front end:
/// the statistics of the cards a query selects, the curation summary, and the log they were
/// counted from. Built from a ``StudyContext`` — a command's freshly indexed vault, or the
/// server's live index — so that no front end indexes the vault again to show them.
public struct VaultFigures: Sendable {
    public let statistics: VaultStatistics
    public let curation: Curation.Summary
    /// The log as statistics read it (kept so that a command does not free it before it exits).
    public let log: StatisticsLog
    /// The deck of each selected card.
    public let decks: [CardID: DeckPath]

    /// - Parameters:
    ///   - query: the cards counted (an empty query: all).
    ///   - days: the days the due forecast covers.
    ///   - period: the reviews counted (nil: all).
    public init(_ context: StudyContext, query: Query, days: Int = 30, period: ClosedRange<Timestamp>? = nil) {
        let log = context.loaded.vault.statisticsLog()
        let index = context.loaded.index
        let now = context.now, dayEnd = context.dayEnd
        let locations = index.cards(matching: query, now: now, dayEnd: dayEnd)
        let cards = locations.map { (index.card(at: $0), index.notes[$0.note].archived) }
        let decks = context.decks(of: locations)
        // A card is added when its note was created.
        var created: [CardID: Timestamp] = [:]
        for loc in locations { if let c = index.notes[loc.note].created { created[index.card(at: loc).id] = c } }
        statistics = VaultStatistics(cards: cards, log: log, now: now, calendar: context.calendar, days: days, period: period, deck: { decks[$0] },
                                     created: { created[$0] }, settings: context.eventSettings(decks: decks))
        let curationContext = CurationContext(loaded: context.loaded, config: context.config, now: now)
        curation = curationContext.curation.summary(today: curationContext.today)
        self.log = log
        self.decks = decks
    }
}
