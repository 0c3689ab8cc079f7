import QuireModel
import QuireSupport

/// A note as curation sees it: its level, whether it is archived, and the day it was created.
public struct CurationNote: Sendable, Equatable {
    public var path: String
    public var title: String
    /// `daily` for a note without `cycle`.
    public var cycle: NoteCycle
    public var archived: Bool
    /// The calendar day it was created (days from 1970-01-01).
    public var created: Int
    /// Whether `created` was inferred (from the file name or the file's time), not written.
    public var createdInferred: Bool
    public var category: String?
    public var source: String?
    public var sourceType: String?
    public var tags: [Tag]
    /// How many cards the note holds (archiving it takes them out of study).
    public var cards = 0

    /// The curation view of a note: `created` from the front matter, else a date that starts its
    /// file name (`2026-11-22.md`, `2026-11-22 Title.md`), else `modified` (the file's time,
    /// given by the caller).
    public init(_ note: Note, utcOffsetSeconds: Int, modified: () -> Timestamp?) {
        path = note.path
        title = note.title
        cycle = note.cycle ?? .daily
        archived = note.archived
        cards = note.cards.count
        category = note.category
        source = note.source
        sourceType = note.sourceType
        tags = note.tags
        if let created = note.created {
            self.created = Self.day(of: created, utcOffsetSeconds: utcOffsetSeconds)
            createdInferred = false
        } else if let day = Self.dateInFileName(note.path) {
            created = day
            createdInferred = true
        } else {
            created = Self.day(of: modified() ?? Timestamp(milliseconds: 0), utcOffsetSeconds: utcOffsetSeconds)
            createdInferred = true
        }
    }

    /// The local calendar day of an instant.
    static func day(of time: Timestamp, utcOffsetSeconds: Int) -> Int {
        let local = time.milliseconds + Int64(utcOffsetSeconds) * 1000
        let q = local / 86_400_000
        return Int(local % 86_400_000 < 0 ? q - 1 : q)
    }

    /// A `YYYY-MM-DD` date at the start of a path's file name.
    static func dateInFileName(_ path: String) -> Int? {
        let name = Array((path.split(separator: "/").last ?? "").utf8)
        guard name.count >= 10 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard name[i] >= 48, name[i] <= 57 else { return nil }
                n = n * 10 + Int(name[i] - 48)
            }
            return n
        }
        guard let y = number(0..<4), name[4] == UInt8(ascii: "-"), let m = number(5..<7), name[7] == UInt8(ascii: "-"),
              let d = number(8..<10), (1...12).contains(m), d >= 1, d <= CivilCalendar.daysIn(month: m, year: y),
              name.count == 10 || !(48...57).contains(name[10]) else { return nil }
        return CivilCalendar.daysFromCivil(year: y, month: m, day: d)
    }

    /// Whether a review of `review` decides on this note when its period holds `created`: it is at
    /// the review's input level and not archived.
    public func awaits(_ review: CurationReview) -> Bool { !archived && cycle == review.input }

    /// Whether a review of `review` has decided on it: kept (a level above the input) or archived
    /// at the input level.
    public func decided(in review: CurationReview) -> Bool {
        cycle > review.input ? true : (archived && cycle == review.input)
    }

    /// Whether a review of `review` takes the note at all (it reached the review's input level).
    public func belongs(to review: CurationReview) -> Bool { cycle >= review.input }
}

/// Where a period's review stands.
public struct PeriodStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Nothing decided yet.
        case pending
        /// Some notes decided, some not.
        case inProgress = "in progress"
        /// Every note decided.
        case completed
    }

    public var period: CurationPeriod
    /// Notes the review takes (decided or not).
    public var total: Int
    public var kept: Int
    public var archived: Int
    /// Notes still to decide.
    public var left: Int { total - kept - archived }

    public var state: State { left == 0 ? .completed : (kept + archived == 0 ? .pending : .inProgress) }
}

/// Curation over a vault's notes (FORMAT.md §2.2): which notes a period's review takes, where
/// each period stands, which reviews are due. Pure: the notes and today come in.
public struct Curation: Sendable {
    public let notes: [CurationNote]
    /// When the reviews fall due.
    public let reviewDays: ReviewDays

    public init(notes: [CurationNote], reviewDays: ReviewDays = .standard) {
        self.notes = notes
        self.reviewDays = reviewDays
    }

