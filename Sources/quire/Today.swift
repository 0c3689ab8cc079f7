import QuireTerminal
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
            let today = TodaysPlan(context)
            if listing.json {
                Output.line(today.json.serialized(pretty: true))
            } else {
                Self.show(today, context: context)
            }
            try context.loaded.finish()
        }

        /// Today as the terminal shows it: a heading line, each section's cards as a table, the
        /// day's counts and limits dimmed, the curation due.
        static func show(_ today: TodaysPlan, context: StudyContext) {
            let plan = today.plan, index = context.loaded.index
            let color = Output.useColor
            func bold(_ s: String) -> String { color ? "\u{1B}[1m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
            func dim(_ s: String) -> String { color ? "\u{1B}[2m" + TerminalText.visible(s) + "\u{1B}[0m" : TerminalText.visible(s) }
            // The due count is `quire due`'s; the plan takes fewer when limits or siblings hold some back.
            let new = plan.items.count - plan.dueTaken
            let due = plan.dueTaken == plan.dueCount ? "\(plan.dueCount) due" : "\(plan.dueTaken) of the \(plan.dueCount) due"
            Output.line(bold("Today, \(plan.today): \(Plural.counted(plan.items.count, "card")) (\(due), \(new) new), "
                             + "about \(StudyStats.duration(seconds: plan.estimatedSeconds))"))
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
            if let line = CurationContext.dueLine(today.curationDue) { Output.line(line) }
        }
    }
}
