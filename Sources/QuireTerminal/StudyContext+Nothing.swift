import QuireApp
import QuireIndex
import QuireStudy
import QuireSupport

extension StudyContext {
    /// Why a session has nothing to study, and how to study more: the daily limits and the
    /// siblings that held cards back, and the ways past them.
    package static func nothingToStudy(plan: StudyPlan, custom: CustomStudy?, settings: StudySettings) -> [String] {
        guard custom == nil else {
            let what = switch custom {
            case .ahead(let days): "no card is due in the next \(days == 1 ? "day" : "\(days) days") that is not due already"
            case .failedToday: "no card was answered Again today"
            case .forgotten(let days): "no card was answered Again in the last \(days == 1 ? "day" : "\(days) days")"
            default: "the query selects no card that is not suspended"
            }
            return ["Nothing to study: \(what)."]
        }
        var lines = ["Nothing to study now."]
        if plan.newOverLimit > 0 {
            lines.append("\(Plural.counted(plan.newOverLimit, "new card")) \(plan.newOverLimit == 1 ? "waits" : "wait") beyond today's new-card limit (new_per_day: \(settings.newPerDay); \(plan.studiedToday.new) studied today).")
        }
        if plan.overLimit > 0 {
            lines.append("\(Plural.counted(plan.overLimit, "due card")) \(plan.overLimit == 1 ? "waits" : "wait") beyond today's review limit (reviews_per_day: \(settings.reviewsPerDay); \(plan.studiedToday.reviews) studied today).")
        }
        if plan.siblingsDeferred > 0 {
            lines.append("\(Plural.counted(plan.siblingsDeferred, "card")) \(plan.siblingsDeferred == 1 ? "waits" : "wait") because a card of the same note was studied today (bury_siblings).")
        }
        lines.append("To study more: 'quire review --mode custom --new N --reviews N [QUERY]' goes past today's limits;"
            + " --ahead DAYS takes cards due in the next days; --cram QUERY any cards, their schedules untouched.")
        return lines
    }
}