    /// The notes a period's review takes, in creation order (then path): notes created in the
    /// period that reached the review's input level (weekly: every note; monthly: those kept
    /// weekly; yearly: those kept monthly).
    public func members(of period: CurationPeriod) -> [CurationNote] {
        notes.filter { period.contains($0.created) && $0.belongs(to: period.review) }
            .sorted { ($0.created, $0.path) < ($1.created, $1.path) }
    }

    /// The notes still to decide in a period's review.
    public func eligible(in period: CurationPeriod) -> [CurationNote] {
        members(of: period).filter { $0.awaits(period.review) }
    }

    /// Where a period's review stands.
    public func status(of period: CurationPeriod) -> PeriodStatus {
        var s = PeriodStatus(period: period, total: 0, kept: 0, archived: 0)
        for note in members(of: period) {
            s.total += 1
            if note.cycle > period.review.input { s.kept += 1 } else if note.archived { s.archived += 1 }
        }
        return s
    }

    /// Every period of every review whose review day has come by `today` and that has notes still
    /// to decide (missed ones included), oldest first.
    public func pending(today: Int) -> [PeriodStatus] {
        var periods = Set<CurationPeriod>()
        for note in notes where !note.archived {
            for review in CurationReview.allCases where note.cycle == review.input {
                let period = CurationPeriod(review, containing: note.created)
                if period.reviewDay(reviewDays) <= today { periods.insert(period) }
            }
        }
        return periods.sorted().map(status(of:)).filter { $0.left > 0 }
    }

    /// The oldest pending period of a review, if any.
    public func oldestPending(_ review: CurationReview, today: Int) -> CurationPeriod? {
        pending(today: today).first { $0.period.review == review }?.period
    }

    /// A group of the timeline: a period, where its review stands, and its notes, newest first.
    public struct TimelineGroup: Sendable {
        public var period: CurationPeriod
        /// The status of the period's review that decides on these notes (nil in the yearly view:
        /// yearly notes are evergreen, no review above them).
        public var status: PeriodStatus?
        public var notes: [CurationNote]
    }

    /// The timeline of a level (FORMAT.md §2.2): every note not archived that reached `level`,
    /// grouped by the period of the review above it — daily notes by ISO week, weekly ones by month,
    /// monthly and yearly ones by year — newest first.
    public func timeline(_ level: NoteCycle, including: (CurationNote) -> Bool = { _ in true }) -> [TimelineGroup] {
        let review: CurationReview? = switch level {
        case .daily: .weekly
        case .weekly: .monthly
        case .monthly: .yearly
        case .yearly: nil
        }
        var groups: [CurationPeriod: [CurationNote]] = [:]
        for note in notes where !note.archived && (level == .yearly ? note.cycle == .yearly : note.cycle >= level) && including(note) {
            groups[CurationPeriod(review ?? .yearly, containing: note.created), default: []].append(note)
        }
        return groups.keys.sorted(by: >).map { period in
            TimelineGroup(period: period, status: review.map { _ in status(of: period) },
                          notes: (groups[period] ?? []).sorted { ($0.created, $0.path) > ($1.created, $1.path) })
        }
    }

    /// Curation in figures (`quire stats`): notes by level and by category (archived ones apart),
    /// the decisions so far — kept is any note above `daily`, archived any archived note — and the
    /// reviews due.
    public struct Summary: Sendable, Equatable {
        public var byCycle: [NoteCycle: Int] = [:]
        public var byCategory: [String: Int] = [:]
        public var kept = 0, archived = 0, pendingReviews = 0

        /// No notes.
        public init() {}

        /// Kept notes as a fraction of the decided ones (nil before any decision).
        public var keepRate: Double? { kept + archived == 0 ? nil : Double(kept) / Double(kept + archived) }
    }

    /// The summary on calendar day `today`.
    public func summary(today: Int) -> Summary {
        var s = Summary()
        for note in notes {
            if note.archived {
                s.archived += 1
                continue
            }
            s.byCycle[note.cycle, default: 0] += 1
            if let c = note.category { s.byCategory[c, default: 0] += 1 }
            if note.cycle > .daily { s.kept += 1 }
        }
        s.pendingReviews = pending(today: today).count
        return s
    }

    /// The lower reviews of the same span still incomplete before a monthly or yearly review
    /// (weeks that hold days of the month, months of the year).
    public func incompleteLower(than period: CurationPeriod) -> [PeriodStatus] {
        guard let lower = period.review.lower else { return [] }
        var result: [PeriodStatus] = []
        var p = CurationPeriod(lower, containing: period.first)
        while p.first <= period.last {
            let s = status(of: p)
            if s.left > 0 { result.append(s) }
            p = p.next
        }
        return result
    }
}
