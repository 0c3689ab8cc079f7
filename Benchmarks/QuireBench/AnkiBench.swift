#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

/// `quire import anki` on a large package (`QuireBench --anki CARDS,REVIEWS`): a package made by
/// Anki's own library (Benchmarks/baselines/anki_package.py: Basic notes over twenty decks, a
/// review log written into the collection), imported into an empty vault, against Anki's own
/// import of the same file into an empty collection (anki_import.py) in the same rounds. Each
/// round runs both once, each on a fresh target; the figures are medians over the rounds.
enum AnkiBench {
    static func run(vaultsDir: String, cards: Int, reviews: Int, runs: Int) throws {
        let quire = try SuiteBench.quireBinary()
        let package = vaultsDir + "/anki-\(cards)-\(reviews).apkg"
        if FileIO().stamp(package) == nil {
            print("making a package of \(cards) cards and \(reviews) reviews with Anki's library …")
            guard system("mkdir -p '\(vaultsDir)' && python3 Benchmarks/baselines/anki_package.py '\(package)' \(cards) \(reviews) > /dev/null") == 0 else {
                throw BenchError("cannot make the package (is the anki package installed? QUIRE_TEST_DEPS=1 scripts/install-deps.sh)")
            }
        }
        let size = FileIO().stamp(package)?.size ?? 0
        let vault = vaultsDir + "/anki-import-vault"
        print("Quire Anki import benchmark — \(System.describe())")
        print("package \(package): \(cards) cards, \(reviews) reviews, \(size / 1_048_576) MB; release build; median of \(runs) rounds\n")
        var anki: [Double] = [], ours: [Double] = []
        var peaks = (anki: 0, ours: 0)
        for _ in 0..<max(1, runs) {
            let a = try Child.run(["python3", "Benchmarks/baselines/anki_import.py", package]).timing
            anki.append(a.seconds)
            peaks.anki = max(peaks.anki, a.peakKB)
            guard system("rm -rf '\(vault)' && mkdir -p '\(vault)' && '\(quire)' init '\(vault)' > /dev/null") == 0 else {
                throw BenchError("cannot make \(vault)")
            }
            let q = try Child.run([quire, "-C", vault, "import", "anki", package]).timing
            ours.append(q.seconds)
            peaks.ours = max(peaks.ours, q.peakKB)
        }
        let a = anki.sorted()[anki.count / 2], q = ours.sorted()[ours.count / 2]
        print("  " + QuireBench.pad("command", 44) + QuireBench.pad("median", 11) + QuireBench.pad("peak RSS", 11) + "÷ Anki's import")
        print("  " + QuireBench.pad("Anki's import (anki library, fresh collection)", 44) + QuireBench.pad(String(format3: a) + " s", 11)
              + QuireBench.pad("\(peaks.anki / 1024) MB", 11) + "1.00×")
        print("  " + QuireBench.pad("quire import anki (empty vault)", 44) + QuireBench.pad(String(format3: q) + " s", 11)
              + QuireBench.pad("\(peaks.ours / 1024) MB", 11) + String(format2: q / a) + "×")
    }
}
