import QuireIndex
import QuireModel
import QuireReview
import QuireScheduling

/// Studying beyond today's plan, as Anki's custom study offers: cards due in the next days, the
/// cards failed today or recently, or any cards at all (cramming). Pure: the index, the review
/// history and the time come in.
public enum CustomStudy: Sendable, Equatable {
    /// Cards in review (not in a learning step) not due yet whose due day is within the next
    /// `days` days, soonest first.
    case ahead(days: Int)
    /// Cards answered Again today (the study day), in the order they were failed.
    case failedToday
    /// Cards answered Again in the last `days` study days, today included, most recent first.
    case forgotten(days: Int)
    /// Every card the selection holds, new ones included, in note order; the schedule is left
    /// alone unless the session reschedules.
    case cram

    /// The session's entries.
    ///
    /// Archived notes and suspended cards are left out, as in every session.
    /// - Parameters:
    ///   - include: the cards the user's query selects.
    public func entries(index: VaultIndex, history: ReviewHistory, now: Timestamp, calendar: StudyCalendar,
                        include: (CardLocation) -> Bool) -> [StudySession.Entry] {
        let utcOffset = calendar.utcOffset(now), rolloverHour = calendar.rolloverHour
        let today = Day(containing: now, utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour)
        func section(_ s: SchedulingState?) -> StudyPlan.Section {
            guard let s, s.state != .new || s.flow != nil else { return .new }
            let learning = s.flow == .learning || (s.flow == nil && (s.state == .learning || s.state == .relearning))
            return learning ? .learning : .reviewing
        }
        var found: [(entry: StudySession.Entry, key: Int64)] = []
        for (n, note) in index.notes.enumerated() where !note.archived {
            for (c, card) in note.cards.enumerated() {
                let loc = CardLocation(note: n, card: c)
                guard index.location(exactly: card.id) == loc, card.schedule?.suspended != true, include(loc) else { continue }
                let s = card.schedule
                let entry = StudySession.Entry(card: card.id, path: note.path, section: section(s))
                switch self {
                case .ahead(let days):
                    // Review cards only: learning steps come in the plan as they fall due.
                    guard let s, section(s) == .reviewing, let due = s.due,
                          !Day.isDue(s, now: now, utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour),
                          Day(containing: due, utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour).number <= today.number + days
                    else { continue }
                    found.append((entry, due.milliseconds))
                case .failedToday, .forgotten:
                    let days = if case .forgotten(let d) = self { max(1, d) } else { 1 }
                    let since = today.advanced(by: 1 - days).start(utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour)
                    let failures = (history.events[card.id] ?? []).filter { $0.action == .grade(.again) && $0.time >= since }
                    guard let first = failures.first, let last = failures.last else { continue }
                    var failed = entry
                    failed.section = .learning
                    found.append((failed, self == .failedToday ? first.time.milliseconds : -last.time.milliseconds))
                case .cram:
                    found.append((entry, Int64(found.count)))
                }
            }
        }
        // A stable sort: equal keys keep note order.
        return found.enumerated().sorted { a, b in
            a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
        }.map(\.element.entry)
    }
}
