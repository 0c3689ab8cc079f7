import QuireCuration
import QuireIndex
import QuireModel
import QuireStudy
import QuireSupport

/// Today as `quire today` and the page's overview show it: the plan, and the curation passes due.
public struct TodaysPlan {
    public let plan: StudyPlan
    /// The curation passes due today, oldest first.
    public let curationDue: [PeriodStatus]
    private let index: VaultIndex

    /// Today's plan in `context`, with the curation passes its settings make due.
    public init(_ context: StudyContext) {
        plan = context.plan()
        index = context.loaded.index
        let curation = CurationContext(loaded: context.loaded, config: context.config, now: context.now)
        curationDue = curation.curation.pending(today: curation.today)
    }

    /// The documented `today --json` shape (docs/JSON.md): the day, counts, limits, each
    /// section's cards with how late they are, the curation due.
    public var json: JSONValue {
        var sections: [(String, JSONValue)] = []
        for section in StudyPlan.Section.allCases {
            sections.append((section.rawValue, .array(plan.items(in: section).map { item in
                var card = JSONRepresentation.card(index.card(at: item.location), in: index.notes[item.location.note])
                if case .object(var fields) = card {
                    fields.append(("days_late", .int(item.daysLate)))
                    card = .object(fields)
                }
                return card
            })))
        }
        return .object([
            ("day", .string(plan.today.description)),
            ("cards", .int(plan.items.count)),
            ("estimated_seconds", .int(plan.estimatedSeconds)),
            ("seconds_per_card", .int(plan.secondsPerCard)),
            ("studied_today", .object([("reviews", .int(plan.studiedToday.reviews)), ("new", .int(plan.studiedToday.new))])),
            ("over_limit", .object([("reviews", .int(plan.overLimit)), ("new", .int(plan.newOverLimit))])),
            ("siblings_deferred", .int(plan.siblingsDeferred)),
            ("sections", .object(sections)),
            ("curation", .array(curationDue.map(CurationContext.json))),
        ])
    }
}
