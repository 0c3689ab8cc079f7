import QuireModel
import QuireScheduling
import QuireIndex

/// Today's study plan (`quire today`, and what `quire review` studies by default): the cards due
/// today in sections, the new cards allowed today, within the daily limits (FORMAT.md §8).
///
/// Pure: the index, the log's statistics, the time and the local UTC offset go in.
public struct StudyPlan: Sendable {
    /// The plan's sections, in the order they are shown and studied.
    public enum Section: String, CaseIterable, Sendable {
        /// Due before today.
        case overdue
        /// In a learning or relearning step (FSRS, SM-2), or StudyFlow `learning`.
        case learning
        /// In review with an interval under 21 days, or StudyFlow `reviewing`.
        case reviewing
        /// In review with an interval of 21 days or more (Anki's "mature"), or StudyFlow `mastered`.
        case mastered
        /// Never studied.
        case new
    }

    /// One card in the plan.
    public struct Item: Sendable, Equatable {
        public var location: CardLocation
        public var card: CardID
        public var section: Section
        /// For overdue cards, how many study days late.
        public var daysLate: Int
        public var due: Timestamp?
    }

    /// The study day the plan is for.
    public let today: Day
    /// The cards to study, by section, each section in priority order.
    public private(set) var items: [Item] = []
    /// Due cards left for another day by the daily review limit.
    public private(set) var overLimit = 0
    /// New cards left for another day by the daily new-card limit.
    public private(set) var newOverLimit = 0
    /// Cards left for another day because a sibling (same cloze group or reversed pair) is studied today.
    public private(set) var siblingsDeferred = 0
    /// The cards due now (``SchedulingState/isDue(at:dayEnd:)``, what `quire due` counts), among
    /// those the plan may take, before limits and siblings.
    public private(set) var dueCount = 0
    /// The due cards the plan takes (the others wait: limit or siblings).
    public var dueTaken: Int { items.filter { $0.section != .new }.count }
    /// When each learning step still to come today (after `now`, before the next study day) is due,
    /// earliest first: cards that come back into today's session.
    public private(set) var learningLaterToday: [Timestamp] = []
    /// Reviews and new cards already studied today.
    public let studiedToday: (reviews: Int, new: Int)
    /// The assumed time per card: the user's mean answer time, or the default until there is one.
    public let secondsPerCard: Int

    /// The plan for the study day containing `now`.
    ///
    /// - Parameters:
    ///   - index: the vault's notes.
    ///   - stats: what the log says (studied today, accuracy, last review).
    ///   - settings: daily limits and sibling burying.
    ///   - now: the time.
    ///   - calendar: the vault's study days (days are counted with the offset at `now`: a
    ///     daylight-saving change moves a card's lateness by an hour at most).
    ///   - limit: when false, every due and new card is in the plan (a query's session).
    ///   - include: which cards may be in the plan (a query), all by default.
    public init(index: VaultIndex, stats: StudyStats, settings: StudySettings, now: Timestamp, calendar: StudyCalendar,
                limit: Bool = true, include: (CardLocation) -> Bool = { _ in true }) {
        let utcOffset = calendar.utcOffset(now), rolloverHour = calendar.rolloverHour
        today = Day(containing: now, utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour)
        let newToday = stats.newByDay[today] ?? 0
        studiedToday = ((stats.reviewsByDay[today] ?? 0) - newToday, newToday)
        secondsPerCard = stats.averageAnswerMilliseconds.map { max(1, ($0 + 500) / 1000) } ?? settings.defaultSecondsPerCard
        let (due, fresh, groupsStudied) = gather(index: index, stats: stats, settings: settings, now: now, calendar: calendar,
                                                 include: include)
        let chosen = choose(due: due, fresh: fresh, groupsStudied: groupsStudied, index: index, settings: settings, limit: limit)
        learningLaterToday.sort()
        items = Self.ordered(chosen)
    }

    /// The cards the plan may take: those due (with their priority) and the new ones, counting
    /// ``dueCount`` and the learning steps due later today; and the sibling groups studied today
    /// (closed for the day).
    private mutating func gather(index: VaultIndex, stats: StudyStats, settings: StudySettings, now: Timestamp, calendar: StudyCalendar,
                                 include: (CardLocation) -> Bool)
        -> (due: [(Item, Priority)], fresh: [Item], groupsStudied: Set<SiblingGroup>) {
        let utcOffset = calendar.utcOffset(now), rolloverHour = calendar.rolloverHour, today = self.today
        let dayStart = calendar.start(of: today), dayEnd = calendar.start(of: today.advanced(by: 1))
        func day(of t: Timestamp) -> Day {
            // Days are counted with today's offset; a daylight-saving change moves this by an hour at most.
            Day(containing: t, utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour)
        }

        // Sibling groups studied today are closed for the day.
        var groupsStudied = Set<SiblingGroup>()
        var due: [(Item, Priority)] = []
        var fresh: [Item] = []
        for (n, note) in index.notes.enumerated() where !note.archived {
            for (c, card) in note.cards.enumerated() {
                let loc = CardLocation(note: n, card: c)
                guard index.location(exactly: card.id) == loc else { continue }
                let group = SiblingGroup(note: n, card: card)
                if settings.burySiblings, let group, let last = stats.cards[card.id]?.lastReview, last >= dayStart {
                    groupsStudied.insert(group)
                }
                guard include(loc) else { continue }
                let schedule = card.schedule
                if schedule == nil || schedule?.state == .new && schedule?.flow == nil {
                    if schedule?.isAvailable(at: now) ?? true {
                        fresh.append(Item(location: loc, card: card.id, section: .new, daysLate: 0, due: nil))
                    }
                    continue
                }
                guard let s = schedule, Day.isDue(s, now: now, utcOffsetSeconds: utcOffset, rolloverHour: rolloverHour) else {
                    if let s = schedule, s.flow == nil, s.state == .learning || s.state == .relearning, s.isAvailable(at: now),
                       let due = s.due, due > now, due < dayEnd {
                        learningLaterToday.append(due)
                    }
                    continue
                }
                dueCount += 1
                let late = s.due.map { today.number - day(of: $0).number } ?? 0
                let record = stats.cards[card.id]
                let priority = Priority(
                    notRecent: record?.lastReview.map { day(of: $0).number <= today.number - 2 } ?? true,
                    struggling: (record?.accuracy ?? 1) < 0.7,
                    recentlyAdded: Self.isRecent(note: note, record: record, today: today, day: day),
                    draw: SipHash24.hash(Array(card.id.rawValue.utf8), k0: UInt64(bitPattern: Int64(today.number))))
                due.append((Item(location: loc, card: card.id, section: Self.section(of: s, late: late), daysLate: max(0, late), due: s.due),
                            priority))
            }
        }
        return (due, fresh, groupsStudied)
    }

