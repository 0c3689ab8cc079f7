import QuireSupport
import QuireCuration
import QuireIndex
import QuireModel
import QuireScheduling
import QuireSystem

/// What curation needs loaded, for any front end: the vault's notes as curation sees them, today's
/// calendar day.
public struct CurationContext {
    public let loaded: LoadedVault
    public let curation: Curation
    public let now: Timestamp
    /// Today's local calendar day (days from 1970-01-01).
    public let today: Int

    /// Curation over a vault already indexed, with its settings read (``LoadedVault/readSettings(of:)``).
    public init(loaded: LoadedVault, config: VaultConfig, now: Timestamp) {
        self.loaded = loaded
        self.now = now
        let offset = SystemClock.utcOffset(at: now)
        let vault = loaded.vault
        let d = config.reviewDays
        let dayEnd = StudyCalendar(config).end(containing: now)
        curation = Curation(notes: loaded.index.notes.filter { config.curates($0, now: now, dayEnd: dayEnd) }.map { note in
            CurationNote(note, utcOffsetSeconds: offset) {
                vault.io.stamp(vault.fullPath(note.path)).map { Timestamp(milliseconds: $0.mtimeNanoseconds / 1_000_000) }
            }
        }, reviewDays: ReviewDays(weekday: d.weekday, monthDay: d.monthDay, yearMonth: d.yearMonth, yearDay: d.yearDay))
        today = Self.day(of: now)
    }

    /// Curation over a vault already indexed, reading its settings: settings that cannot be read
    /// or hold an error are a located error, never the default review days in silence.
    public init(loaded: LoadedVault, now: Timestamp) throws(AppError) {
        self.init(loaded: loaded, config: try LoadedVault.readSettings(of: loaded.vault).config, now: now)
    }

    /// The local calendar day (days from 1970-01-01) of `now`.
    public static func day(of now: Timestamp) -> Int {
        Int((now.milliseconds + Int64(SystemClock.utcOffset(at: now)) * 1000) / 86_400_000)
    }

    /// A period's status as JSON (docs/JSON.md): review, period, title, state, notes, kept,
    /// archived, left.
    public static func json(_ s: PeriodStatus) -> JSONValue {
        .object([("review", .string(s.period.review.rawValue)), ("period", .string(s.period.description)),
                 ("title", .string(s.period.title)), ("state", .string(s.state.rawValue)), ("notes", .int(s.total)),
                 ("kept", .int(s.kept)), ("archived", .int(s.archived)), ("left", .int(s.left))])
    }
}
