import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy

/// What a grade did, as every front end says it (the terminal's line, the full screen's message,
/// the page's): the card's new state, and the notices it earned.
public struct GradeNotice: Sendable {
    public var rating: Rating
    /// The card's state after the grade (nil when a cram recorded nothing for a new card).
    public var state: SchedulingState?
    /// The new state in words, or that a cram recorded nothing (``ReviewContext/answered(_:_:now:recorded:)``).
    public var answered: String
    /// Set when the grade made the card a leech (``ReviewContext/leechNotice(_:note:)``).
    public var leech: String?
    /// Set when a StudyFlow card has earned the promotion `p` gives.
    public var promotion: String?

    /// The notices after the new state, in the order they are said.
    public var notices: [String] { [leech, promotion].compactMap { $0 } }

    /// All on one line: `Good: due … · Leech: … · 5 right in a row: p promotes it next time`.
    public var line: String { ([rating.name.capitalized + ": " + answered] + notices).joined(separator: " · ") }
}

extension ReviewController {
    /// Grades `entry` as every front end does: the clock read once for the answer's time, how
    /// long it took since `shownAt` and what its due time counts from; the leech and StudyFlow
    /// promotion notices worked out here, so that no front end words them on its own.
    /// - Parameter typedWrongly: an answer typed that was not the card's, logged with the grade.
    public mutating func grade(_ entry: StudySession.Entry, _ rating: Rating, shownAt: Timestamp, clock: StudyClock,
                               typedWrongly: String? = nil) throws(ReviewError) -> GradeNotice {
        let answeredAt = clock.now()
        let leechesBefore = leeches.count
        let state = try answer(entry, rating, at: answeredAt, milliseconds: clock.milliseconds(from: shownAt, to: answeredAt),
                               typedWrongly: typedWrongly)
        var notice = GradeNotice(rating: rating, state: state,
                                 answered: ReviewContext.answered(rating, state, now: answeredAt, recorded: recordsAnswers))
        if leeches.count > leechesBefore { notice.leech = ReviewContext.leechNotice(state, note: card(entry)?.note) }
        if let state, state.flow != nil, StudyFlowScheduler.offersPromotion(state) {
            notice.promotion = "\(state.streak ?? 0) right in a row: p promotes it next time"
        }
        return notice
    }
}

/// What an undo took back, as every front end says it.
public struct UndoNotice: Sendable {
    /// The card whose action was taken back, and the action; nil when there was nothing to undo.
    public var undone: (entry: StudySession.Entry, action: ReviewAction)?

    /// `the answer to 3f9k…`, or nil when nothing was undone.
    public var phrase: String? { undone.map { "\(ReviewContext.undone($0.action)) \($0.entry.card)" } }

    /// `Undid the answer to 3f9k….`, or `Nothing to undo in this session.`
    public var message: String { phrase.map { "Undid \($0)." } ?? "Nothing to undo in this session." }
}

extension ReviewController {
    /// Takes back the session's last action, whatever it was, at the clock's time.
    public mutating func undoLast(clock: StudyClock) throws(ReviewError) -> UndoNotice {
        UndoNotice(undone: try undo(at: clock.now()))
    }
}
