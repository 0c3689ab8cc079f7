/// Which cards a study session takes (`quire review --mode`).
public enum StudyMode: String, CaseIterable, Sendable {
    /// New cards only (up to 20).
    case new
    /// Due cards only (up to 25).
    case review
    /// 5 new and 20 due cards.
    case mixed
    /// The counts given with `--new` and `--reviews`.
    case custom

    /// The session's size in this mode: new cards and due cards.
    public var defaultCounts: (new: Int, reviews: Int) {
        switch self {
        case .new: (20, 0)
        case .review: (0, 25)
        case .mixed, .custom: (5, 20)
        }
    }
}

/// What becomes of a card that lapses too often (`leech_action`).
public enum LeechAction: String, CaseIterable, Sendable {
    /// Tag its note `leech` and suspend it.
    case suspend
    /// Only tag its note `leech`.
    case tag
}

/// Daily limits and session defaults from `.quire/config.yaml` (FORMAT.md §7.2).
public struct StudySettings: Sendable, Equatable {
    /// New cards a study day, at most (default 20).
    public var newPerDay = 20
    /// Due cards a study day, at most (default 200).
    public var reviewsPerDay = 200
    /// The session `quire review` starts without `--mode` (default mixed).
    public var mode = StudyMode.mixed
    /// Whether the other cards of a cloze group or a reversed pair wait for another day once one
    /// has been studied today (default on).
    public var burySiblings = true
    /// Lapses that make a card a leech (default 8, Anki's): at that many, and every half as many
    /// again, the card's note is tagged `leech` and, with ``LeechAction/suspend``, the card is
    /// suspended.
    public var leechThreshold = 8
    /// What happens to a leech (default: suspended and tagged).
    public var leechAction = LeechAction.suspend
    /// The time a card is assumed to take until the user's own average is known.
    public var defaultSecondsPerCard = 30

    /// The defaults.
    public init() {}

    /// Whether a lapse that brought a card's lapses to `lapses` makes it a leech: at the
    /// threshold, then every half threshold again (Anki's rule).
    public func isLeech(lapses: Int) -> Bool {
        guard leechThreshold > 0, lapses >= leechThreshold else { return false }
        return (lapses - leechThreshold) % max(1, leechThreshold / 2) == 0
    }
}
