import QuireTerminal
import ArgumentParser

extension Quire {
    /// `quire curate status|weekly|monthly|yearly`.
    struct Curate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "curate",
            abstract: "Curate notes: weekly, monthly and yearly keep-or-archive reviews.",
            discussion: """
                A weekly review decides on the notes created that ISO week (keep: cycle weekly; archive: \
                archived), a monthly review on the notes of that month kept weekly, a yearly review on \
                those kept monthly; what survives the yearly review is evergreen. See docs/FORMAT.md §2.2.

                Example: quire curate status; quire curate weekly
                """,
            subcommands: [CurateStatus.self, CurateWeekly.self, CurateMonthly.self, CurateYearly.self])
    }
}
