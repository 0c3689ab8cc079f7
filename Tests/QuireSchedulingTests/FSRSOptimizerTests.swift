import Foundation
import Testing
import QuireModel
@testable import QuireScheduling

/// The optimizer against fsrs-rs-python's (`compute_parameters`, `evaluate_with_time_series_splits`)
/// on histories simulated from known parameters and on a real review log: its loss and gradient
/// agree with the evaluation, with forward mode and with finite differences; its pre-training
/// equals the reference's; its fitted parameters' log loss, in sample and across time, is no worse
/// than the reference's by more than 0.005.
@Suite struct FSRSOptimizerTests {
    /// Reviews of `cards` cards over a year, by parameters `w`: each review after the interval the
    /// card's stability gives at 90 % (± noise), recalled with the model's probability.
    static func simulated(cards: Int, w: [Double], seed: UInt64, firstRatings: [Double] = [0.3, 0.14, 0.5, 0.06]) -> [FSRSHistory.Row] {
        var state = seed
        func uniform() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let model = FSRSModel(w.map { Float($0) })
        var rows: [FSRSHistory.Row] = []
        let dayMs: Int64 = 86_400_000
        for card in 0..<cards {
            var day = Int(uniform() * 60)
            var draw = uniform(), first = 1
            while first < 4, draw >= firstRatings[first - 1] {
                draw -= firstRatings[first - 1]
                first += 1
            }
            var history = [FSRSReview(rating: first, deltaDays: 0)]
            rows.append(FSRSHistory.Row(card: card, time: Timestamp(milliseconds: Int64(day) * dayMs + 36_000_000), rating: first))
            while day < 365 {
                let s = model.state(after: history[...]).stability
                let interval = max(1, Int((Double(s) * (0.7 + 0.6 * uniform())).rounded()))
                day += interval
                let r = Double(model.retrievability(days: Float(interval), stability: s))
                let rating = uniform() < r ? (uniform() < 0.1 ? 2 : uniform() < 0.9 ? 3 : 4) : 1
                history.append(FSRSReview(rating: rating, deltaDays: interval))
                rows.append(FSRSHistory.Row(card: card, time: Timestamp(milliseconds: Int64(day) * dayMs + 36_000_000), rating: rating))
            }
        }
        return rows
    }

    static func dayOf(_ t: Timestamp) -> Int { Int(t.milliseconds / 86_400_000) }

    @Test func lossAndGradientAgreeWithTheEvaluation() throws {
        let rows = Self.simulated(cards: 60, w: FSRSParameters.fsrs6Defaults.values, seed: 3)
        let history = FSRSHistory(rows, day: Self.dayOf)
        let items = history.items
        let sequences = FSRSOptimizer.batches(history, history.predictions, size: .max).flatMap(\.sequences)
        let w = FSRSParameters.fsrs6Defaults.values.map { Float($0) }
        let (loss, gradient) = FSRSOptimizer.lossAndGradient(sequences, w: w)
        let evaluated = try FSRSEvaluation.evaluate(items, parameters: .fsrs6Defaults)
        #expect(abs(Double(loss) - evaluated.logLoss) < 1e-4, "\(loss) vs \(evaluated)")
        for k in [0, 3, 8, 10, 11, 14, 20] {
            var up = w, down = w
            up[k] += 1e-3
            down[k] -= 1e-3
            let numeric = (FSRSOptimizer.lossAndGradient(sequences, w: up).loss - FSRSOptimizer.lossAndGradient(sequences, w: down).loss) / 2e-3
            #expect(abs(numeric - gradient[k]) < 2e-3 + 0.05 * abs(numeric), "w\(k): \(numeric) vs \(gradient[k])")
        }
    }

