import QuireModel
import QuireScheduling

/// The queue of one study session, as a pure state machine: which card comes next, what happens
/// after an answer, undo, skip and removal (FORMAT.md §8). The review screen and `--plain` mode
/// drive it; the answers themselves are recorded by ``ReviewWriter``.
public struct StudySession: Sendable {
    /// A card in the session.
    public struct Entry: Sendable, Equatable {
        public var card: CardID
        /// The note holding it.
        public var path: String
        /// Its plan section when the session began (new cards count as new until answered).
        public var section: StudyPlan.Section

        /// An entry.
        public init(card: CardID, path: String, section: StudyPlan.Section) {
            self.card = card
            self.path = path
            self.section = section
        }
    }

    /// One answer given in the session.
    public struct Answer: Sendable, Equatable {
        public var entry: Entry
        public var rating: Rating
        public var time: Timestamp
        public var milliseconds: Int
        /// Whether the card came back later in the session (a learning step).
        public var requeued: Bool
    }

    /// How long a card may be shown early when nothing else is left (Anki's learn-ahead limit).
    public static let learnAhead: Int64 = 20 * 60 * 1000

    private var queue: [Entry]
    private var waiting: [(entry: Entry, due: Timestamp)] = []
    /// The answers so far, in order.
    public private(set) var answers: [Answer] = []
    /// Cards taken out of the session (buried, suspended, deleted).
    public private(set) var removed: [CardID] = []
    /// The end of the study day: learning steps due later wait for another session.
    public let dayEnd: Timestamp

    /// A session over `entries`, in the order given, on the study day that ends at `dayEnd`;
    /// `answers` carries over the answers of an earlier round (retrying failed cards).
    public init(entries: [Entry], dayEnd: Timestamp, answers: [Answer] = []) {
        queue = entries
        self.dayEnd = dayEnd
        self.answers = answers
    }

    /// The session's entries in the order a plan gives them: learning steps first, then the due
    /// cards with the new cards spread evenly among them.
    public static func order(_ plan: [Entry]) -> [Entry] {
        let learning = plan.filter { $0.section == .learning }
        let due = plan.filter { $0.section != .learning && $0.section != .new }
        let new = plan.filter { $0.section == .new }
        guard !new.isEmpty, !due.isEmpty else { return learning + due + new }
        var mixed: [Entry] = []
        let step = Double(due.count + new.count) / Double(new.count)
        var nextNew = step / 2, n = 0, d = 0
        for i in 0..<(due.count + new.count) {
            if n < new.count, Double(i) >= nextNew - 0.5 || d == due.count {
                mixed.append(new[n]); n += 1; nextNew += step
            } else {
                mixed.append(due[d]); d += 1
            }
        }
        return learning + mixed
    }

    /// The card to show at `now`: a learning step that has come due, else the next queued card,
    /// else a learning step due within ``learnAhead``; nil when the session is done for now.
    public func next(at now: Timestamp) -> Entry? {
        if let w = waiting.min(by: { $0.due < $1.due }), w.due <= now { return w.entry }
        if let first = queue.first { return first }
        if let w = waiting.min(by: { $0.due < $1.due }), w.due.milliseconds - now.milliseconds <= Self.learnAhead {
            return w.entry
        }
        return nil
    }

    /// When the earliest learning step left is due (the session is over when nil).
    public var nextStepDue: Timestamp? { waiting.map(\.due).min() }

    /// Records an answer to `entry` with its new state: the card leaves the queue, and comes back
    /// later in the session if the new state is a learning step due before the day ends.
    public mutating func answer(_ entry: Entry, rating: Rating, state: SchedulingState?, at now: Timestamp,
                                milliseconds: Int) {
        take(entry.card)
        var requeued = false
        if let state, let due = state.due, due < dayEnd, state.flow == nil,
           state.state == .learning || state.state == .relearning {
            var again = entry
            again.section = .learning
            waiting.append((again, due))
            requeued = true
        }
        answers.append(Answer(entry: entry, rating: rating, time: now, milliseconds: milliseconds, requeued: requeued))
    }

    /// Takes back the last answer: the card is shown again next. Returns it.
    @discardableResult
    public mutating func undo() -> Entry? {
        guard let last = answers.popLast() else { return nil }
        if last.requeued { waiting.removeAll { $0.entry.card == last.entry.card } }
        queue.insert(last.entry, at: 0)
        return last.entry
    }

