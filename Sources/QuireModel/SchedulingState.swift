/// FSRS/Anki learning state of a card.
public enum CardState: String, CaseIterable, Sendable, Codable {
    case new, learning, review, relearning
}

/// StudyFlow state of a card.
public enum FlowState: String, CaseIterable, Sendable, Codable {
    case learning, reviewing, mastered, inactive
}

/// Everything Quire stores about one card's scheduling: one flow-style line under the note's
/// `quire:` key (FORMAT.md §5).
public struct SchedulingState: Hashable, Sendable {
    /// Fingerprint of the card's text when the line was last written.
    public var fingerprint: Fingerprint?
    public var state: CardState = .new
    /// Index of the current learning or relearning step.
    public var step: Int?
    public var due: Timestamp?
    public var lastReview: Timestamp?
    public var stability: Double?
    public var difficulty: Double?
    public var ease: Double?
    /// Current interval in days.
    public var interval: Int?
    public var reps: Int = 0
    public var lapses: Int = 0
    public var flow: FlowState?
    public var streak: Int?
    public var attempts: Int?
    public var suspended = false
    /// Not due before this time.
    public var buriedUntil: Timestamp?
    /// Fields Quire does not know, kept in order when the line is rewritten: (key, YAML source text).
    public var unknownFields: [(key: String, value: String)] = []

    /// A state for a card that has never been reviewed.
    public init() {}

    public static func == (a: SchedulingState, b: SchedulingState) -> Bool {
        a.fingerprint == b.fingerprint && a.state == b.state && a.step == b.step && a.due == b.due
            && a.lastReview == b.lastReview && a.stability == b.stability && a.difficulty == b.difficulty
            && a.ease == b.ease && a.interval == b.interval && a.reps == b.reps && a.lapses == b.lapses
            && a.flow == b.flow && a.streak == b.streak && a.attempts == b.attempts
            && a.suspended == b.suspended && a.buriedUntil == b.buriedUntil
            && a.unknownFields.elementsEqual(b.unknownFields, by: { $0.key == $1.key && $0.value == $1.value })
    }

    public func hash(into h: inout Hasher) {
        h.combine(fingerprint); h.combine(state); h.combine(due); h.combine(reps); h.combine(stability)
    }

    /// The field names, in the order they are written.
    public static let fieldOrder = ["fp", "state", "step", "due", "last", "stability", "difficulty", "ease",
                                    "interval", "reps", "lapses", "flow", "streak", "attempts", "suspended",
                                    "buried"]

    /// The fields to write, in order, as (key, YAML plain-scalar text); fields that do not apply are
    /// left out.
    public var fields: [(key: String, value: String)] {
        var out: [(String, String)] = []
        if let fingerprint { out.append(("fp", fingerprint.description)) }
        out.append(("state", state.rawValue))
        if let step { out.append(("step", String(step))) }
        if let due { out.append(("due", due.description)) }
        if let lastReview { out.append(("last", lastReview.description)) }
        if let stability { out.append(("stability", Self.format(stability))) }
        if let difficulty { out.append(("difficulty", Self.format(difficulty))) }
        if let ease { out.append(("ease", Self.format(ease))) }
        if let interval { out.append(("interval", String(interval))) }
        out.append(("reps", String(reps)))
        out.append(("lapses", String(lapses)))
        if let flow { out.append(("flow", flow.rawValue)) }
        if let streak { out.append(("streak", String(streak))) }
        if let attempts { out.append(("attempts", String(attempts))) }
        if suspended { out.append(("suspended", "true")) }
        if let buriedUntil { out.append(("buried", buriedUntil.description)) }
        out.append(contentsOf: unknownFields.map { ($0.key, $0.value) })
        return out
    }

    /// Sets the known field `key` (any of ``fieldOrder`` but `fp`) from its text. Returns what the
    /// text should have been when it cannot be read (the state is then unchanged), nil when it was
    /// read; an unknown key is not read and gives nil (the caller keeps it or not).
    ///
    /// What front-matter lines (FORMAT.md §5) and the log's `set` events (§6) share.
    public mutating func read(field key: String, text: String) -> String? {
        switch key {
        case "state": if let st = CardState(rawValue: text) { state = st } else { return "new, learning, review or relearning" }
        case "step": if let n = Int(text), n >= 0 { step = n } else { return "a whole number" }
        case "due": if let t = Timestamp(iso8601: text) { due = t } else { return "a timestamp" }
        case "last": if let t = Timestamp(iso8601: text) { lastReview = t } else { return "a timestamp" }
        case "stability": if let d = Double(text), d.isFinite { stability = d } else { return "a number" }
        case "difficulty": if let d = Double(text), d.isFinite { difficulty = d } else { return "a number" }
        case "ease": if let d = Double(text), d.isFinite { ease = d } else { return "a number" }
        case "interval": if let n = Int(text), n >= 0 { interval = n } else { return "a whole number of days" }
        case "reps": if let n = Int(text), n >= 0 { reps = n } else { return "a whole number" }
        case "lapses": if let n = Int(text), n >= 0 { lapses = n } else { return "a whole number" }
        case "flow": if let f = FlowState(rawValue: text) { flow = f } else { return "learning, reviewing, mastered or inactive" }
        case "streak": if let n = Int(text), n >= 0 { streak = n } else { return "a whole number" }
        case "attempts": if let n = Int(text), n >= 0 { attempts = n } else { return "a whole number" }
        case "suspended": if text == "true" || text == "false" { suspended = text == "true" } else { return "true or false" }
        case "buried": if let t = Timestamp(iso8601: text) { buriedUntil = t } else { return "a timestamp" }
        default: return nil
        }
        return nil
    }

