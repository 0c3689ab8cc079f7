import Foundation
import Testing
import QuireTestSupport

/// The fuzz targets' seed corpus (Fuzz/corpus/TARGET/), replayed through the plain build of
/// QuireFuzz on every test run: each parser takes every seed without crashing. scripts/fuzz.sh
/// runs the same targets under libFuzzer and AddressSanitizer.
@Suite(.tags(.slow)) struct FuzzCorpusTests {
    static let targets = ["frontmatter", "frontmatter-diff", "note", "obsidian", "log", "config", "query", "render", "csv", "html", "anki", "json",
                          "pdfxml", "ocrtsv", "transcript", "safetensors", "llmreply"]

    @Test(arguments: targets)
    func seedsPassEveryParser(_ target: String) throws {
        let fuzzer = QuireRunner.executable.deletingLastPathComponent().appendingPathComponent("QuireFuzz")
        let folder = QuireRunner.repositoryRoot.appendingPathComponent("Fuzz/corpus/\(target)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(seeds.count >= 3, "too few seeds for \(target)")
        let process = Process()
        process.executableURL = fuzzer
        process.arguments = [target] + seeds.map { folder.appendingPathComponent($0).path }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed == "\(target): \(seeds.count) inputs, no crash\n")
    }
}