    /// Moves a card to the end of the queue.
    public mutating func skip(_ entry: Entry) {
        take(entry.card)
        queue.append(entry)
    }

    /// Takes a card out of the session (buried, suspended, deleted from its note).
    public mutating func remove(_ card: CardID) {
        take(card)
        removed.append(card)
    }

    /// Brings back a card taken out of the session (its bury or suspension was undone): it is
    /// shown next.
    public mutating func restore(_ entry: Entry) {
        if let i = removed.lastIndex(of: entry.card) { removed.remove(at: i) }
        take(entry.card)
        queue.insert(entry, at: 0)
    }

    /// Adds a card (a new due card that appeared while studying) at the end of the queue.
    public mutating func add(_ entry: Entry) {
        guard !queue.contains(where: { $0.card == entry.card }), !waiting.contains(where: { $0.entry.card == entry.card })
        else { return }
        queue.append(entry)
    }

    /// Gives a card still to study a new ID (its text was edited, so its derived ID changed).
    public mutating func replace(_ old: CardID, with new: CardID, path: String) {
        for i in queue.indices where queue[i].card == old { queue[i].card = new; queue[i].path = path }
        for i in waiting.indices where waiting[i].entry.card == old { waiting[i].entry.card = new; waiting[i].entry.path = path }
    }

    /// Updates where a card is (its note was renamed or edited).
    public mutating func update(_ card: CardID, path: String) {
        for i in queue.indices where queue[i].card == card { queue[i].path = path }
        for i in waiting.indices where waiting[i].entry.card == card { waiting[i].entry.path = path }
    }

    private mutating func take(_ card: CardID) {
        queue.removeAll { $0.card == card }
        waiting.removeAll { $0.entry.card == card }
    }

    /// The entries still to study: the queue, then the learning steps waiting.
    public var pending: [Entry] { queue + waiting.map(\.entry) }

    /// Cards left: (new, learning, review), as the review screen shows them.
    public var remaining: (new: Int, learning: Int, review: Int) {
        var counts = (new: 0, learning: waiting.count, review: 0)
        for e in queue {
            switch e.section {
            case .new: counts.new += 1
            case .learning: counts.learning += 1
            default: counts.review += 1
            }
        }
        return counts
    }

    /// Where the session is, as "card `position` of `total`": answers so far plus one, of answers
    /// so far plus cards and learning steps left (a failed card coming back counts again).
    public var progress: (position: Int, total: Int) { (answers.count + 1, answers.count + leftCount) }

    /// Cards not yet answered once, plus learning steps waiting.
    public var leftCount: Int { queue.count + waiting.count }

    /// The session's results so far.
    public var results: SessionResults { SessionResults(answers: answers) }
}

/// What a session achieved (shown when it ends).
public struct SessionResults: Sendable, Equatable {
    /// How well the session went, by accuracy.
    public enum Level: String, Sendable {
        case excellent = "Excellent", great = "Great", good = "Good", needsWork = "Needs Work"

        /// Excellent ≥ 90 %, Great 75–89 %, Good 60–74 %, Needs Work < 60 %.
        public init(accuracy: Double) {
            let percent = (accuracy * 100).rounded()
            self = percent >= 90 ? .excellent : percent >= 75 ? .great : percent >= 60 ? .good : .needsWork
        }
    }

    /// Different cards answered.
    public var cardsStudied: Int
    /// Answers given (a card that came back counts again).
    public var answers: Int
    /// Answers other than Again.
    public var correct: Int
    /// Time spent answering, from the answer times.
    public var milliseconds: Int
    /// Cards answered Again at least once, in first-failure order (to retry).
    public var failed: [CardID]

    /// Results of a list of answers.
    public init(answers list: [StudySession.Answer]) {
        var seen = Set<CardID>(), failedSet = Set<CardID>()
        failed = []
        for a in list {
            seen.insert(a.entry.card)
            if a.rating == .again, failedSet.insert(a.entry.card).inserted { failed.append(a.entry.card) }
        }
        cardsStudied = seen.count
        answers = list.count
        correct = list.filter { $0.rating != .again }.count
        milliseconds = list.reduce(0) { $0 + $1.milliseconds }
    }

    /// Correct answers as a fraction (1 when nothing was answered).
    public var accuracy: Double { answers == 0 ? 1 : Double(correct) / Double(answers) }

    /// The performance level.
    public var level: Level { Level(accuracy: accuracy) }
}