    /// Whether ``read(field:text:)`` reads `key`.
    public static func isReadableField(_ key: String) -> Bool { key != "fp" && fieldOrder.contains(key) }

    /// Numbers are written with up to four decimals and no trailing zeros (`12.4`, `5.1733`, `2.5`).
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let scaled = (value * 10_000).rounded()
        var intPart = Int64(scaled) / 10_000
        let frac = abs(Int64(scaled) % 10_000)
        let negative = scaled < 0
        if negative { intPart = -intPart }
        var s = (negative ? "-" : "") + String(intPart)
        if frac != 0 {
            var digits = String(frac)
            digits = String(repeating: "0", count: 4 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            s += "." + digits
        }
        return s
    }

    /// A number as it reads back from ``format(_:)``: to four decimals. The text is not made: the
    /// nearest double to `n / 10_000` is what parsing `format`'s decimal text gives, and IEEE
    /// division of two exact integers rounds to that same nearest double.
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        let scaled = (value * 10_000).rounded()
        guard abs(scaled) < 9_007_199_254_740_992 else { return Double(format(value)) ?? 0 }
        let result = scaled / 10_000
        return result == 0 ? 0 : result
    }

    /// This state as it reads back after being written to front matter: times to whole seconds,
    /// numbers to four decimals. Live grading reads the stored form back before the next review, so
    /// replaying the log must round the same way between steps to reach the same state.
    public var stored: SchedulingState {
        var s = self
        func second(_ t: Timestamp?) -> Timestamp? {
            t.map { Timestamp(milliseconds: $0.milliseconds - (($0.milliseconds % 1000) + 1000) % 1000) }
        }
        func number(_ d: Double?) -> Double? { d.map(Self.rounded) }
        s.due = second(due)
        s.lastReview = second(lastReview)
        s.buriedUntil = second(buriedUntil)
        s.stability = number(stability)
        s.difficulty = number(difficulty)
        s.ease = number(ease)
        return s
    }

    /// Whether two states agree on every scheduling field (everything but the fingerprint and
    /// unknown fields).
    public func sameSchedule(as other: SchedulingState) -> Bool {
        var a = self, b = other
        a.fingerprint = nil; b.fingerprint = nil
        a.unknownFields = []; b.unknownFields = []
        return a == b
    }

    /// Whether the card is *due* at `now` — the one definition every command counts and selects by
    /// (FORMAT.md §7.1): not new (a StudyFlow card excepted), not suspended, buried or inactive,
    /// and either in a learning step whose time has come, or due before `dayEnd`, the start of the
    /// next study day (a review card is due for its whole study day).
    public func isDue(at now: Timestamp, dayEnd: Timestamp) -> Bool {
        guard state != .new || flow != nil, !suspended, flow != .inactive else { return false }
        return Self.isDue(due: due, intraday: (state == .learning || state == .relearning) && flow == nil,
                          buriedUntil: buriedUntil, at: now, dayEnd: dayEnd)
    }

    /// The time part of ``isDue(at:dayEnd:)``, for a card that can come due (not new outside
    /// StudyFlow, not suspended, not inactive): not buried past `now`, and due at all, or by `now`
    /// for a learning step (`intraday`), or before `dayEnd` for anything else.
    @inlinable
    public static func isDue(due: Timestamp?, intraday: Bool, buriedUntil: Timestamp?, at now: Timestamp, dayEnd: Timestamp) -> Bool {
        if let buriedUntil, buriedUntil > now { return false }
        guard let due else { return true }
        return intraday ? due <= now : due < dayEnd
    }

    /// The field a leech's line carries, `leech: true` (FORMAT.md §5, §7.2): kept as it is by the
    /// schedulers and replay, which do not decide it.
    public static let leechField = "leech"

    /// Whether a grade made the card a leech (`leech: true` in its line).
    public var isLeech: Bool { unknownFields.contains { $0.key == Self.leechField && $0.value == "true" } }

    /// Whether the card can come up at `now` (not suspended, not buried).
    public func isAvailable(at now: Timestamp) -> Bool {
        if suspended { return false }
        if let buriedUntil, buriedUntil > now { return false }
        return true
    }
}
