import Foundation
import QuireIndex
import QuireMarkdown
import QuireModel
import QuireReview
import QuireScheduling
import QuireStudy
import QuireSupport
import QuireSystem
import QuireVault

/// What recording reviews needs, for any front end: the vault, its settings, this device's log
/// writer, and finding a card without indexing the whole vault when the log already says where it is.
public struct ReviewContext {
    public let vault: Vault
    public let config: VaultConfig
    public let writer: ReviewWriter
    /// Warnings about the settings, for the front end to show.
    public let settingsDiagnostics: [Diagnostic]
    private var loaded: LoadedVault?
    private let cached: Bool
    /// Hears the whole vault indexed, when finding a card needed it (a front end shows its errors).
    public var onIndexed: (LoadedVault) -> Void = { _ in }

    /// Recording reviews makes .quire/ (log, device, journal): only in a vault made by init, whose
    /// .gitignore keeps the clone's own files out of git.
    public init(vault: Vault, cached: Bool) throws(AppError) {
        guard vault.isInitialized else { throw .notInitialized(root: vault.root) }
        self.vault = vault
        self.cached = cached
        (config, settingsDiagnostics) = try LoadedVault.readSettings(of: vault)
        var generator = SystemRandomNumberGenerator()
        do {
            writer = ReviewWriter(vault: vault, config: config, device: try vault.deviceID(using: &generator))
        } catch {
            throw .device(error.description)
        }
    }

    /// The whole vault indexed (once).
    public mutating func index() -> LoadedVault {
        if let loaded { return loaded }
        let l = LoadedVault(vault, cached: cached)
        loaded = l
        onIndexed(l)
        return l
    }

    /// Runs `body` on the note holding a card given by ID or unique prefix: first on the note the
    /// log last names for it, or for a card never reviewed the note the index cache names (nothing
    /// indexed; the writer parses that one note), and when that note is gone or the card is no
    /// longer in it, on the note the whole vault's index finds (passed as `known`).
    public mutating func onCard<R>(_ idText: String,
                                   _ body: (CardID, String, _ known: Note?) throws(ReviewError) -> R) throws(AppError) -> R {
        if let id = CardID(idText) {
            // The note the log last names for the card, then (a card never reviewed) the notes the
            // index cache's card-ID table names.
            var candidates: [String] = vault.lastLoggedPath(of: id).map { [$0] } ?? []
            if candidates.isEmpty, cached, let cache = vault.cache { candidates = cache.notePaths(holding: id) }
            for path in candidates where vault.io.stamp(vault.fullPath(path)) != nil {
                do { return try body(id, path, nil) } catch {
                    // Moved out of that note, or the note no longer reads: nothing was written; go on.
                    switch error {
                    case .cardNotFound, .unreadableNote: continue
                    default: throw .review(error)
                    }
                }
            }
        }
        let index = index().index
        guard let loc = index.location(of: idText) else { throw .noSuchCard(idText) }
        do { return try body(index.card(at: loc).id, index.notes[loc.note].path, index.notes[loc.note]) } catch {
            throw .review(error)
        }
    }

    /// The card's state as a session shows it: the StudyFlow state, or FSRS/SM-2's (so a failed
    /// card gone over again shows as relearning, not as its section), and whether it is overdue.
    public static func stateWord(_ s: SchedulingState?, section: StudyPlan.Section) -> String {
        guard let s else { return "new" }
        var word = s.flow?.rawValue ?? s.state.rawValue
        if section == .overdue { word += " (overdue)" }
        if s.suspended { word += " · suspended" }
        return word
    }

    /// What the screen says when an answer made the card a leech.
    public static func leechNotice(_ state: SchedulingState?, note: Note?) -> String {
        let suspended = state?.suspended == true
        let lapses = state?.lapses ?? 0
        var said = ["Leech: lapsed \(Plural.counted(lapses, "time")), marked in its line (is:leech finds it)"]
        if suspended { said.append("the card is suspended (quire unsuspend to study it again)") }
        return said.joined(separator: "; ")
    }

