import QuireCuration
import QuireSupport
import QuireModel
import QuireScheduling
import QuireStudy

/// `quire report`: the statistics as one self-contained HTML page — inline SVG charts and CSS, no
/// script, no network, light and dark colour schemes — with the sections and numbers of
/// `quire stats`. Pure: the figures come in, a string goes out; every text from the vault (deck
/// and category names, the query) is escaped.
public struct StatisticsReport: Sendable {
    public var statistics: VaultStatistics
    public var curation: Curation.Summary?
    /// The heading: the vault's folder name.
    public var title: String
    /// The query the figures are for (empty: the whole vault).
    public var query: String
    /// When the figures were computed, as printed.
    public var generated: String

    /// A report of `statistics`.
    public init(statistics: VaultStatistics, curation: Curation.Summary?, title: String, query: String, generated: String) {
        self.statistics = statistics
        self.curation = curation
        self.title = title
        self.query = query
        self.generated = generated
    }

    /// The page.
    public func html() -> String {
        let s = statistics
        var body = "<header><h1>\(e(title))</h1><p class=\"sub\">"
            + (query.isEmpty ? "Whole vault" : "Cards matching <code>\(e(query))</code>") + " · \(e(generated))</p></header>"
        body += keyFigures(s)
        body += section("Mastery", SVGChart.rows(VaultStatistics.Mastery.allCases.map { SVGChart.Bar(label: $0.rawValue, value: s.mastery[$0] ?? 0) },
                                                 title: "Cards by mastery")
            + "<p class=\"note\">Learning: new or in learning steps · Developing: interval under 7 days · Proficient: 7–20 days · "
            + "Mastered: 21 days or more (StudyFlow: its own mastered state).</p>")
        body += forecast(s)
        body += section("Reviews, past year", "<p>\(s.calendar.reduce(0) { $0 + $1.reviews }) reviews · streak \(s.streak.current) "
            + "(longest \(s.streak.longest))</p>" + SVGChart.heatmap(s.calendar.map { ($0.day.description, $0.reviews, Self.weekday($0.day)) },
                                                                    title: "Reviews per day over the past year"))
        body += activity(s)
        body += retention(s)
        body += hours(s)
        body += answers(s)
        body += distributions(s)
        body += decks(s)
        body += milestones(s)
        if let curation { body += Self.curation(curation) }
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
            + "<meta name=\"color-scheme\" content=\"light dark\"/>"
            + "<title>\(e(title)) — Quire statistics</title><style>\(Self.css)</style></head>\n<body>\(body)"
            + "<footer>Quire statistics, computed from the review log.</footer></body></html>\n"
    }

    private func e(_ text: String) -> String { SVGChart.escape(text) }

    /// The last 30 days: reviews and the time spent each day, cards added each day.
    private func activity(_ s: VaultStatistics) -> String {
        func label(_ day: Day) -> String { String(day.description.dropFirst(5)) }
        let reviews = s.recentDays.map { SVGChart.Bar(label: label($0.day), value: $0.reviews, highlighted: $0.day == s.recentDays.last?.day) }
        let minutes = s.recentDays.map { SVGChart.Bar(label: label($0.day), value: ($0.milliseconds + 30_000) / 60_000) }
        let added = s.added.map { SVGChart.Bar(label: label($0.day), value: $0.cards) }
        let total = s.recentDays.reduce(0) { $0 + $1.reviews }, time = s.recentDays.reduce(0) { $0 + $1.milliseconds }
        return section("Last 30 days", "<p>\(total) reviews in \(Self.duration(time)) · \(s.added.reduce(0) { $0 + $1.cards }) cards added</p>"
            + "<h3>Reviews per day</h3>" + SVGChart.bars(reviews, height: 150, labelEvery: 5, title: "Reviews per day, last 30 days")
            + "<h3>Minutes studied per day</h3>" + SVGChart.bars(minutes, height: 120, labelEvery: 5, title: "Minutes of answering per day, last 30 days")
            + "<h3>Cards added per day</h3>" + SVGChart.bars(added, height: 120, labelEvery: 5, title: "Cards added per day (their note's created date), last 30 days"),
            id: "activity")
    }

