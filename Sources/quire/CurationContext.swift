import Foundation
import QuireApp
import QuireCuration
import QuireModel
import QuireScheduling
import QuireSupport
import QuireSystem

/// What the curation commands share: the vault's notes as curation sees them, today's calendar
/// day, and (for the reviews) this device's curation writer.
struct CurationContext {
    let loaded: LoadedVault
    let curation: Curation
    let now: Timestamp
    /// Today's local calendar day (days from 1970-01-01).
    let today: Int

    init(_ options: VaultOptions) throws {
        self.init(loaded: try LoadedVault(options), now: options.now)
    }

    /// Curation over a vault already indexed.
    init(loaded: LoadedVault, now: Timestamp) {
        self.loaded = loaded
        self.now = now
        let offset = Clock.utcOffset(at: now)
        let vault = loaded.vault
        let config = vault.config().config
        let d = config.reviewDays
        let dayEnd = Day.end(containing: now, utcOffsetSeconds: offset, rolloverHour: config.dayRollover)
        curation = Curation(notes: loaded.index.notes.filter { config.curates($0, now: now, dayEnd: dayEnd) }.map { note in
            CurationNote(note, utcOffsetSeconds: offset) {
                vault.io.stamp(vault.fullPath(note.path)).map { Timestamp(milliseconds: $0.mtimeNanoseconds / 1_000_000) }
            }
        }, reviewDays: ReviewDays(weekday: d.weekday, monthDay: d.monthDay, yearMonth: d.yearMonth, yearDay: d.yearDay))
        today = Int((now.milliseconds + Int64(offset) * 1000) / 86_400_000)
    }

    /// One period's status line: `2026-W47  Week 47, 2026  in progress  12 notes: 3 kept, 1 archived, 8 left`.
    static func line(_ s: PeriodStatus) -> [String] {
        [s.period.description, s.period.title, s.state.rawValue,
         "\(Output.counted(s.total, "note")): \(s.kept) kept, \(s.archived) archived, \(s.left) left"]
    }

    /// What `quire today` says of the curation due: `2 curation reviews due: weekly 2026-W46, monthly 2026-10 (quire curate status)`.
    static func dueLine(_ pending: [PeriodStatus]) -> String? {
        guard !pending.isEmpty else { return nil }
        let named = pending.prefix(3).map { "\($0.period.review.rawValue) \($0.period)" }.joined(separator: ", ")
        return "\(Output.counted(pending.count, "curation review")) due: \(named)\(pending.count > 3 ? ", …" : "") ('quire curate status')"
    }

    /// A period's status as JSON.
    static func json(_ s: PeriodStatus) -> JSONValue {
        .object([("review", .string(s.period.review.rawValue)), ("period", .string(s.period.description)),
                 ("title", .string(s.period.title)), ("state", .string(s.state.rawValue)), ("notes", .int(s.total)),
                 ("kept", .int(s.kept)), ("archived", .int(s.archived)), ("left", .int(s.left))])
    }
}
