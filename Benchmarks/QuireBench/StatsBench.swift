#if canImport(Glibc)
import Glibc
#endif
import QuireIndex
import QuireModel
import QuireReview
import QuireSystem

/// `quire stats` and `quire report` on a long history (`QuireBench --stats`): a generated vault of
/// about 20,000 cards and a log of `reviews` grades over them (two years, fifty per card), against
/// reading the log's bytes (`cat`) and loading the index (`quire list --count`) in the same
/// rounds. Each round runs every command once, in turn; the figures are medians over the rounds.
enum StatsBench {
    static func run(vaultsDir: String, files: Int, reviews: Int, runs: Int) throws {
        let quire = try SuiteBench.quireBinary()
        let source = vaultsDir + "/n\(files)"
        try QuireBench.ensureVault(source, files: files)
        let work = vaultsDir + "/stats-n\(files)-r\(reviews)"
        if FileIO().stamp(work + "/.quire/log/bench000.log") == nil {
            try QuireBench.initializedCopy(of: source, at: work, quire: quire)
            try writeLog(vault: work, reviews: reviews)
        }
        let log = work + "/.quire/log/bench000.log"
        let logBytes = (try? FileIO().read(log).bytes) ?? []
        let bytes = logBytes.count
        let grades = logBytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1
        print("Quire statistics benchmark — \(System.describe())")
        print("vault \(work): \(files) files; log \(bytes / 1_048_576) MB, \(grades) grades; release build; median of \(runs) rounds\n")
        let commands: [(String, [String])] = [
            ("read the log's bytes (cat > /dev/null)", ["sh", "-c", "cat '\(log)' > /dev/null"]),
            ("quire list --count (index from its cache)", [quire, "-C", work, "list", "--count"]),
            ("quire stats", [quire, "-C", work, "stats"]),
            ("quire stats --json", [quire, "-C", work, "stats", "--json"]),
            ("quire report --out FILE", [quire, "-C", work, "report", "--out", "/tmp/quire-bench-report.html"]),
        ]
        _ = try Child.run(commands[1].1)  // the index cache, written once
        var times = Array(repeating: [Double](), count: commands.count)
        var peaks = Array(repeating: 0, count: commands.count)
        for _ in 0..<max(1, runs) {
            for (i, c) in commands.enumerated() {
                let t = try Child.run(c.1).timing
                times[i].append(t.seconds)
                peaks[i] = max(peaks[i], t.peakKB)
            }
        }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        print("  " + QuireBench.pad("command", 44) + QuireBench.pad("median", 11) + QuireBench.pad("peak RSS", 11) + "÷ read log · ÷ list --count")
        for (i, c) in commands.enumerated() {
            print("  " + QuireBench.pad(c.0, 44) + QuireBench.pad(String(format3: medians[i]) + " s", 11)
                  + QuireBench.pad("\(peaks[i] / 1024) MB", 11)
                  + String(format2: medians[i] / medians[0]) + "× · " + String(format2: medians[i] / medians[1]) + "×")
        }
    }

    /// Fifty grades a card (fewer when `reviews` asks), every card's n-th review in one round,
    /// rounds two weeks apart from 2024-11-25, as one device's log: 10 % Again, 5 % Hard, 75 %
    /// Good, 10 % Easy, with `id=`, `sched=`, `ms=` and `path=` as `quire grade` writes them.
    static func writeLog(vault: String, reviews: Int) throws {
        let index = VaultIndex.build(root: vault)
        var cards: [(id: String, path: String)] = []
        for note in index.notes {
            let path = ReviewLog.percentEncode(note.path)
            for card in note.cards { cards.append((card.id.rawValue, path)) }
        }
        guard !cards.isEmpty else { throw BenchError("no cards in \(vault)") }
        let rounds = max(1, (reviews + cards.count - 1) / cards.count)
        print("writing a log of \(rounds * cards.count) grades over \(cards.count) cards …")
        guard let f = fopen(vault + "/.quire/log/bench000.log", "w") else { throw BenchError("cannot write the log") }
        defer { fclose(f) }
        fputs("# quire log v1\n", f)
        let start = Timestamp(iso8601: "2024-11-25T08:00:00Z")?.milliseconds ?? 0
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let digits = Array("0123456789abcdefghjkmnpqrstvwxyz")
        for round in 0..<rounds {
            for (i, card) in cards.enumerated() {
                let time = Timestamp(milliseconds: start + Int64(round) * 14 * 86_400_000 + Int64(i) * 20_000)
                let r = next() % 100
                let rating = r < 10 ? "again" : r < 15 ? "hard" : r < 90 ? "good" : "easy"
                let id = String((0..<10).map { _ in digits[Int(next() % 32)] })
                let line = "\(time.iso8601(milliseconds: true)) grade \(card.id) \(rating) id=\(id) sched=fsrs ms=\(2000 + next() % 12000) path=\(card.path)\n"
                fputs(line, f)
            }
        }
    }
}
