import Foundation

/// The 21 trainable weights of FSRS-6, validated.
///
/// Older sets are accepted and filled in the way fsrs-rs's `check_and_fill_parameters` does, so
/// parameters optimized for FSRS-4.5 or FSRS-5 keep their meaning:
/// - 17 values (FSRS-4.5): `w4 ← w4 + 2·w5`, `w5 ← ln(3·w5 + 1) / 3`, `w6 ← w6 + 0.5` (the
///   exponential initial-difficulty curve through the old linear one at ratings 1 and 4), then
///   `w17 = w18 = w19 = 0` (no short-term stability change) and `w20 = 0.5` (FSRS-5's decay).
/// - 19 values (FSRS-5): `w19 = 0`, `w20 = 0.5`.
///
/// After filling, every weight must lie within the bounds py-fsrs 6 enforces.
public struct FSRSParameters: Hashable, Sendable, CustomStringConvertible {
    /// The 21 weights `w0…w20`.
    public let values: [Double]

    /// How many values the set had before filling (17, 19 or 21).
    public let sourceCount: Int

    /// The FSRS-6 default weights (py-fsrs 6 / fsrs-rs `DEFAULT_PARAMETERS`).
    public static let fsrs6Defaults = FSRSParameters(
        unchecked: [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
                    1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542])

    /// The range py-fsrs 6 accepts for each weight.
    public static let bounds: [ClosedRange<Double>] = [
        0.001...100, 0.001...100, 0.001...100, 0.001...100, 1...10, 0.001...4, 0.001...4, 0.001...0.75,
        0...4.5, 0...0.8, 0.001...3.5, 0.001...5, 0.001...0.25, 0.001...0.9, 0...4, 0...1, 1...6, 0...2,
        0...2, 0...0.8, 0.1...0.8,
    ]

    /// FSRS-5's fixed decay, used to fill 17- and 19-value sets.
    static let fsrs5Decay = 0.5

    private init(unchecked values: [Double], sourceCount: Int? = nil) {
        self.values = values
        self.sourceCount = sourceCount ?? values.count
    }

    /// The same weights in storage of their own (see ``SchedulerSettings/unshared()``).
    func unshared() -> FSRSParameters {
        FSRSParameters(unchecked: values.map { $0 }, sourceCount: sourceCount)
    }

    /// Validates a 17-, 19- or 21-value parameter set, filling it to 21 values.
    ///
    /// - Throws: ``SchedulingError/parameterCount(_:)``, ``SchedulingError/parameterNotFinite(index:)``
    ///   or ``SchedulingError/parameterOutOfRange(index:value:range:)``.
    public init(_ weights: [Double]) throws(SchedulingError) {
        var w = weights
        switch w.count {
        case 17:
            w[4] = w[5] * 2 + w[4]
            w[5] = log(w[5] * 3 + 1) / 3
            w[6] += 0.5
            w += [0, 0, 0, Self.fsrs5Decay]
        case 19:
            w += [0, Self.fsrs5Decay]
        case 21:
            break
        default:
            throw .parameterCount(weights.count)
        }
        for (i, v) in w.enumerated() {
            guard v.isFinite else { throw .parameterNotFinite(index: i) }
            guard Self.bounds[i].contains(v) else {
                throw .parameterOutOfRange(index: i, value: v, range: Self.bounds[i])
            }
        }
        values = w
        sourceCount = weights.count
    }

    /// Weight `w[i]`.
    @inlinable public subscript(_ i: Int) -> Double { values[i] }

    public var description: String { values.map { String($0) }.joined(separator: ", ") }
}
