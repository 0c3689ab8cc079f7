import QuireTerminal
import ArgumentParser
import QuireApp
import QuireCuration
import QuireIndex
import QuireModel
import QuireReview
import QuireStudy

/// What `quire stats` and `quire report` share: the forecast's length, the period, and the
/// computation of the figures for a query's cards.
struct StatisticsOptions: ParsableArguments {
    @Option(help: "Days the due forecast covers.") var days = 30
    @Option(help: ArgumentHelp("Count reviews from this date (YYYY-MM-DD) or time.", valueName: "DATE")) var since: String?
    @Option(help: ArgumentHelp("Count reviews up to this date (included) or time.", valueName: "DATE")) var until: String?

    /// The period `--since` and `--until` give: a plain date's until is the end of that day.
    var period: ClosedRange<Timestamp>? {
        guard since != nil || until != nil else { return nil }
        let from = since.flatMap { Timestamp(iso8601: $0) } ?? Timestamp(milliseconds: .min / 2)
        var to = until.flatMap { Timestamp(iso8601: $0) } ?? Timestamp(milliseconds: .max / 2)
        if let until, until.count == 10 { to = Timestamp(milliseconds: to.milliseconds + 86_400_000 - 1) }
        return from <= to ? from...to : nil
    }

    func validate() throws {
        if days < 1 || days > 3650 { throw ValidationError("--days must be 1 to 3650") }
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, Timestamp(iso8601: value) == nil { throw ValidationError("\(name) must be a date like 2026-11-01 or a time") }
        }
        if since != nil, until != nil, period == nil { throw ValidationError("--since comes after --until") }
    }

    /// The figures for the cards `query` selects, the curation summary, the loaded vault, and
    /// with `calibrate` how well the FSRS parameters in use predict the cards' history.
    ///
    /// The log comes back too, so that it is not freed before the command exits
    /// (``Output/exitWithoutFreeing()``).
    func compute(_ options: VaultOptions, query: [String], calibrate: Bool = false) throws
        -> (statistics: VaultStatistics, curation: Curation.Summary, loaded: LoadedVault, now: Timestamp, log: StatisticsLog,
            calibration: ParameterCalibration?) {
        let q = try options.query(query)
        let context = try StudyContext(options, readLog: false)
        let figures = VaultFigures(context, query: q, days: days, period: period)
        let calibration = calibrate ? ParameterCalibration(context, log: figures.log, decks: figures.decks) : nil
        return (figures.statistics, figures.curation, context.loaded, context.now, figures.log, calibration)
    }
}
