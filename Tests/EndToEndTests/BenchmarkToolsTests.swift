import Foundation
import Testing
import QuireTestSupport

/// The benchmarks' own tools, in the repository: the vault generator gives the same vault twice,
/// and the C reference indexer builds and reads it, finding the cards the generator wrote.
@Suite(.requires(.gcc)) struct BenchmarkToolsTests {
    static func run(_ arguments: [String]) throws -> QuireRunner.Result {
        try QuireRunner.execute(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: QuireRunner.repositoryRoot)
    }

    @Test func theGeneratorIsDeterministicAndTheReferenceIndexerReadsItsVault() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        var stats: [String] = []
        for copy in ["a", "b"] {
            let made = try Self.run(["python3", "Benchmarks/genvault.py", base.appendingPathComponent(copy).path, "-n", "300", "--stats"])
            #expect(made.status == 0, "\(made.stderr)")
            stats.append(made.stdout)
        }
        #expect(stats[0] == stats[1] && stats[0].hasPrefix("files=300 "), "\(stats)")
        let same = try Self.run(["diff", "-r", base.appendingPathComponent("a").path, base.appendingPathComponent("b").path])
        #expect(same.status == 0 && same.stdout.isEmpty)
        let cards = try #require(stats[0].split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("cards=") }).dropFirst(6)

        let binary = base.appendingPathComponent("parsebench").path
        let built = try Self.run(["sh", "-c", "gcc -O2 -Wall -Wextra -Werror -o '\(binary)' Benchmarks/parsebench.c "
                                  + "$(pkg-config --cflags --libs libcmark-gfm yaml-0.1) -lcmark-gfm-extensions"])
        #expect(built.status == 0, "\(built.stderr)")
        let read = try QuireRunner.execute(URL(fileURLWithPath: binary), ["both", base.appendingPathComponent("a").path])
        #expect(read.status == 0)
        #expect(read.stderr.contains("files=300 ") && read.stderr.contains(" cards=\(cards) ") && read.stderr.contains(" due=150 "),
                "\(read.stderr)")
        // The vault as Quire reads it, with no problem; more cards than the generator's count,
        // which takes a cloze for one card (Quire makes one per deletion number).
        let q = try QuireRunner.execute(QuireRunner.executable, ["check", "-C", base.appendingPathComponent("a").path])
        #expect(q.status == 0 && (q.stdout + q.stderr).contains("checked 300 notes") && (q.stdout + q.stderr).contains("0 errors, 0 warnings"), "\(q)")
    }
}