    /// Reviews and retention by the hour of day, and the cards' retrievability now.
    private func hours(_ s: VaultStatistics) -> String {
        let reviews = s.hours.enumerated().map { SVGChart.Bar(label: String($0.offset), value: $0.element.reviews) }
        // Retention by hour, in percent (an hour without reviews: nothing drawn).
        let rates = s.hours.enumerated().map { h, r in
            SVGChart.Bar(label: String(h), value: r.reviews == 0 ? 0 : Int((Double(r.passed) / Double(r.reviews) * 100).rounded()))
        }
        let best = s.hours.enumerated().filter { $0.element.reviews >= 20 }
            .max { Double($0.element.passed) / Double($0.element.reviews) < Double($1.element.passed) / Double($1.element.reviews) }
        let r = s.retrievability.enumerated().map { SVGChart.Bar(label: "\($0.offset * 10)%", value: $0.element) }
        return section("When you study, and how well you remember now",
            "<p>Reviews of cards in review by the hour they were answered, and the share passed"
            + (best.map { " (best hour with 20 reviews or more: \($0.offset):00, \(Self.percent($0.element.passed, $0.element.reviews)))" } ?? "")
            + ".</p><div class=\"pair\"><div><h3>Reviews by hour</h3>" + SVGChart.bars(reviews, width: 360, height: 150, labelEvery: 3, title: "Reviews by hour of day")
            + "</div><div><h3>Retention by hour (%)</h3>" + SVGChart.bars(rates, width: 360, height: 150, labelEvery: 3, title: "Retention by hour of day, percent")
            + "</div></div><h3>Retrievability now</h3><p class=\"note\">The chance of recall FSRS gives each card with a memory "
            + "state at this moment.</p>" + SVGChart.bars(r, height: 140, title: "Cards by retrievability now"),
            id: "hours")
    }

    private func section(_ heading: String, _ content: String, id: String? = nil) -> String {
        let anchor = id ?? heading.lowercased().split(whereSeparator: { !$0.isLetter }).joined(separator: "-")
        return "<section id=\"\(anchor)\"><h2>\(e(heading))</h2>\(content)</section>\n"
    }

    private static func percent(_ part: Int, _ total: Int) -> String {
        total == 0 ? "–" : "\(Int((Double(part) * 100 / Double(total)).rounded()))%"
    }

    private static func percent(_ fraction: Double?) -> String {
        fraction.map { "\(Int(($0 * 100).rounded()))%" } ?? "–"
    }

    private static func duration(_ ms: Int) -> String { StudyStats.duration(seconds: (ms + 500) / 1000) }

    /// Monday 0 … Sunday 6 (day 0, 1970-01-01, was a Thursday).
    static func weekday(_ day: Day) -> Int { ((day.number + 3) % 7 + 7) % 7 }

    private func figure(_ name: String, _ value: String, _ detail: String = "") -> String {
        "<div class=\"figure\"><div class=\"value\">\(e(value))</div><div class=\"name\">\(e(name))</div>"
            + (detail.isEmpty ? "" : "<div class=\"detail\">\(e(detail))</div>") + "</div>"
    }

    private func keyFigures(_ s: VaultStatistics) -> String {
        let c = s.counts
        var grid = "<div class=\"figures\">"
        grid += figure("Streak", "\(s.streak.current)", "longest " + Plural.counted(s.streak.longest, "day"))
        grid += figure("Cards", "\(c.total)", "\(c.new) new · \(c.learning) learning · \(c.young) young · \(c.mature) mature")
        grid += figure("Suspended · buried", "\(c.suspended) · \(c.buried)", "StudyFlow: \(c.flowMastered) mastered, \(c.flowInactive) inactive")
        grid += figure("Reviews", "\(s.reviews)", "success \(Self.percent(s.successRate))")
        grid += figure("Time today", Self.duration(s.time.today),
                       "7 days \(Self.duration(s.time.week)) · 30 days \(Self.duration(s.time.month)) · all \(Self.duration(s.time.all))")
        grid += figure("Per card", s.secondsPerCard.map { String(Int($0.rounded())) + " s" } ?? "–", "average answer time")
        return section("Key figures", grid + "</div>")
    }

