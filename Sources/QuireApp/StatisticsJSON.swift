import QuireCuration
import QuireModel
import QuireScheduling
import QuireStudy
import QuireSupport

/// The statistics' documented `--json` shapes (docs/JSON.md), for `quire stats` and any front end.
public enum StatisticsJSON {
    public static func json(_ s: VaultStatistics) -> JSONValue {
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

    public static func json(_ c: Curation.Summary) -> JSONValue {
        .object([("notes", .object(NoteCycle.allCases.map { ($0.rawValue, .int(c.byCycle[$0] ?? 0)) })),
                 ("archived", .int(c.archived)), ("kept", .int(c.kept)), ("keep_rate", c.keepRate.map(JSONValue.double) ?? .null),
                 ("categories", .object(c.byCategory.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                 ("reviews_due", .int(c.pendingReviews))])
    }
}
