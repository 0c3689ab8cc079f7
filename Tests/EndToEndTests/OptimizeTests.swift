import Foundation
import Testing
import QuireTestSupport

/// `quire optimize --evaluate` on SampleVault's review log and on the same log exported as CSV:
/// its figures equal fsrs-rs-python's `evaluate` on the same items (built by the script from the
/// CSV by the same rules: study days with the 4 am rollover in local time, one item per review on
/// a later day, oldest first) to 1e-3; `quire optimize` fitting the parameters, deterministically,
/// no worse than fsrs-rs-python's `compute_parameters` by 0.005; `--write` storing them for the
/// vault or a deck, and `quire stats` saying so.
@Suite(.requires(.anki, .fsrsRS), .tags(.slow)) struct OptimizeTests {
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
        items = [i for _, _, i in items]
        e = f.FSRS(f.DEFAULT_PARAMETERS).evaluate(items)
        fitted = f.FSRS(f.DEFAULT_PARAMETERS).compute_parameters(items)
        mine = f.FSRS([float(x) for x in sys.argv[2].split(",")]).evaluate(items) if len(sys.argv) > 2 else e
        print(json.dumps({"items": len(items), "log_loss": e.log_loss, "rmse_bins": e.rmse_bins,
                          "fitted_log_loss": f.FSRS(fitted).evaluate(items).log_loss, "quire_log_loss": mine.log_loss}))
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
            return Double(fromFile.stdout[r.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." })
        }
        #expect(fromFile.stdout.contains("\(Int(reference["items"] ?? 0)) predictions"), "\(fromFile.stdout) \(reference)")
        #expect(abs((figure("current (defaults)") ?? 9) - (reference["log_loss"] ?? 0)) < 1e-3, "\(fromFile.stdout) \(reference)")
        let rmse = fromFile.stdout.components(separatedBy: "current (defaults)").last?.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        #expect(abs((rmse ?? 9) - (reference["rmse_bins"] ?? 0)) < 1e-3, "\(fromFile.stdout) \(reference)")
        // Fitted: a lower log loss, and the line for the configuration, within FSRS-6's bounds.
        let fit = try q.run(["optimize"])
        #expect(fit.status == 0 && fit.stdout.contains("\nfitted  ") && fit.stdout.contains("fsrs_parameters: ["), "\(fit)")
        #expect(fit.stdout.contains("time-series cross-validation"), "\(fit)")
        func number(after name: String, in text: String) -> Double? {
            guard let r = text.range(of: name) else { return nil }
            return Double(text[r.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." })
        }
        #expect((number(after: "\nfitted", in: fit.stdout) ?? 9) < (figure("current (defaults)") ?? 0), "\(fit)")
        let line = fit.stdout.split(separator: "\n").first { $0.hasPrefix("fsrs_parameters: [") }.map(String.init) ?? ""
        let fitted = line.dropFirst(19).dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(fitted.count == 21, "\(line)")
        // No worse than the reference optimizer on the same items.
        let compared = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                               ["python3", "-c", Self.reference, csv.path, fitted.map { String($0) }.joined(separator: ",")])
        let figures = try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [String: Double] ?? [:]
        #expect((figures["quire_log_loss"] ?? 9) <= (figures["fitted_log_loss"] ?? 0) + 0.005, "\(figures)")
        // The same history, the same parameters.
        #expect(try q.run(["optimize"]).stdout == fit.stdout)
        // Stored for the vault: the configuration keeps its bytes, stats and a new evaluation say so.
        let config = q.vault.appendingPathComponent(".quire/config.yaml")
        let before = try String(contentsOf: config, encoding: .utf8)
        let stored = try q.run(["optimize", "--write", "--no-validation"])
        #expect(stored.status == 0 && stored.stdout.contains("written to .quire/config.yaml"), "\(stored)")
        let after = try String(contentsOf: config, encoding: .utf8)
        #expect(after.hasPrefix(before) && after.contains("\nfsrs_parameters: [" + fitted.map { Self.written($0) }.joined(separator: ", ") + "]\nfsrs_optimized: "), "\(after)")
        let stats = try q.run(["stats"])
        #expect(stats.stdout.contains("FSRS parameters: optimized 20") && stats.stdout.contains("with the defaults:"), "\(stats.stdout)")
        let evaluated = try q.run(["optimize", "--evaluate"])
        #expect(evaluated.stdout.contains("current (fitted 20") && evaluated.stdout.contains("\nFSRS-6 defaults "), "\(evaluated)")
        #expect(fromVault.stdout.contains("(no fitted parameters: `quire optimize` fits them"), "\(fromVault)")
        // For a deck: its own parameters, under decks:, and the vault's unchanged.
        let deck = try q.run(["optimize", "--write", "--deck", "Chemistry", "--no-validation"])
        #expect(deck.stdout.contains("written to .quire/config.yaml for deck Chemistry"), "\(deck)")
        let withDeck = try String(contentsOf: config, encoding: .utf8)
        #expect(withDeck.contains("  Chemistry: {fsrs_parameters: [") && withDeck.hasPrefix(after.components(separatedBy: "decks:")[0]), "\(withDeck)")
        #expect(try q.run(["check"]).status == 0)
        // Too little history: refused, nothing written.
        let few = try q.run(["optimize", "--write", "--deck", "History"])
        #expect(few.status != 0 && few.stderr.contains("too little history to fit"), "\(few)")
        #expect(try String(contentsOf: config, encoding: .utf8) == withDeck)
        // A log with bad rows: each located, the rest read.
        try Data("card_id,review_time,review_rating\n1,1700000000000,3\nx,1700000000000,3\n1,1700200000000,9\n1,2023-11-20T10:00:00Z,3\n".utf8).write(to: csv)
        let bad = try q.run(["optimize", "--evaluate", "--revlog", csv.path])
        #expect(bad.stderr.contains("revlog.csv:3:1: error: card_id 'x' is not a whole number") && bad.stderr.contains(":4:1: error: review_rating '9' is not 1 to 4"),
                "\(bad)")
        #expect(bad.stdout.contains("2 reviews of 1 card: 1 prediction"), "\(bad)")
    }

    /// A weight as `--write` writes it: four decimals, trailing zeros dropped.
    static func written(_ x: Double) -> String {
        var text = String(format: "%.4f", x)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The history `import anki` brings in is the optimizer's: a package whose 14 cards carry the
    /// answers of 14 cards of a real log (Josh's, MIT; 5 to 50 reviews each) is imported, and
    /// `quire optimize --evaluate` gives the figures fsrs-rs-python's `evaluate` gives on items
    /// built straight from the package's revlog table.
    @Test func anImportedAnkiHistoryIsTheOptimizers() throws {
        let q = try QuireRunner()
        defer { q.cleanUp() }
        let (vault, packages) = try AnkiImportEndToEndTests.setUp(q)
        let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("QuireSchedulingTests/Fixtures/review_logs_josh.csv")
        let script = """
            import csv, json, sqlite3, sys, time, zipfile
            from datetime import datetime
            import fsrs_rs_python as f
            src, out, log = sys.argv[1], sys.argv[2], sys.argv[3]
            z = zipfile.ZipFile(src)
            db = out + '.db'
            open(db, 'wb').write(z.read('collection.anki21'))
            c = sqlite3.connect(db)
            cards = [r[0] for r in c.execute('select id from cards order by id')]
            rows = {}
            for r in csv.DictReader(open(log)):
                t = int(datetime.fromisoformat(r['review_time']).timestamp() * 1000)
                rows.setdefault(r['card_id'], []).append((t, int(r['review_rating'])))
            chosen = sorted((k for k, v in rows.items() if 5 <= len(v) <= 50), key=lambda k: (-len(rows[k]), k))[:len(cards)]
            c.execute('delete from revlog')
            for cid, key in zip(cards, chosen):
                for n, (t, rating) in enumerate(sorted(rows[key])):
                    c.execute('insert into revlog values (?, ?, 0, ?, 1, 0, 2500, 6000, ?)', (t, cid, rating, 0 if n == 0 else 1))
            c.commit()
            def day(ms):
                s = ms // 1000
                return (s + time.localtime(s).tm_gmtoff - 4 * 3600) // 86400
            items = []
            for cid in cards:
                history, last = [], None
                for t, ease in c.execute('select id, ease from revlog where cid = ? order by id', (cid,)):
                    d = day(t)
                    delta = 0 if last is None else max(0, d - last)
                    history.append(f.FSRSReview(ease, delta))
                    last = d
                    if len(history) >= 2 and delta > 0:
                        items.append((t, cid, f.FSRSItem(list(history))))
            items.sort(key=lambda x: (x[0], x[1]))
            e = f.FSRS(f.DEFAULT_PARAMETERS).evaluate([i for _, _, i in items])
            c.close()
            with zipfile.ZipFile(out, 'w') as w:
                w.writestr('collection.anki21', open(db, 'rb').read())
                for name in z.namelist():
                    if name != 'collection.anki21': w.writestr(name, z.read(name))
            print(json.dumps({"items": len(items), "log_loss": e.log_loss, "rmse_bins": e.rmse_bins}))
            """
        let package = packages.appendingPathComponent("history.apkg").path
        let made = try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["python3", "-c", script, packages.appendingPathComponent("legacy.apkg").path, package, log.path])
        #expect(made.status == 0, "\(made.stderr)")
        let reference = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Double] ?? [:]
        #expect((reference["items"] ?? 0) > 150, "\(reference)")
        let imported = try q.run(["import", "anki", package], workingDirectory: vault)
        #expect(imported.status == 0, "\(imported)")
        let evaluated = try q.run(["optimize", "--evaluate"], workingDirectory: vault)
        #expect(evaluated.status == 0, "\(evaluated)")
        #expect(evaluated.stdout.contains(": \(Int(reference["items"] ?? 0)) predictions"), "\(evaluated.stdout) \(reference)")
        let row = evaluated.stdout.split(separator: "\n").first { $0.hasPrefix("current (defaults)") }?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(row.count == 3 && abs(row[0] - (reference["log_loss"] ?? 0)) < 1e-3 && abs(row[1] - (reference["rmse_bins"] ?? 0)) < 1e-3,
                "\(evaluated.stdout) \(reference)")
    }
}