    private func forecast(_ s: VaultStatistics) -> String {
        let bars = s.forecast.enumerated().map { i, n in
            SVGChart.Bar(label: i == 0 ? "today" : "+\(i)", value: n, highlighted: i == 0)
        }
        return section("Due forecast", "<p>Overdue \(s.overdue) · today \(s.forecast.first ?? 0) · tomorrow \(s.forecast.dropFirst().first ?? 0)"
            + " · next \(s.forecast.count) days \(s.forecast.reduce(0, +))</p>"
            + SVGChart.bars(bars, labelEvery: max(1, s.forecast.count / 10), title: "Cards due per day"))
    }

    private func retention(_ s: VaultStatistics) -> String {
        func cell(_ r: (passed: Int, total: Int)) -> String {
            "<td>\(Self.percent(r.passed, r.total))<span class=\"of\"> of \(r.total)</span></td>"
        }
        var table = "<table><thead><tr><th></th><th>Young</th><th>Mature</th><th>All</th></tr></thead><tbody>"
        for p in VaultStatistics.RetentionPeriod.allCases {
            let r = s.retentionByPeriod[p] ?? VaultStatistics.Retention()
            table += "<tr><th>\(p.rawValue.capitalized)</th>" + cell(r.young) + cell(r.mature)
                + cell((r.young.passed + r.mature.passed, r.young.total + r.mature.total)) + "</tr>"
        }
        table += "</tbody></table>"
        let points = s.calibration.compactMap { bin in
            bin.meanPredicted.flatMap { p in bin.actual.map { (predicted: p, actual: $0, reviews: bin.reviews) } }
        }
        var calibration = "<h3>FSRS: predicted recall and the actual pass rate</h3>"
        if points.isEmpty {
            calibration += "<p class=\"note\">No review of a card with an FSRS memory yet.</p>"
        } else {
            calibration += "<div class=\"pair\">" + SVGChart.calibration(points, title: "Calibration of FSRS's predicted recall")
                + "<table><thead><tr><th>Predicted</th><th>Actual</th><th>Reviews</th></tr></thead><tbody>"
                + points.map { "<tr><td>\(Self.percent($0.predicted))</td><td>\(Self.percent($0.actual))</td><td>\($0.reviews)</td></tr>" }.joined()
                + "</tbody></table></div>"
                + (s.calibrationError.map { "<p class=\"note\">RMSE over the bins \(Int(($0 * 1000).rounded()) / 10)."
                    + "\(Int(($0 * 1000).rounded()) % 10)%: the closer the points to the diagonal, the truer the predictions.</p>" } ?? "")
        }
        return section("Retention", "<p>True retention: the pass rate of reviews of cards in review, young (interval under 21 days) "
            + "and mature.</p>" + table + calibration)
    }

    private func answers(_ s: VaultStatistics) -> String {
        var table = "<table><thead><tr><th></th>" + Rating.allCases.map { "<th>\($0.name.capitalized)</th>" }.joined()
            + "</tr></thead><tbody>"
        for group in VaultStatistics.AnswerGroup.allCases {
            let counts = s.buttons[group] ?? [:]
            let total = counts.values.reduce(0, +)
            table += "<tr><th>\(group.rawValue.capitalized)</th>" + Rating.allCases.map { r in
                let n = counts[r] ?? 0
                return "<td>\(n)<span class=\"of\"> (\(Self.percent(n, total)))</span></td>"
            }.joined() + "</tr>"
        }
        return section("Answer buttons", table + "</tbody></table>")
    }

    private func distributions(_ s: VaultStatistics) -> String {
        func chart(_ buckets: [VaultStatistics.Bucket], _ title: String) -> String {
            SVGChart.bars(buckets.map { SVGChart.Bar(label: $0.label.replacingOccurrences(of: " d", with: ""), value: $0.count) },
                          width: 360, height: 160, labelEvery: 2, title: title)
        }
        return section("Intervals, stability and difficulty", "<div class=\"pair\"><div><h3>Intervals (days, cards in review)</h3>"
            + chart(s.intervals, "Cards in review by interval") + "</div><div><h3>Stability (days, FSRS cards)</h3>"
            + chart(s.stability, "FSRS cards by stability") + "</div><div><h3>Difficulty (FSRS, 1 to 10)</h3>"
            + chart(s.difficulty, "FSRS cards by difficulty") + "</div></div>")
    }

