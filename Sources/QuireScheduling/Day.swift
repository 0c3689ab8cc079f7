import QuireModel

/// A study day: a local calendar day that begins at the rollover hour (default 4 am), so a
/// session past midnight still counts as the evening's day.
///
/// Day `n` is the local calendar date `n` days after 1970-01-01 of the moment *rollover hours
/// earlier*: with rollover 4 and UTC offset +01:00, 2026-03-10 03:59 local (02:59Z) is still study
/// day 2026-03-09, and 04:00 local (03:00Z) begins 2026-03-10. The UTC offset is a parameter — the
/// command reads the time zone once, with the clock — so nothing here reads a time-zone database;
/// across a daylight-saving change the caller passes the offset in force at each moment.
///
/// The schedulers place due times at exact durations after the review (FSRS and SM-2 days are
/// 24-hour periods, as in py-fsrs); the queue then uses days: a card is due today when its due
/// time falls before the next study day begins (``isDue(_:now:utcOffsetSeconds:rolloverHour:)``).
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible, Strideable {
    /// Days since the study day 1970-01-01.
    public var number: Int

    /// Wraps a day number.
    public init(number: Int) { self.number = number }

    /// The study day that contains `time`.
    ///
    /// - Parameters:
    ///   - time: an instant.
    ///   - utcOffsetSeconds: the local offset from UTC at that instant (east positive), within ±18 h.
    ///   - rolloverHour: the local hour (0–23) at which a study day begins.
    public init(containing time: Timestamp, utcOffsetSeconds: Int, rolloverHour: Int) {
        let local = time.milliseconds + Int64(utcOffsetSeconds - rolloverHour * 3600) * 1000
        let q = local / millisecondsPerDay
        number = Int(local % millisecondsPerDay < 0 ? q - 1 : q)
    }

    /// The instant this study day begins, for a given offset and rollover hour.
    public func start(utcOffsetSeconds: Int, rolloverHour: Int) -> Timestamp {
        Timestamp(milliseconds: Int64(number) * millisecondsPerDay
                    - Int64(utcOffsetSeconds - rolloverHour * 3600) * 1000)
    }

    /// The day's calendar date, `YYYY-MM-DD`.
    public var description: String {
        String(Timestamp(milliseconds: Int64(number) * millisecondsPerDay).description.prefix(10))
    }

    public static func < (a: Day, b: Day) -> Bool { a.number < b.number }
    public func distance(to other: Day) -> Int { other.number - number }
    public func advanced(by n: Int) -> Day { Day(number: number + n) }

    /// The start of the study day after the one containing `now`: what is due before it is due
    /// today (``SchedulingState/isDue(at:dayEnd:)``).
    public static func end(containing now: Timestamp, utcOffsetSeconds: Int, rolloverHour: Int) -> Timestamp {
        Day(containing: now, utcOffsetSeconds: utcOffsetSeconds, rolloverHour: rolloverHour).advanced(by: 1)
            .start(utcOffsetSeconds: utcOffsetSeconds, rolloverHour: rolloverHour)
    }

    /// Whether a card with this state should be shown on the study day containing `now`.
    ///
    /// Suspended and buried cards never are; a card with no due time (new) is; a review card
    /// (due a day or more after its last review) is due for the whole study day its due time
    /// falls in or earlier; a card in (re)learning, or a StudyFlow card, likewise by day, except
    /// that a learning step is due only once its time has come.
    public static func isDue(_ state: SchedulingState, now: Timestamp, utcOffsetSeconds: Int,
                             rolloverHour: Int) -> Bool {
        guard state.isAvailable(at: now) else { return false }
        if state.flow == .inactive { return false }
        guard let due = state.due else { return true }
        if state.state == .learning || state.state == .relearning, state.flow == nil {
            return due <= now
        }
        let today = Day(containing: now, utcOffsetSeconds: utcOffsetSeconds, rolloverHour: rolloverHour)
        return due < today.advanced(by: 1).start(utcOffsetSeconds: utcOffsetSeconds, rolloverHour: rolloverHour)
    }
}
