import QuireModel

/// The vault's study days as one value: the hour a study day begins (`day_rollover`) and the local
/// offset from UTC in force at each instant. Built once per action from the vault's settings and
/// the clock's time zone, and passed down, so that every part of an action — the queue, what is
/// due, the streak, the statistics — draws the line between two days in the same place.
public struct StudyCalendar: Sendable {
    /// The local hour (0–23) at which a study day begins.
    public let rolloverHour: Int
    /// The local offset from UTC, in seconds east, at an instant.
    public let utcOffset: @Sendable (Timestamp) -> Int

    /// A calendar whose offset may change with the instant (daylight saving).
    public init(rolloverHour: Int, utcOffset: @escaping @Sendable (Timestamp) -> Int) {
        self.rolloverHour = rolloverHour
        self.utcOffset = utcOffset
    }

    /// A calendar at one fixed offset from UTC (tests, and zones without daylight saving).
    public init(rolloverHour: Int, utcOffsetSeconds: Int) {
        self.init(rolloverHour: rolloverHour, utcOffset: { _ in utcOffsetSeconds })
    }

    /// The study day that contains `time`.
    public func day(containing time: Timestamp) -> Day {
        Day(containing: time, utcOffsetSeconds: utcOffset(time), rolloverHour: rolloverHour)
    }

    /// The instant `day` begins: the rollover hour on its local date, at the offset in force then
    /// (found from the offset at its UTC reading, then at the instant that gives).
    public func start(of day: Day) -> Timestamp {
        let guess = day.start(utcOffsetSeconds: 0, rolloverHour: rolloverHour)
        let first = day.start(utcOffsetSeconds: utcOffset(guess), rolloverHour: rolloverHour)
        return day.start(utcOffsetSeconds: utcOffset(first), rolloverHour: rolloverHour)
    }

    /// The start of the study day after the one containing `now`: what is due before it is due
    /// today (``SchedulingState/isDue(at:dayEnd:)``).
    public func end(containing now: Timestamp) -> Timestamp {
        start(of: day(containing: now).advanced(by: 1))
    }

    /// Whether a card with this state is shown on the study day containing `now`
    /// (``Day/isDue(_:now:utcOffsetSeconds:rolloverHour:)``).
    public func isDue(_ state: SchedulingState, now: Timestamp) -> Bool {
        Day.isDue(state, now: now, utcOffsetSeconds: utcOffset(now), rolloverHour: rolloverHour)
    }
}
