import QuireApp
import QuireCuration
import QuireSupport

extension CurationContext {
    /// One period's status line: `2026-W47  Week 47, 2026  in progress  12 notes: 3 kept, 1 archived, 8 left`.
    package static func line(_ s: PeriodStatus) -> [String] {
        [s.period.description, s.period.title, s.state.rawValue,
         "\(Plural.counted(s.total, "note")): \(s.kept) kept, \(s.archived) archived, \(s.left) left"]
    }

    /// What `quire today` says of the curation due: `2 curation reviews due: weekly 2026-W46, monthly 2026-10 (quire curate status)`.
    package static func dueLine(_ pending: [PeriodStatus]) -> String? {
        guard !pending.isEmpty else { return nil }
        let named = pending.prefix(3).map { "\($0.period.review.rawValue) \($0.period)" }.joined(separator: ", ")
        return "\(Plural.counted(pending.count, "curation review")) due: \(named)\(pending.count > 3 ? ", …" : "") ('quire curate status')"
    }
}
