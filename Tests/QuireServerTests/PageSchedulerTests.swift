import Foundation
import Testing
import QuireModel
import QuireScheduling
import QuireSupport
@testable import QuireServer
@testable import QuireTestSupport

/// The schedulers in JavaScript (what an offline study pack runs) against the Swift ones, in a
/// real JavaScript engine (node): every button's outcome at every review of the FSRS oracle's
/// 1,000 sequences — as py-fsrs computes them (fuzz off) and with Quire's defaults (fuzz and
/// Anki's interval ordering on) — and of random SM-2 and StudyFlow sequences: the same state,
/// step, interval, due time and counts, stability and difficulty within 1e-9.
@Suite(.requires(.node, .pyFSRS, .fsrsRS)) struct PageSchedulerTests {
    /// One sequence of answers for one card under one set of settings.
    struct Run {
        var settings: SchedulerSettings
        var card: CardID
        var reviews: [(at: Int64, rating: Rating)]
        /// The card's state before the first answer (nil: new).
        var initial: SchedulingState? = nil
    }

    /// The settings as the script reads them.
    static func json(_ s: SchedulerSettings) -> [String: Any] {
        ["kind": s.kind.rawValue, "buttons": s.buttons, "desiredRetention": s.desiredRetention, "learningSteps": s.learningSteps,
         "relearningSteps": s.relearningSteps, "maximumInterval": s.maximumInterval, "fuzz": s.fuzz,
         "parameters": s.parameters.values, "intervalOrdering": s.intervalOrdering]
    }

    /// A state as the script writes it, from Swift's.
    static func json(_ s: SchedulingState) -> [String: Any] {
        func or(_ value: Any?) -> Any { value ?? NSNull() }
        return ["state": s.state.rawValue, "step": or(s.step), "due": or(s.due?.milliseconds), "last": or(s.lastReview?.milliseconds),
                "stability": or(s.stability), "difficulty": or(s.difficulty), "ease": or(s.ease), "interval": or(s.interval),
                "reps": s.reps, "lapses": s.lapses, "flow": or(s.flow?.rawValue), "streak": or(s.streak), "attempts": or(s.attempts)]
    }

    /// Every button's outcome at every review, by Swift: [run][review][button].
    static func swiftOutcomes(_ runs: [Run]) -> [[[SchedulingState]]] {
        runs.map { run in
            let scheduler = run.settings.makeScheduler()
            var state = run.initial
            return run.reviews.map { review in
                let at = Timestamp(milliseconds: review.at)
                let preview = scheduler.preview(state, at: at, card: run.card)
                state = scheduler.next(state, rating: review.rating, at: at, card: run.card)
                return run.settings.ratings.compactMap { preview[$0] }
            }
        }
    }

    /// The same by the script in node: [run][review][button] as JSON objects.
    static func scriptOutcomes(_ runs: [Run]) throws -> [[[[String: Any]]]] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-js-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input: [[String: Any]] = runs.map { run in
            ["settings": json(run.settings), "card": run.card.rawValue, "initial": run.initial.map { json($0) as Any } ?? NSNull(),
             "reviews": run.reviews.map { ["at": $0.at, "rating": $0.rating.rawValue] }]
        }
        try JSONSerialization.data(withJSONObject: input).write(to: dir.appendingPathComponent("runs.json"))
        try Data(PageAssets.scheduler.utf8).write(to: dir.appendingPathComponent("scheduler.js"))
        let driver = """
            const S = require(process.argv[2]);
            const runs = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
            const out = runs.map(run => {
              let state = run.initial;
              return run.reviews.map(review => {
                const preview = S.preview(run.settings, state, review.at, run.card);
                state = S.next(run.settings, state, review.rating, review.at, run.card);
                return S.ratings(run.settings).map(r => preview[r]);
              });
            });
            process.stdout.write(JSON.stringify(out));
            """
        try Data(driver.utf8).write(to: dir.appendingPathComponent("driver.js"))
        let output = try runProgram(["node", dir.appendingPathComponent("driver.js").path,
                                     dir.appendingPathComponent("scheduler.js").path, dir.appendingPathComponent("runs.json").path])
        guard let decoded = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[[[String: Any]]]] else {
            throw TestFailure("node's output is not the outcomes")
        }
        return decoded
    }

    /// Compares the two: the number of outcomes, and the first differences.
    static func compare(_ runs: [Run]) throws -> (outcomes: Int, worst: Double, differences: [String]) {
        let swift = swiftOutcomes(runs), script = try scriptOutcomes(runs)
        var outcomes = 0, worst = 0.0, differences: [String] = []
        for (r, run) in swift.enumerated() {
            for (k, review) in run.enumerated() {
                for (b, expected) in review.enumerated() {
                    outcomes += 1
                    let got = script[r][k][b], want = json(expected)
                    for key in want.keys.sorted() {
                        let a = want[key], g = got[key]
                        if key == "stability" || key == "difficulty", let x = a as? Double, let y = g as? Double {
                            let d = abs(x - y) / max(abs(x), 1e-12)
                            worst = max(worst, d)
                            if d <= 1e-9 { continue }
                        } else if "\(a ?? NSNull())" == "\(g ?? NSNull())" || (a as? NSNumber)?.doubleValue == (g as? NSNumber)?.doubleValue,
                                  (a is NSNull) == (g is NSNull || g == nil) {
                            continue
                        }
                        if differences.count < 10 { differences.append("run \(r) review \(k) button \(b) \(key): Swift \(a ?? "nil"), script \(g ?? "nil")") }
                    }
                }
            }
        }
        return (outcomes, worst, differences)
    }

    @Test func fsrsAgreesOnTheOraclesSequences() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("QuireSchedulingTests/Oracle/fsrs_oracle.py")
        let oracle = try runProgram(["python3", script.path, "20261122", "1000"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(oracle.utf8)) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        #expect(cases.count == 1_000)
        var runs: [Run] = []
        for (n, c) in cases.enumerated() {
            let reviews = try #require(c["reviews"] as? [[String: Any]]).compactMap { r -> (at: Int64, rating: Rating)? in
                guard let at = (r["at"] as? NSNumber)?.int64Value, let rating = (r["rating"] as? Int).flatMap(Rating.init) else { return nil }
                return (at, rating)
            }
            for quireDefaults in [false, true] {
                let settings = try SchedulerSettings(desiredRetention: try #require(c["desiredRetention"] as? Double),
                                                     learningSteps: try #require(c["learningSteps"] as? [Int]),
                                                     relearningSteps: try #require(c["relearningSteps"] as? [Int]),
                                                     maximumInterval: try #require(c["maximumInterval"] as? Int), fuzz: quireDefaults,
                                                     parameters: try #require(c["parameters"] as? [Double]), intervalOrdering: quireDefaults)
                runs.append(Run(settings: settings, card: try #require(CardID("oracle\(n)")), reviews: reviews))
            }
        }
        let (outcomes, worst, differences) = try Self.compare(runs)
        print("JavaScript FSRS: \(outcomes) outcomes (the oracle's sequences, fuzz off and on), worst relative ΔS/ΔD \(worst)")
        #expect(outcomes == 2 * 43_620)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// Random answers at random gaps (minutes to months), seeded: SM-2, StudyFlow and FSRS with
    /// three and four buttons and three maximum intervals; StudyFlow cards starting in every
    /// flow, FSRS cards that SM-2 scheduled before (their memory derived from ease and interval).
    @Test func everySchedulerAgreesOnRandomSequences() throws {
        var generator = SplitMix64(seed: 61)
        var runs: [Run] = []
        for n in 0..<400 {
            let kind: SchedulerSettings.Kind = [.sm2, .flow, .fsrs][n % 3]
            let settings = try SchedulerSettings(kind: kind, maximumInterval: [36_500, 180, 30][(n / 3) % 3], buttons: n % 4 < 2 ? 4 : 3)
            var at: Int64 = 1_767_225_600_000 + Int64(n) * 3_600_000
            var reviews: [(at: Int64, rating: Rating)] = []
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                at += [60_000, 600_000, 86_400_000, 3 * 86_400_000, 40 * 86_400_000][Int.random(in: 0...4, using: &generator)]
                    + Int64.random(in: 0...7_200_000, using: &generator)
                reviews.append((at, settings.ratings.randomElement(using: &generator) ?? .good))
            }
            // StudyFlow cards start in each flow (a flow changes only by hand).
            var initial: SchedulingState?
            if kind == .fsrs, n % 2 == 0 {
                // A card SM-2 scheduled: FSRS derives its memory from the ease and interval.
                var state = SchedulingState()
                state.state = .review
                state.ease = 1.3 + Double(n % 17) / 10
                state.interval = 1 + n % 60
                state.lastReview = Timestamp(milliseconds: at - Int64(n % 60) * 86_400_000)
                state.reps = 3
                initial = state
            }
            if kind == .flow, n % 8 != 1 {
                var state = SchedulingState()
                state.flow = [FlowState.learning, .reviewing, .mastered, .inactive][(n / 2) % 4]
                state.attempts = n % 5
                initial = state
            }
            runs.append(Run(settings: settings, card: try #require(CardID("card\(n)")), reviews: reviews, initial: initial))
        }
        let (outcomes, _, differences) = try Self.compare(runs)
        #expect(outcomes > 10_000)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
}
