import QuireModel

/// Anki's interval fuzz, with the random factor derived from the card instead of drawn.
///
/// **Range** (Anki `rslib/src/scheduler/states/fuzz.rs`): an interval `i` under 2.5 days is never
/// fuzzed. Otherwise `delta = 1 + 0.15·(min(i, 7) − 2.5) + 0.10·max(min(i, 20) − 7, 0)
/// + 0.05·max(i − 20, 0)`, and the range is `round(i − delta)…round(i + delta)` (halves away from
/// zero), clamped to `minimum…maximum`; a one-day range above 2 days is widened by one day when the
/// maximum allows. So 7 → 5…9, 17 → 14…20, 20 → 17…23, 37 → 33…41.
///
/// **Choice**: `lower + floor(factor · (upper − lower + 1))`, as Anki does, where `factor` is
/// ``factor(card:reviews:)``:
///
///     h      = SipHash-2-4(k0 = 0x7175697265667a7a ("quirefzz"), k1 = 0,
///                          UTF-8 of "quire-fuzz-v1" NUL cardID NUL decimal(reviews))
///     factor = (h >> 11) / 2^53            // uniform in [0, 1), exact in a Double
///
/// `reviews` is the card's review count *after* the review being scheduled (the new `reps`), so
/// each review of a card gets its own factor, and every button of one review shares it (as in
/// Anki), which keeps fuzzed hard/good/easy in order. Two machines, or a replay of the log, always
/// agree.
public enum IntervalFuzz {
    /// The fuzz range for `interval` days, within `minimum…maximum`.
    public static func bounds(for interval: Int, minimum: Int = 1, maximum: Int) -> ClosedRange<Int> {
        let minimum = min(minimum, maximum)
        let ivl = Double(min(max(interval, minimum), maximum))
        var delta = 0.0
        if ivl >= 2.5 {
            delta = 1 + 0.15 * max(min(ivl, 7) - 2.5, 0) + 0.1 * max(min(ivl, 20) - 7, 0)
                + 0.05 * max(ivl - 20, 0)
        }
        var lower = Int((ivl - delta).rounded(.toNearestOrAwayFromZero))
        var upper = Int((ivl + delta).rounded(.toNearestOrAwayFromZero))
        lower = min(max(lower, minimum), maximum)
        upper = min(max(upper, minimum), maximum)
        if upper == lower, upper > 2, upper < maximum { upper = lower + 1 }
        return lower...upper
    }

    /// The deterministic factor in [0, 1) for a card's review (see the type's documentation).
    public static func factor(card: CardID, reviews: Int) -> Double {
        let bits = deterministicDraw(key: 0x7175_6972_6566_7a7a, domain: "quire-fuzz-v1", card: card, count: reviews)
        return Double(bits >> 11) * 0x1p-53
    }

    /// `interval` fuzzed with `factor`, within `minimum…maximum`.
    public static func apply(_ interval: Int, factor: Double, minimum: Int = 1, maximum: Int) -> Int {
        let range = bounds(for: interval, minimum: minimum, maximum: maximum)
        let span = Double(range.upperBound - range.lowerBound + 1)
        return min(range.lowerBound + Int((factor * span).rounded(.down)), range.upperBound)
    }
}

/// 64 bits drawn from a card and a count, the same on every machine:
/// SipHash-2-4 keyed with (`key`, 0) over `domain` NUL card ID NUL decimal count. Fuzz and
/// StudyFlow's 2-or-3-day choice each use their own key and domain.
func deterministicDraw(key: UInt64, domain: String, card: CardID, count: Int) -> UInt64 {
    var h = SipHash24(k0: key)
    h.combine(domain)
    h.combine(byte: 0)
    h.combine(card.rawValue)
    h.combine(byte: 0)
    h.combine(String(count))
    return h.finalize()
}