    /// What an undo took back, before the card's ID: "the answer to", "the bury of", …
    public static func undone(_ action: ReviewAction) -> String {
        switch action {
        case .grade: "the answer to"
        case .bury: "the bury of"
        case .suspend: "the suspension of"
        case .promote: "the promotion of"
        case .demote: "the demotion of"
        default: "the \(action.word) of"
        }
    }

    /// What an answer did, as the message after it says: the card's new state, or — cramming
    /// without `--reschedule` — that nothing was recorded.
    public static func answered(_ rating: Rating, _ state: SchedulingState?, now: Timestamp, recorded: Bool) -> String {
        guard recorded else {
            return "not recorded (a cram without --reschedule changes no schedule)"
                + (rating == .again ? "; it comes back in this session" : "")
        }
        return summary(state, now: now)
    }

    /// `due 2026-11-25T09:00:00Z (in 3d)`, or what keeps the card from coming up.
    public static func summary(_ s: SchedulingState?, now: Timestamp) -> String {
        guard let s else { return "new" }
        var parts = [s.flow.map { "\(s.state.rawValue), \($0.rawValue)" } ?? s.state.rawValue]
        if s.suspended { parts.append("suspended") }
        if let b = s.buriedUntil, b > now { parts.append("buried until \(b)") }
        if let due = s.due { parts.append("due \(due) (\(relative(due, from: now)))") }
        return parts.joined(separator: ", ")
    }

    /// `in 10m`, `in 3d`, `now`, `2d ago`.
    public static func relative(_ t: Timestamp, from now: Timestamp) -> String {
        let milliseconds = t.milliseconds - now.milliseconds
        if abs(milliseconds) < 500 { return "now" }
        return milliseconds > 0 ? "in " + span(from: now, to: t) : span(from: t, to: now) + " ago"
    }

    /// The length of a time span as Anki shows it on its buttons, rounded to its unit: `45s`,
    /// `10m`, `5h`, `3d`, `2.5mo`, `1.2y`. (Rounded, not cut: a due time is stored to the second,
    /// so 10 minutes after an answer at 12:00:00.700 is 9 min 59.3 s away, which is `10m`, as the
    /// button said.)
    public static func span(from a: Timestamp, to b: Timestamp) -> String {
        let seconds = Int((Double(abs(b.milliseconds - a.milliseconds)) / 1000).rounded())
        let days = Double(seconds) / 86_400
        let minutes = Int((Double(seconds) / 60).rounded()), hours = Int((Double(seconds) / 3600).rounded())
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600 where minutes < 60: return "\(minutes)m"
        case ..<86_400 where hours < 24: return "\(max(1, hours))h"
        case ..<86_400: return "1d"
        case ..<(86_400 * 30): return "\(Int(days.rounded()))d"
        case ..<(86_400 * 365): return String(format: "%.1fmo", days / 30.4375)
        default: return String(format: "%.1fy", days / 365.25)
        }
    }

    /// A typed answer compared with a card's back as plain text on one line (its Markdown
    /// rendered without marks), as every front end shows it.
    public static func comparison(typed: String, back: String) -> AnswerComparison {
        let expected = MarkdownRenderer.plain(back, width: 100_000).split(separator: "\n").joined(separator: " ")
        return AnswerComparison(typed: typed, expected: expected)
    }

    /// The answer typed for a card, to log with its grade: nil when nothing was typed or it was
    /// the card's answer.
    public static func typedWrongly(_ typed: String?, back: String) -> String? {
        guard let typed, !typed.isEmpty, !comparison(typed: typed, back: back).isCorrect else { return nil }
        return typed
    }

    /// Whether a card asks for its answer to be typed: `type: true` in its note, or every card
    /// when the front end was asked so; never a cloze (its gaps are the question).
    public static func asksToType(_ card: Card, in note: Note, always: Bool) -> Bool {
        card.kind != .cloze && (always || note.typeAnswer)
    }

    /// A card's JSON with a new state, as `quire list --json` prints it.
    public static func json(_ card: CardID, state: SchedulingState?, in note: Note) -> JSONValue? {
        guard var c = note.cards.first(where: { $0.id == card }) else { return nil }
        c.schedule = state
        return JSONRepresentation.card(c, in: note)
    }
}
