import ArgumentParser
import QuireApp
import QuireMarkdown
import QuireModel
import QuireScheduling
import QuireIndex
import QuireStudy
import QuireSupport

extension Quire {
    /// `quire today`.
    struct Today: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "today",
            abstract: "Today's study plan: overdue, learning, reviewing, mastered and new cards, with a time estimate.",
            discussion: """
                Daily limits (new_per_day, reviews_per_day in .quire/config.yaml) count what the log says \
                was studied today. When more is due than the limit allows, cards not studied for two days \
                come first, then those answered right less than 70% of the time, then those added in the \
                last week, then a pick seeded by the day. 'quire review' without a query studies this plan.

                Example: quire today
                """)

        @OptionGroup var options: VaultOptions
        @OptionGroup var listing: ListingOptions

        func run() throws {
            let context = try StudyContext(options)
            let plan = context.plan()
            let index = context.loaded.index
            let curation = CurationContext(loaded: context.loaded, config: context.config, now: context.now)
            let curationDue = curation.curation.pending(today: curation.today)
            if listing.json {
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
                Output.line(JSONValue.object([
                    ("day", .string(plan.today.description)),
                    ("cards", .int(plan.items.count)),
                    ("estimated_seconds", .int(plan.estimatedSeconds)),
                    ("seconds_per_card", .int(plan.secondsPerCard)),
                    ("studied_today", .object([("reviews", .int(plan.studiedToday.reviews)), ("new", .int(plan.studiedToday.new))])),
                    ("over_limit", .object([("reviews", .int(plan.overLimit)), ("new", .int(plan.newOverLimit))])),
                    ("siblings_deferred", .int(plan.siblingsDeferred)),
                    ("sections", .object(sections)),
                    ("curation", .array(curationDue.map(CurationContext.json))),
                ]).serialized(pretty: true))
                return try context.loaded.finish()
            }
            let color = Output.useColor
            func bold(_ s: String) -> String { color ? "\u{1B}[1m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
            func dim(_ s: String) -> String { color ? "\u{1B}[2m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
            // The due count is `quire due`'s; the plan takes fewer when limits or siblings hold some back.
            let new = plan.items.count - plan.dueTaken
            let due = plan.dueTaken == plan.dueCount ? "\(plan.dueCount) due" : "\(plan.dueTaken) of the \(plan.dueCount) due"
            Output.line(bold("Today, \(plan.today): \(Plural.counted(plan.items.count, "card")) (\(due), \(new) new), "
                             + "about \(StudyContext.duration(seconds: plan.estimatedSeconds))"))
            for section in StudyPlan.Section.allCases {
                let items = plan.items(in: section)
                guard !items.isEmpty else { continue }
                Output.line()
                Output.line(bold("\(section.rawValue.prefix(1).uppercased() + section.rawValue.dropFirst()) (\(items.count))"))
                let rows = items.map { item -> [String] in
                    let note = index.notes[item.location.note]
                    let card = index.card(at: item.location)
                    let when = section == .overdue ? "\(Plural.counted(item.daysLate, "day")) late"
                        : item.due.map { "due " + ReviewContext.relative($0, from: context.now) } ?? "new"
                    return [card.id.rawValue, when, "\(note.path):\(card.lines.lowerBound)", Table.oneLine(card.front)]
                }
                Table.print(rows, tabs: !Output.isTerminal, width: Output.isTerminal ? Output.width : nil, indent: 2)
            }
            Output.line()
            var notes = ["studied today: \(Plural.counted(plan.studiedToday.reviews, "review")), \(plan.studiedToday.new) new",
                         "limits: \(Plural.counted(context.config.study.reviewsPerDay, "review")), \(context.config.study.newPerDay) new a day"]
            if plan.overLimit + plan.newOverLimit > 0 {
                notes.append("left for another day: \(plan.overLimit) due, \(plan.newOverLimit) new")
            }
            if plan.siblingsDeferred > 0 { notes.append("\(Plural.counted(plan.siblingsDeferred, "sibling")) wait for another day") }
            if let next = plan.learningLaterToday.first {
                let n = plan.learningLaterToday.count
                notes.append("\(Plural.counted(n, "learning card")) come\(n == 1 ? "s" : "") back later today, the next \(ReviewContext.relative(next, from: context.now))")
            }
            Output.line(dim(notes.joined(separator: " · ")))
            if let line = CurationContext.dueLine(curationDue) { Output.line(line) }
            try context.loaded.finish()
        }
    }
}
