import Foundation
import Testing

/// `quire optimize --evaluate` on SampleVault's review log and on the same log exported as CSV:
/// its figures equal fsrs-rs-python's `evaluate` on the same items (built by the script from the
/// CSV by the same rules: study days with the 4 am rollover in local time, one item per review on
/// a later day, oldest first) to 1e-3; and `quire optimize` fitting the parameters, deterministically.
@Suite struct OptimizeTests {
    static let reference = """
        import csv, json, sys, time
        import fsrs_rs_python as f
        rows = list(csv.DictReader(open(sys.argv[1])))
        def day(ms):
            t = int(ms) // 1000
            return (t + time.localtime(t).tm_gmtoff - 4 * 3600) // 86400
        cards = {}
        for r in rows:
            cards.setdefault(int(r["card_id"]), []).append((int(r["review_time"]), int(r["review_rating"])))
        items = []
        for card, reviews in cards.items():
            reviews.sort()
            history, last = [], None
            for t, rating in reviews:
                d = day(t)
                delta = 0 if last is None else max(0, d - last)
                history.append(f.FSRSReview(rating, delta))
                last = d
                if len(history) >= 2 and delta > 0:
                    items.append((t, card, f.FSRSItem(list(history))))
        items.sort(key=lambda x: (x[0], x[1]))
        e = f.FSRS(f.DEFAULT_PARAMETERS).evaluate([i for _, _, i in items])
        print(json.dumps({"items": len(items), "log_loss": e.log_loss, "rmse_bins": e.rmse_bins}))
        """

    @Test func evaluationAgreesWithFSRSRS() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let csv = q.vault.deletingLastPathComponent().appendingPathComponent("revlog.csv")
        #expect(try q.run(["export", "revlog", csv.path]).status == 0)
        let fromVault = try q.run(["optimize", "--evaluate"])
        let fromFile = try q.run(["optimize", "--evaluate", "--revlog", csv.path])
        #expect(fromVault.status == 0 && fromVault.stdout == fromFile.stdout, "\(fromVault)\n\(fromFile)")
        let out = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.reference, csv.path])
        let reference = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Double] ?? [:]
        func figure(_ name: String) -> Double? {
            guard let r = fromFile.stdout.range(of: name + " ") else { return nil }
            return Double(fromFile.stdout[r.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        #expect(fromFile.stdout.contains("\(Int(reference["items"] ?? 0)) predictions"), "\(fromFile.stdout) \(reference)")
        #expect(abs((figure("log loss") ?? 9) - (reference["log_loss"] ?? 0)) < 1e-3, "\(fromFile.stdout) \(reference)")
        #expect(abs((figure("RMSE(bins)") ?? 9) - (reference["rmse_bins"] ?? 0)) < 1e-3, "\(fromFile.stdout) \(reference)")
        // Fitted: a lower log loss, and the line for the configuration, within FSRS-6's bounds.
        let fit = try q.run(["optimize"])
        #expect(fit.status == 0 && fit.stdout.contains("fitted: log loss ") && fit.stdout.contains("fsrs_parameters: ["), "\(fit)")
        func number(after name: String, in text: String) -> Double? {
            guard let r = text.range(of: name) else { return nil }
            return Double(text[r.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        #expect((number(after: "fitted: log loss ", in: fit.stdout) ?? 9) < (figure("log loss") ?? 0), "\(fit)")
        let line = fit.stdout.split(separator: "\n").first { $0.hasPrefix("fsrs_parameters: [") }.map(String.init) ?? ""
        let fitted = line.dropFirst(19).dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(fitted.count == 21, "\(line)")
        // The same history, the same parameters.
        #expect(try q.run(["optimize"]).stdout == fit.stdout)
        // A log with bad rows: each located, the rest read.
        try Data("card_id,review_time,review_rating\n1,1700000000000,3\nx,1700000000000,3\n1,1700200000000,9\n1,2023-11-20T10:00:00Z,3\n".utf8).write(to: csv)
        let bad = try q.run(["optimize", "--evaluate", "--revlog", csv.path])
        #expect(bad.stderr.contains("revlog.csv:3:1: error: card_id 'x' is not a whole number") && bad.stderr.contains(":4:1: error: review_rating '9' is not 1 to 4"),
                "\(bad)")
        #expect(bad.stdout.contains("2 reviews of 1 card: 1 prediction"), "\(bad)")
    }
}
