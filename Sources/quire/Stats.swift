import ArgumentParser
import QuireApp
import QuireCuration
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
import QuireSupport

extension Quire {
    /// `quire stats [QUERY]`.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Statistics: streaks, cards by state, reviews and time, the due forecast, a year of reviews, retention, milestones.",
            discussion: "Computed from the review log and the cards a query selects (every card without one). --json has every figure (docs/JSON.md).\n\nExample: quire stats deck:Biology --days 14")

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions
        @OptionGroup var figures: StatisticsOptions
        @Argument(parsing: .allUnrecognized, help: "A query selecting cards, e.g. deck:Biology.", completion: .custom(QueryCompletion.words)) var query: [String] = []

        func validate() throws {
            try UnknownOptions.reject(query, of: Self.self)
        }

        func run() throws {
            let computed = try figures.compute(options, query: query, calibrate: true)
            if listing.json {
                guard case .object(var fields) = Self.json(computed.statistics) else { return }
                fields.append(("fsrs_parameters", computed.calibration?.json ?? .null))
                fields.append(("curation", Self.json(computed.curation)))
                Output.line(JSONValue.object(fields).serialized(pretty: true))
            } else {
                for line in Self.dashboard(computed.statistics, color: Output.useColor, parameters: computed.calibration?.lines ?? []) {
                    Output.line(Self.trimmed(line))
                }
                Output.line("")
                for line in Self.dashboard(computed.curation) { Output.line(line) }
            }
            try computed.loaded.finish()
            Output.exitWithoutFreeing()
        }

        /// A line without the spaces that pad its last column.
        static func trimmed(_ line: String) -> String {
            var line = Substring(line)
            while line.last == " " { line = line.dropLast() }
            return String(line)
        }

        static func percent(_ part: Int, _ total: Int) -> String { total == 0 ? "–" : "\(Int((Double(part) * 100 / Double(total)).rounded()))%" }

        static func duration(_ ms: Int) -> String { StudyContext.duration(seconds: (ms + 500) / 1000) }

        /// The dashboard: at most 80 columns; `parameters` (the FSRS parameters' lines) after the retention.
        static func dashboard(_ s: VaultStatistics, color: Bool, parameters: [String] = []) -> [String] {
            func bold(_ t: String) -> String { color ? "\u{1B}[1m" + t + "\u{1B}[0m" : t }
            var out: [String] = []
            let c = s.counts
            out.append(bold("Streak") + ": \(Plural.counted(s.streak.current, "day")) (longest \(s.streak.longest))")
            out.append(bold("Cards") + ": \(c.total) — \(c.new) new · \(c.learning) learning · \(c.young) young · \(c.mature) mature · "
                + "\(c.suspended) suspended · \(c.buried) buried")
            out.append(bold("Reviews") + ": \(s.reviews) · success \(s.successRate.map { "\(Int(($0 * 100).rounded()))%" } ?? "–")"
                + (s.secondsPerCard.map { String(format: " · %.1f s a card", $0) } ?? ""))
            out.append(bold("Time") + ": today \(duration(s.time.today)) · 7 days \(duration(s.time.week)) · 30 days \(duration(s.time.month)) · all \(duration(s.time.all))")
            out.append(bold("Retention") + ": young \(percent(s.retention.young.passed, s.retention.young.total)) (\(s.retention.young.total) reviews)"
                + " · mature \(percent(s.retention.mature.passed, s.retention.mature.total)) (\(s.retention.mature.total) reviews)")
            out.append("")
            out += retention(s)
            out += parameters
            out.append("")
            out += answers(s)
            out.append("")
            out.append(bold("Mastery"))
            let most = max(1, VaultStatistics.Mastery.allCases.map { s.mastery[$0] ?? 0 }.max() ?? 1)
            for m in VaultStatistics.Mastery.allCases {
                let n = s.mastery[m] ?? 0
                out.append("  " + m.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + bar(n, of: most, width: 50) + " \(n)")
            }
            out.append("")
            out.append(bold("Due, next \(s.forecast.count) days") + " (overdue \(s.overdue); today \(s.forecast.first ?? 0), tomorrow \(s.forecast.dropFirst().first ?? 0))")
            out.append("  " + sparkline(Array(s.forecast.prefix(76)), color: color))
            out.append("")
            out.append(bold("Reviews, past year") + " (\(s.calendar.reduce(0) { $0 + $1.reviews }) reviews)")
            out += heatmap(s.calendar, color: color)
            out.append("")
            out.append(bold("Decks") + " (success, mastered, due, time)")
            for d in s.decks.sorted(by: { ($0.cards, $1.deck) > ($1.cards, $0.deck) }).prefix(10) {
                // Vault text is made fully visible: its colour sequences too (Output lets Quire's own through).
                let name = String(TerminalText.visible(d.deck.description, keepLineBreaks: false).prefix(36))
                    .padding(toLength: 37, withPad: " ", startingAt: 0)
                out.append("  " + name + "\(d.successRate.map { "\(Int(($0 * 100).rounded()))%" } ?? "–")".padding(toLength: 6, withPad: " ", startingAt: 0)
                    + "\(d.mastered)/\(d.cards) mastered, \(d.due) due, \(duration(d.milliseconds))")
            }
            out.append("")
            out.append(bold("Milestones"))
            // As many to a line as 80 columns hold.
            var line = " "
            for m in s.milestones {
                let item = " " + (m.achieved ? "✓ " : "· ") + m.name + (m.reached.map { " " + String($0.description.prefix(10)) } ?? "")
                if line.count + item.count + 2 > 80 {
                    out.append(line)
                    line = " "
                }
                line += (line == " " ? "" : "  ") + item
            }
            out.append(line)
            return out
        }

        /// The true-retention table and FSRS's calibration.
        static func retention(_ s: VaultStatistics) -> [String] {
            func cell(_ r: (passed: Int, total: Int)) -> String {
                (percent(r.passed, r.total) + " of \(r.total)").padding(toLength: 16, withPad: " ", startingAt: 0)
            }
            var out = ["True retention    young           mature          all"]
            for p in VaultStatistics.RetentionPeriod.allCases {
                let r = s.retentionByPeriod[p] ?? VaultStatistics.Retention()
                let all = (r.young.passed + r.mature.passed, r.young.total + r.mature.total)
                out.append("  " + p.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0) + cell(r.young) + cell(r.mature) + cell(all))
            }
            let bins = s.calibration.filter { $0.reviews > 0 }
            guard !bins.isEmpty else { return out }
            out.append("FSRS predicted recall → actual" + (s.calibrationError.map { String(format: " (RMSE %.1f%%)", $0 * 100) } ?? ""))
            var line = " "
            for bin in bins {
                let item = " " + percent(Int(((bin.meanPredicted ?? 0) * 1000).rounded()), 1000) + "→" + percent(bin.passed, bin.reviews)
                    + " (\(bin.reviews))"
                if line.count + item.count > 80 {
                    out.append(line)
                    line = " "
                }
                line += item
            }
            out.append(line)
            return out
        }

        /// Answer buttons by card state, and the interval, stability and difficulty distributions.
        static func answers(_ s: VaultStatistics) -> [String] {
            var out = ["Answers           again           hard            good            easy"]
            for group in VaultStatistics.AnswerGroup.allCases {
                let counts = s.buttons[group] ?? [:]
                let total = counts.values.reduce(0, +)
                out.append("  " + group.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0) + Rating.allCases.map { r in
                    let n = counts[r] ?? 0
                    return "\(n) (\(percent(n, total)))".padding(toLength: 16, withPad: " ", startingAt: 0)
                }.joined())
            }
            out.append("")
            out.append("Intervals (cards in review)            Stability (FSRS cards)")
            let most = max(1, (s.intervals + s.stability).map(\.count).max() ?? 1)
            for (i, st) in zip(s.intervals, s.stability) {
                func column(_ b: VaultStatistics.Bucket) -> String {
                    ("  " + b.label.padding(toLength: 10, withPad: " ", startingAt: 0) + bar(b.count, of: most, width: 18) + " \(b.count)")
                        .padding(toLength: 39, withPad: " ", startingAt: 0)
                }
                out.append(column(i) + " " + column(st))
            }
            let levels = Array("▁▂▃▄▅▆▇█")
            let hardest = max(1, s.difficulty.map(\.count).max() ?? 1)
            out.append("Difficulty (FSRS, 1 easiest to 10 hardest): "
                + String(s.difficulty.map { $0.count == 0 ? "·" : levels[min(7, $0.count * 7 / hardest)] }) + "  "
                + s.difficulty.map { "\($0.count)" }.joined(separator: " "))
            return out
        }

        /// The curation lines of the dashboard.
        static func dashboard(_ c: Curation.Summary) -> [String] {
            let levels = NoteCycle.allCases.map { "\($0.rawValue) \(c.byCycle[$0] ?? 0)" }.joined(separator: " · ")
            // The most used categories, as many as 80 columns hold.
            var categories = "  categories:"
            for (name, n) in c.byCategory.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                let item = (categories.hasSuffix(":") ? " " : " · ") + "\(TerminalText.visible(name, keepLineBreaks: false)) \(n)"
                guard categories.count + item.count <= 80 else { break }
                categories += item
            }
            return ["Curation: \(levels) · archived \(c.archived)",
                    "  kept \(c.keepRate.map { "\(Int(($0 * 100).rounded()))%" } ?? "–") of decided notes · \(Plural.counted(c.pendingReviews, "review")) due"]
                + (c.byCategory.isEmpty ? [] : [categories])
        }

        static func json(_ c: Curation.Summary) -> JSONValue {
            .object([("notes", .object(NoteCycle.allCases.map { ($0.rawValue, .int(c.byCycle[$0] ?? 0)) })),
                     ("archived", .int(c.archived)), ("kept", .int(c.kept)), ("keep_rate", c.keepRate.map(JSONValue.double) ?? .null),
                     ("categories", .object(c.byCategory.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                     ("reviews_due", .int(c.pendingReviews))])
        }

        static func bar(_ n: Int, of most: Int, width: Int) -> String {
            let eighths = n * width * 8 / max(1, most)
            let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
            return String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
        }

        static func sparkline(_ values: [Int], color: Bool) -> String {
            let levels = Array("▁▂▃▄▅▆▇█")
            let most = max(1, values.max() ?? 1)
            let line = values.enumerated().map { i, v -> String in
                let ch = v == 0 ? "·" : String(levels[min(7, v * 7 / most)])
                return i == 0 && color ? "\u{1B}[1;33m" + ch + "\u{1B}[0m" : ch
            }
            return line.joined()
        }

        /// Seven rows (Monday to Sunday) of weeks, like a contribution graph: shades by reviews.
        static func heatmap(_ calendar: [(day: Day, reviews: Int)], color: Bool) -> [String] {
            guard let first = calendar.first?.day else { return [] }
            let most = max(1, calendar.map(\.reviews).max() ?? 1)
            let weekdayOfFirst = ((first.number + 3) % 7 + 7) % 7
            var column = Array(repeating: " ", count: weekdayOfFirst)
            var columns: [[String]] = []
            for (_, n) in calendar {
                let shade: String
                if color {
                    let greens = [238, 22, 28, 34, 40]
                    let level = n == 0 ? 0 : 1 + min(3, (n - 1) * 4 / most)
                    shade = "\u{1B}[38;5;\(greens[level])m■\u{1B}[0m"
                } else {
                    shade = n == 0 ? "·" : String(Array("░▒▓█")[min(3, (n - 1) * 4 / most)])
                }
                column.append(shade)
                if column.count == 7 {
                    columns.append(column)
                    column = []
                }
            }
            if !column.isEmpty { columns.append(column + Array(repeating: " ", count: 7 - column.count)) }
            let names = ["Mon", "", "Wed", "", "Fri", "", "Sun"]
            return (0..<7).map { r in "  " + names[r].padding(toLength: 4, withPad: " ", startingAt: 0) + columns.map { $0[r] }.joined() }
        }

        static func json(_ s: VaultStatistics) -> JSONValue {
            let c = s.counts
            func retention(_ r: (passed: Int, total: Int)) -> JSONValue {
                .object([("passed", .int(r.passed)), ("reviews", .int(r.total)),
                         ("rate", r.total == 0 ? .null : .double(Double(r.passed) / Double(r.total)))])
            }
            let streak: JSONValue = .object([("current", .int(s.streak.current)), ("longest", .int(s.streak.longest))])
            let cards: JSONValue = .object([("total", .int(c.total)), ("new", .int(c.new)), ("learning", .int(c.learning)),
                                            ("young", .int(c.young)), ("mature", .int(c.mature)), ("suspended", .int(c.suspended)),
                                            ("buried", .int(c.buried)), ("flow_mastered", .int(c.flowMastered)),
                                            ("flow_inactive", .int(c.flowInactive))])
            let time: JSONValue = .object([("today", .int(s.time.today)), ("week", .int(s.time.week)), ("month", .int(s.time.month)),
                                           ("all", .int(s.time.all))])
            let mastery: JSONValue = .object(VaultStatistics.Mastery.allCases.map { ($0.rawValue.lowercased(), .int(s.mastery[$0] ?? 0)) })
            let forecast: JSONValue = .object([("overdue", .int(s.overdue)), ("days", .array(s.forecast.map(JSONValue.int)))])
            let calendar: [JSONValue] = s.calendar.map { .object([("day", .string($0.day.description)), ("reviews", .int($0.reviews))]) }
            let milestones: [JSONValue] = s.milestones.map { m in
                let reached: JSONValue = m.reached.map { .string(String($0.description.prefix(10))) } ?? .null
                return .object([("name", .string(m.name)), ("achieved", .bool(m.achieved)), ("reached", reached)])
            }
            var fields: [(String, JSONValue)] = [("streak", streak), ("cards", cards), ("reviews", .int(s.reviews))]
            fields.append(("success_rate", s.successRate.map(JSONValue.double) ?? .null))
            fields.append(("seconds_per_card", s.secondsPerCard.map(JSONValue.double) ?? .null))
            fields.append(("time_ms", time))
            fields.append(("retention", .object([("young", retention(s.retention.young)), ("mature", retention(s.retention.mature))])))
            fields.append(("retention_by_period", .object(VaultStatistics.RetentionPeriod.allCases.map { p in
                let r = s.retentionByPeriod[p] ?? VaultStatistics.Retention()
                return (p.rawValue, .object([("young", retention(r.young)), ("mature", retention(r.mature))]))
            })))
            // Sums of predictions: four decimals, the same whatever the order they were added in.
            func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
            fields.append(("calibration", .object([
                ("rmse", s.calibrationError.map { .double(rounded($0)) } ?? .null),
                ("bins", .array(s.calibration.map { bin in
                    .object([("from", .double(bin.range.lowerBound)), ("to", .double(bin.range.upperBound)), ("reviews", .int(bin.reviews)),
                             ("predicted", bin.meanPredicted.map { .double(rounded($0)) } ?? .null), ("passed", .int(bin.passed)),
                             ("actual", bin.actual.map(JSONValue.double) ?? .null)])
                })),
            ])))
            fields.append(("buttons", .object(VaultStatistics.AnswerGroup.allCases.map { g in
                (g.rawValue, .object(Rating.allCases.map { ($0.name, .int(s.buttons[g]?[$0] ?? 0)) }))
            })))
            func buckets(_ b: [VaultStatistics.Bucket]) -> JSONValue {
                .array(b.map { .object([("range", .string($0.label)), ("cards", .int($0.count))]) })
            }
            fields.append(("intervals", buckets(s.intervals)))
            fields.append(("stability", buckets(s.stability)))
            fields.append(("difficulty", buckets(s.difficulty)))
            fields.append(("mastery", mastery))
            fields.append(("forecast", forecast))
            fields.append(("calendar", .array(calendar)))
            fields.append(("milestones", .array(milestones)))
            fields.append(("recent_days", .array(s.recentDays.map {
                .object([("day", .string($0.day.description)), ("reviews", .int($0.reviews)), ("time_ms", .int($0.milliseconds))])
            })))
            fields.append(("hours", .array(s.hours.enumerated().map { hour, h in
                .object([("hour", .int(hour)), ("reviews", .int(h.reviews)), ("passed", .int(h.passed))])
            })))
            fields.append(("added", .array(s.added.map { .object([("day", .string($0.day.description)), ("cards", .int($0.cards))]) })))
            fields.append(("retrievability", .array(s.retrievability.enumerated().map { k, n in
                .object([("from", .double(Double(k) / 10)), ("to", .double(Double(k + 1) / 10)), ("cards", .int(n))])
            })))
            fields.append(("decks", .array(s.decks.map { d in
                .object([("deck", .string(d.deck.description)), ("cards", .int(d.cards)), ("mastered", .int(d.mastered)),
                         ("due", .int(d.due)), ("reviews", .int(d.reviews)), ("success_rate", d.successRate.map(JSONValue.double) ?? .null),
                         ("time_ms", .int(d.milliseconds))])
            })))
            return .object(fields)
        }
    }
}