    private func decks(_ s: VaultStatistics) -> String {
        guard !s.decks.isEmpty else { return "" }
        var table = "<table><thead><tr><th>Deck</th><th>Cards</th><th>Mastered</th><th>Due</th><th>Reviews</th><th>Success</th><th>Time</th></tr>"
            + "</thead><tbody>"
        for d in s.decks {
            table += "<tr><th>\(e(d.deck.description))</th><td>\(d.cards)</td><td>\(d.mastered)</td><td>\(d.due)</td><td>\(d.reviews)</td>"
                + "<td>\(Self.percent(d.successRate))</td><td>\(Self.duration(d.milliseconds))</td></tr>"
        }
        return section("Decks", table + "</tbody></table>")
    }

    private func milestones(_ s: VaultStatistics) -> String {
        let items = s.milestones.map { m in
            "<li class=\"\(m.achieved ? "done" : "open")\">\(m.achieved ? "✓" : "·") \(e(m.name))"
                + (m.reached.map { " <span class=\"of\">\(String($0.description.prefix(10)))</span>" } ?? "") + "</li>"
        }
        return section("Milestones", "<ul class=\"milestones\">" + items.joined() + "</ul>")
    }

    private static func curation(_ c: Curation.Summary) -> String {
        let levels = NoteCycle.allCases.map { SVGChart.Bar(label: $0.rawValue, value: c.byCycle[$0] ?? 0) }
        var content = SVGChart.rows(levels, title: "Notes by curation level")
        content += "<p>Archived \(c.archived) · kept \(percent(c.keepRate)) of decided notes · \(c.pendingReviews) curation reviews due</p>"
        if !c.byCategory.isEmpty {
            let top = c.byCategory.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(12)
            content += SVGChart.rows(top.map { SVGChart.Bar(label: $0.key, value: $0.value) }, title: "Notes by category")
        }
        return "<section id=\"curation\"><h2>Curation</h2>\(content)</section>\n"
    }

    /// Light by default, dark when the reader's system asks; SVG shapes take their colours from
    /// these classes.
    static let css = """
        :root{--bg:#ffffff;--fg:#1f2328;--muted:#656d76;--card:#f6f8fa;--line:#d0d7de;--bar:#2f81f7;--today:#d29922;\
        --l0:#ebedf0;--l1:#9be9a8;--l2:#40c463;--l3:#30a14e;--l4:#216e39}
        @media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--card:#161b22;--line:#30363d;\
        --bar:#4493f8;--today:#e3b341;--l0:#161b22;--l1:#0e4429;--l2:#006d32;--l3:#26a641;--l4:#39d353}}
        body{background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;\
        max-width:980px;margin:0 auto;padding:24px}
        h1{margin:0 0 4px}h2{border-bottom:1px solid var(--line);padding-bottom:4px;margin-top:32px}h3{font-size:15px}
        .sub,.note,.of,footer,.detail,.name{color:var(--muted)}.note{font-size:13px}footer{margin-top:40px;font-size:12px}
        .figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px}
        .figure{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px}
        .figure .value{font-size:26px;font-weight:600}.figure .detail{font-size:12px}
        table{border-collapse:collapse;margin:8px 0}th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:right}
        th:first-child{text-align:left}thead th{font-weight:600}
        .pair{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
        svg{max-width:100%;height:auto;display:block;margin:8px 0}
        svg text{fill:var(--muted);font-size:11px}svg .label{fill:var(--fg);font-size:13px}
        .bar,.point{fill:var(--bar)}.bar.today{fill:var(--today)}.axis{stroke:var(--line)}.dashed{stroke-dasharray:4 4}
        .frame{fill:none;stroke:var(--line)}
        .l0{fill:var(--l0)}.l1{fill:var(--l1)}.l2{fill:var(--l2)}.l3{fill:var(--l3)}.l4{fill:var(--l4)}
        .milestones{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:8px 24px}.milestones .open{color:var(--muted)}
        """
}
