import QuireCuration
import QuireModel
import QuireScheduling
import QuireSystem

/// What curation needs loaded, for any front end: the vault's notes as curation sees them, today's
/// calendar day.
public struct CurationContext {
    public let loaded: VaultSession
    public let curation: Curation
    public let now: Timestamp
    /// Today's local calendar day (days from 1970-01-01).
    public let today: Int

    /// Curation over a vault already indexed.
    public init(loaded: VaultSession, now: Timestamp) {
        self.loaded = loaded
        self.now = now
        let offset = SystemClock.utcOffset(at: now)
        let vault = loaded.vault
        let config = vault.config().config
        let d = config.reviewDays
        let dayEnd = Day.end(containing: now, utcOffsetSeconds: offset, rolloverHour: config.dayRollover)
        curation = Curation(notes: loaded.index.notes.filter { config.curates($0, now: now, dayEnd: dayEnd) }.map { note in
            CurationNote(note, utcOffsetSeconds: offset) {
                vault.io.stamp(vault.fullPath(note.path)).map { Timestamp(milliseconds: $0.mtimeNanoseconds / 1_000_000) }
            }
        }, reviewDays: ReviewDays(weekday: d.weekday, monthDay: d.monthDay, yearMonth: d.yearMonth, yearDay: d.yearDay))
        today = Self.day(of: now)
    }

    /// The local calendar day (days from 1970-01-01) of `now`.
    public static func day(of now: Timestamp) -> Int {
        Int((now.milliseconds + Int64(SystemClock.utcOffset(at: now)) * 1000) / 86_400_000)
    }
}
