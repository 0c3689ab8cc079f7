import QuireApp
import QuireCuration
import QuireMarkdown
import QuireModel
import QuireScheduling
import QuireStudy
import QuireSupport

/// `quire stats` as the terminal shows it: at most 80 columns, bars, a sparkline, a year's heatmap.
package enum StatisticsDashboard {
    /// A line without the spaces that pad its last column.
    package static func trimmed(_ line: String) -> String {
        var line = Substring(line)
        while line.last == " " { line = line.dropLast() }
        return String(line)
    }

    package static func percent(_ part: Int, _ total: Int) -> String { total == 0 ? "–" : "\(Int((Double(part) * 100 / Double(total)).rounded()))%" }

    package static func duration(_ ms: Int) -> String { StudyStats.duration(seconds: (ms + 500) / 1000) }

    /// The dashboard: at most 80 columns; `parameters` (the FSRS parameters' lines) after the retention.
    package static func dashboard(_ s: VaultStatistics, color: Bool, parameters: [String] = []) -> [String] {
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
    package static func retention(_ s: VaultStatistics) -> [String] {
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
    package static func answers(_ s: VaultStatistics) -> [String] {
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
    package static func dashboard(_ c: Curation.Summary) -> [String] {
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


    package static func bar(_ n: Int, of most: Int, width: Int) -> String {
        let eighths = n * width * 8 / max(1, most)
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
    }

    package static func sparkline(_ values: [Int], color: Bool) -> String {
        let levels = Array("▁▂▃▄▅▆▇█")
        let most = max(1, values.max() ?? 1)
        let line = values.enumerated().map { i, v -> String in
            let ch = v == 0 ? "·" : String(levels[min(7, v * 7 / most)])
            return i == 0 && color ? "\u{1B}[1;33m" + ch + "\u{1B}[0m" : ch
        }
        return line.joined()
    }

    /// Seven rows (Monday to Sunday) of weeks, like a contribution graph: shades by reviews.
    package static func heatmap(_ calendar: [(day: Day, reviews: Int)], color: Bool) -> [String] {
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
}