    /// Cards with every kind of review (first answers 1–4, same-day steps, lapses, Hard and Easy,
    /// long and short intervals) under weights away from the defaults: the reverse-mode gradient
    /// equals forward mode's (an independent derivation, ``Dual``) lane by lane.
    @Test func reverseModeEqualsForwardMode() {
        var state: UInt64 = 5
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var sequences: [FSRSOptimizer.Sequence] = []
        for _ in 0..<200 {
            var reviews = [FSRSReview(rating: 1 + next(4), deltaDays: 0)]
            var predicted: [(index: Int, weight: Float)] = []
            for _ in 0..<(1 + next(12)) {
                let delta = next(3) == 0 ? 0 : [1, 2, 5, 20, 90, 400][next(6)]
                reviews.append(FSRSReview(rating: 1 + next(4), deltaDays: delta))
                if delta > 0 { predicted.append((reviews.count - 1, 0.25 + Float(next(100)) / 100)) }
            }
            sequences.append(FSRSOptimizer.Sequence(reviews: reviews, predicted: predicted))
        }
        for weights in [FSRSParameters.fsrs6Defaults.values, [0.5, 1.5, 4, 12, 6.0, 0.9, 2.5, 0.01, 1.2, 0.3, 1.1, 1.8, 0.2, 0.5, 1.4, 0.4, 2.2, 0.6, 0.3, 0.2, 0.25]] {
            let w = weights.map { Float($0) }
            let reverse = FSRSOptimizer.sums(sequences[...], w: w)
            let forward = forwardModeSums(sequences[...], w: w)
            #expect(abs(reverse.loss - forward.loss) <= 1e-3 * abs(forward.loss))
            #expect(reverse.weightSum == forward.weightSum)
            for k in 0..<21 {
                #expect(abs(reverse.gradient[k] - forward.gradient[k]) <= 1e-3 * max(1, abs(forward.gradient[k])),
                        "w\(k): reverse \(reverse.gradient[k]) forward \(forward.gradient[k])")
            }
        }
    }

    /// fsrs-rs-python's fit of `items`: its parameters, and with `validate` its time-series
    /// cross-validation.
    static func reference(_ items: [FSRSItem], epochs: Int = 5, validate: Bool = false) throws -> (parameters: FSRSParameters, validation: [String: Double]?) {
        let input: [String: Any] = ["items": items.map { $0.reviews.map { [$0.rating, $0.deltaDays] } }, "epochs": epochs, "validate": validate]
        let json = try #require(try oracle("fsrs_fit.py", input) as? [String: Any])
        return (try FSRSParameters(try #require(json["parameters"] as? [Double])), json["validation"] as? [String: Double])
    }

    /// Before any gradient step (0 epochs) the fit is the outlier filter, the initial stabilities
    /// fitted to the first answers and smoothed, and the other weights the defaults: equal to
    /// fsrs-rs's to 1e-3, on histories whose first answers leave some answer too rare to keep (so
    /// that its stability is filled from the others).
    @Test(arguments: [[0.3, 0.14, 0.5, 0.06], [0.25, 0.0, 0.75, 0.0], [0.0, 0.3, 0.4, 0.3], [0.01, 0.01, 0.97, 0.01]])
    func pretrainingEqualsFSRSRS(_ firstRatings: [Double]) throws {
        let rows = Self.simulated(cards: 500, w: FSRSParameters.fsrs6Defaults.values, seed: 21, firstRatings: firstRatings)
        let history = FSRSHistory(rows, day: Self.dayOf)
        let ours = try FSRSOptimizer.fit(history, epochs: 0)
        let theirs = try Self.reference(history.items, epochs: 0).parameters
        for k in 0..<21 {
            #expect(abs(ours.parameters[k] - theirs[k]) <= 1e-3 * max(1, abs(theirs[k])), "w\(k): \(ours.parameters[k]) vs \(theirs[k]) (\(firstRatings))")
        }
    }

    @Test func tooLittleHistoryIsRefused() {
        let rows = Self.simulated(cards: 3, w: FSRSParameters.fsrs6Defaults.values, seed: 2)
        #expect(throws: FSRSOptimizer.Failure.self) { try FSRSOptimizer.fit(FSRSHistory(rows, day: Self.dayOf)) }
    }

    @Test func fitsAsWellAsFSRSRS() throws {
        var truth = FSRSParameters.fsrs6Defaults.values
        truth[0] = 0.5; truth[2] = 4; truth[8] = 1.5; truth[9] = 0.2; truth[20] = 0.3
        let rows = Self.simulated(cards: 600, w: truth, seed: 11)
        let history = FSRSHistory(rows, day: Self.dayOf)
        let items = history.items
        let fitted = try FSRSOptimizer.fit(history)
        #expect(try FSRSOptimizer.fit(history).parameters == fitted.parameters)
        let (reference, validation) = try Self.reference(items, validate: true)
        let ours = try FSRSEvaluation.evaluate(items, parameters: fitted.parameters)
        let theirs = try FSRSEvaluation.evaluate(items, parameters: reference)
        let defaults = try FSRSEvaluation.evaluate(items, parameters: .fsrs6Defaults)
        print("optimizer: defaults \(defaults.logLoss), fsrs-rs \(theirs.logLoss) / \(theirs.rmseBins), quire \(ours.logLoss) / \(ours.rmseBins)")
        #expect(ours.logLoss <= theirs.logLoss + 0.005, "\(ours) vs \(theirs)")
        #expect(ours.logLoss < defaults.logLoss)
        let crossed = try FSRSOptimizer.crossValidate(history, current: .fsrs6Defaults)
        let theirCrossed = try #require(validation)
        print("time-series: fsrs-rs \(theirCrossed), quire \(crossed.fitted), defaults \(crossed.current)")
        #expect(crossed.tested == items.count - items.count / 6)
        #expect(crossed.fitted.logLoss <= (theirCrossed["log_loss"] ?? 0) + 0.005)
        #expect(abs(crossed.fitted.rmseBins - (theirCrossed["rmse_bins"] ?? 0)) < 0.02)
    }

    /// A real review log nobody here made (py-fsrs's test data, MIT licence; Fixtures/README.md):
    /// Quire's fit and its time-series cross-validation against fsrs-rs-python's on the same items.
    @Test func fitsARealLogAsWellAsFSRSRS() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/review_logs_josh.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [FSRSHistory.Row] = []
        let iso = ISO8601DateFormatter(), fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count >= 3, let card = Int(fields[0]), let rating = Int(fields[1]), let date = fractional.date(from: String(fields[2])) ?? iso.date(from: String(fields[2])) else { continue }
            rows.append(FSRSHistory.Row(card: card, time: Timestamp(milliseconds: Int64(date.timeIntervalSince1970 * 1000)), rating: rating))
        }
        #expect(rows.count == 12_580)
        // Study days from 4 am UTC.
        let history = FSRSHistory(rows) { Int(($0.milliseconds - 4 * 3_600_000) / 86_400_000) }
        let items = history.items
        #expect(items.count == 6_276)
        let fitted = try FSRSOptimizer.fit(history)
        let (reference, validation) = try Self.reference(items, validate: true)
        let ours = try FSRSEvaluation.evaluate(items, parameters: fitted.parameters)
        let theirs = try FSRSEvaluation.evaluate(items, parameters: reference)
        print("real log: fsrs-rs \(theirs), quire \(ours)")
        #expect(ours.logLoss <= theirs.logLoss + 0.005, "\(ours) vs \(theirs)")
        let crossed = try FSRSOptimizer.crossValidate(history, current: .fsrs6Defaults)
        print("real log, time-series: fsrs-rs \(validation ?? [:]), quire \(crossed.fitted)")
        #expect(crossed.fitted.logLoss <= (validation?["log_loss"] ?? 0) + 0.005)
    }
}
