import QuireIndex
import QuireStudy

extension StudyContext {
    /// What a study session asks: today's whole plan, a kind of session over the cards a query
    /// selects (`mode`, with `counts` for a custom one), or a custom study beyond the plan.
    public enum SessionRequest: Sendable {
        case todaysPlan
        case mode(StudyMode, counts: (new: Int, reviews: Int)?, query: Query?)
        case custom(CustomStudy, query: Query?)

        /// The query selecting the session's cards, if any.
        public var query: Query? {
            switch self {
            case .todaysPlan: nil
            case .mode(_, _, let query), .custom(_, let query): query
            }
        }
    }

    /// The cards of the session `request` asks for, in the order they come, and the plan they were
    /// taken from (to say why a session is empty). A custom session's counts are the user's:
    /// today's limits do not hold it back; a new-cards session is only new cards, the others keep
    /// the learning steps due.
    ///
    /// - Parameter todaysPlan: today's plan when the caller has it already (``plan(query:limit:)``
    ///   with no query and the limits), so that it is not made twice.
    public func session(_ request: SessionRequest, todaysPlan known: StudyPlan? = nil) -> (entries: [StudySession.Entry], plan: StudyPlan) {
        let index = loaded.index
        switch request {
        case .custom(let custom, let query):
            let plan = self.plan(query: query, limit: true)
            let entries = custom.entries(index: index, history: history, now: now, calendar: calendar) { loc in
                query?.matches(card: index.card(at: loc), in: index.notes[loc.note], now: now, dayEnd: dayEnd) ?? true
            }
            return (entries, plan)
        case .todaysPlan:
            let plan = known ?? self.plan(query: nil, limit: true)
            return (order(plan.items), plan)
        case .mode(let mode, let explicit, let query):
            let plan = self.plan(query: query, limit: mode != .custom)
            var counts = mode.defaultCounts
            if mode == .custom, let explicit { counts = explicit }
            let items = plan.items
            let learning = mode == .new ? [] : items.filter { $0.section == .learning }
            let due = items.filter { $0.section != .learning && $0.section != .new }.prefix(counts.reviews)
            let fresh = items.filter { $0.section == .new }.prefix(counts.new)
            return (order(learning + due + fresh), plan)
        }
    }

    private func order(_ items: some Sequence<StudyPlan.Item>) -> [StudySession.Entry] {
        let index = loaded.index
        return StudySession.order(items.map { StudySession.Entry(card: $0.card, path: index.notes[$0.location.note].path, section: $0.section) })
    }
}