    /// The section of a due card `late` study days late.
    private static func section(of s: SchedulingState, late: Int) -> Section {
        if late > 0 {
            return .overdue
        } else if s.flow == .learning || (s.flow == nil && (s.state == .learning || s.state == .relearning)) {
            return .learning
        } else if s.flow == .mastered || (s.flow == nil && (s.interval ?? 0) >= 21) {
            return .mastered
        }
        return .reviewing
    }

    /// The cards studied today: learning steps, then the due cards by priority within the daily
    /// review limit, then the new ones within the new-card limit (when `limit`), a sibling of a
    /// card studied or taken today left for another day (when siblings are buried). Counts what
    /// waits.
    private mutating func choose(due unsorted: [(Item, Priority)], fresh: [Item], groupsStudied: Set<SiblingGroup>, index: VaultIndex,
                                 settings: StudySettings, limit: Bool) -> [Item] {
        // Learning steps are never held back; the other due cards are, past the daily limit.
        let due = unsorted.sorted { a, b in
            if (a.0.section == .learning) != (b.0.section == .learning) { return a.0.section == .learning }
            return a.1 < b.1
        }
        var reviewRoom = limit ? max(0, settings.reviewsPerDay - studiedToday.reviews) : Int.max
        var newRoom = limit ? max(0, settings.newPerDay - studiedToday.new) : Int.max
        var taken = Set<SiblingGroup>()
        var chosen: [Item] = []
        func admit(_ item: Item) -> Bool {
            let card = index.card(at: item.location)
            guard settings.burySiblings, let group = SiblingGroup(note: item.location.note, card: card) else { return true }
            if groupsStudied.contains(group) || taken.contains(group) {
                siblingsDeferred += 1
                return false
            }
            taken.insert(group)
            return true
        }
        for (item, _) in due {
            guard admit(item) else { continue }
            if item.section != .learning {
                guard reviewRoom > 0 else { overLimit += 1; continue }
                reviewRoom -= 1
            }
            chosen.append(item)
        }
        for item in fresh {
            guard admit(item) else { continue }
            guard newRoom > 0 else { newOverLimit += 1; continue }
            newRoom -= 1
            chosen.append(item)
        }
        return chosen
    }

    /// Sections in order; within a section, the order of priority (overdue: most days late first).
    private static func ordered(_ chosen: [Item]) -> [Item] {
        let order = Dictionary(uniqueKeysWithValues: Section.allCases.enumerated().map { ($1, $0) })
        return chosen.enumerated().sorted { a, b in
            let (sa, sb) = (order[a.element.section] ?? 0, order[b.element.section] ?? 0)
            if sa != sb { return sa < sb }
            if a.element.section == .overdue, a.element.daysLate != b.element.daysLate {
                return a.element.daysLate > b.element.daysLate
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The items of one section.
    public func items(in section: Section) -> [Item] { items.filter { $0.section == section } }

    /// The estimated time for the whole plan, in seconds.
    public var estimatedSeconds: Int { items.count * secondsPerCard }

    /// Added in the last 7 days: the note's `created` date, or else the card's first review.
    private static func isRecent(note: Note, record: StudyStats.CardRecord?, today: Day, day: (Timestamp) -> Day) -> Bool {
        guard let added = note.created ?? record?.firstReview else { return false }
        return day(added).number > today.number - 7
    }
}

/// The order due cards are chosen in when more are due than the daily limit allows: not studied
/// for two days or more, then answered correctly less than 70 % of the time, then added in the last
/// week, then a draw seeded by the day (so the choice is stable through the day).
struct Priority: Comparable {
    var notRecent: Bool
    var struggling: Bool
    var recentlyAdded: Bool
    var draw: UInt64

    static func < (a: Priority, b: Priority) -> Bool {
        if a.notRecent != b.notRecent { return a.notRecent }
        if a.struggling != b.struggling { return a.struggling }
        if a.recentlyAdded != b.recentlyAdded { return a.recentlyAdded }
        return a.draw < b.draw
    }
}

/// Cards that should not be studied on the same day: a cloze paragraph's deletions, or the two
/// directions of a reversed pair (same note, same source line).
struct SiblingGroup: Hashable {
    var note: Int
    var line: Int

    init?(note: Int, card: Card) {
        switch card.variant {
        case .single: return nil
        case .cloze, .forward, .backward:
            self.note = note
            line = card.lines.lowerBound
        }
    }
}
