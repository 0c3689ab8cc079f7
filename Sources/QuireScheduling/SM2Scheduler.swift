import Foundation
import QuireModel

/// SM-2 as Quire's users' original app specified it (three buttons), with a documented Hard.
///
/// The card keeps an ease (start 2.5, floor 1.3, cap 3.0) and an interval in days (0 for a new or
/// forgotten card). Writing `I` for the interval and `E` for the ease before the review:
///
/// | rating | interval | ease | due |
/// | --- | --- | --- | --- |
/// | Again | 0 | E − 0.20, at least 1.3 | in 10 minutes |
/// | Good | 1 when I = 0; 6 when I = 1; else ⌈I × E⌉ | E | I′ days |
/// | Easy | 4 when I = 0; else ⌈I × E × 1.3⌉ | E + 0.15, at most 3.0 | I′ days |
/// | Hard | 1 when I = 0; else max(⌈I × 1.2⌉, I + 1) | E − 0.15, at least 1.3 | I′ days |
///
/// - "From new" for Easy includes a card just forgotten (interval 0): ⌈0 × …⌉ would be no interval.
/// - Intervals use the ease *before* the review; they are capped at the maximum interval.
/// - **Hard** is not in the original three-button app. When a 4-button rating reaches SM-2 it is
///   handled as Anki's SM-2 does: a pass with a 1.2 multiplier (always at least a day longer than
///   before, and never longer than Good) and ease −0.15. With 3 buttons the UI never offers it
///   (``preview(_:at:card:)`` has no Hard outcome).
/// - State: Again makes a reviewed card `relearning` (and counts a lapse) or keeps a new one
///   `learning`; every pass makes it `review`. Each review adds one to `reps`.
public struct SM2Scheduler: Scheduler {
    /// The settings the scheduler was built with.
    public let settings: SchedulerSettings

    /// The ease of a card's first review.
    public static let startingEase = 2.5
    /// The lowest ease.
    public static let minimumEase = 1.3
    /// The highest ease.
    public static let maximumEase = 3.0
    /// How long a forgotten card waits, in seconds.
    public static let againDelaySeconds = 600.0

    /// A scheduler with the given settings (only ``SchedulerSettings/maximumInterval`` and
    /// ``SchedulerSettings/buttons`` are used).
    public init(settings: SchedulerSettings = SchedulerSettings()) {
        self.settings = settings
    }

    /// The SM-2 state after answering `rating` at `now` (see the type's documentation).
    public func next(_ state: SchedulingState?, rating: Rating, at now: Timestamp, card: CardID) -> SchedulingState {
        let old = state ?? SchedulingState()
        let ease = old.ease ?? Self.startingEase
        let interval = max(old.interval ?? 0, 0)
        var new = old
        new.reps = old.reps + 1
        new.lastReview = now
        new.step = nil

        let days: Int
        switch rating {
        case .again:
            new.ease = Self.cents(max(ease - 0.2, Self.minimumEase))
            new.interval = 0
            new.due = now.adding(seconds: Self.againDelaySeconds)
            if interval > 0 || old.state == .review || old.state == .relearning {
                new.state = .relearning
                if interval > 0 { new.lapses = old.lapses + 1 }
            } else {
                new.state = .learning
            }
            return new
        case .hard:
            new.ease = Self.cents(max(ease - 0.15, Self.minimumEase))
            days = interval == 0 ? 1 : max(Self.ceil(Double(interval) * 1.2), interval + 1)
        case .good:
            new.ease = ease
            days = switch interval {
            case 0: 1
            case 1: 6
            default: Self.ceil(Double(interval) * ease)
            }
        case .easy:
            new.ease = Self.cents(min(ease + 0.15, Self.maximumEase))
            days = interval == 0 ? 4 : Self.ceil(Double(interval) * ease * 1.3)
        }
        let capped = min(days, settings.maximumInterval)
        new.state = .review
        new.interval = capped
        new.due = now.adding(days: capped)
        return new
    }

    /// The ease rounded to hundredths, so the value written to front matter (§5) is exactly the
    /// value the next review computes with, and replaying the log gives the same numbers.
    static func cents(_ x: Double) -> Double { (x * 100).rounded() / 100 }

    /// `⌈x⌉`, tolerating the binary error of products like 10 × 2.3 (= 22.999…97 or 23.000…04):
    /// anything within 1e-9 of a whole number counts as that number.
    static func ceil(_ x: Double) -> Int {
        let nearest = x.rounded()
        if abs(x - nearest) < 1e-9 { return Int(nearest) }
        return Int(x.rounded(.up))
    }
}
