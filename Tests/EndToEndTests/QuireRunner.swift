import Foundation
import Testing

/// Runs the built `quire` executable on temporary copies of fixture vaults.
struct QuireRunner {
    /// What one run printed and returned.
    struct Result: Equatable, CustomStringConvertible {
        var stdout: String
        var stderr: String
        var status: Int32

        /// The transcript compared with golden files.
        var description: String {
            var s = stdout
            if !stderr.isEmpty { s += "--- stderr\n" + stderr }
            return s + "--- exit \(status)\n"
        }
    }

    /// The repository root, found from this source file.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `quire` binary beside the test bundle.
    static var executable: URL {
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("quire")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/quire")
    }

    /// The fixed time every golden run uses.
    static let now = "2026-11-22T12:00:00Z"

    /// A fresh copy of `SampleVault/` in a temporary folder; removed by ``cleanUp()``.
    let vault: URL

    init(copying fixture: String = "SampleVault") throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quire-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        vault = base.appendingPathComponent("vault")
        try FileManager.default.copyItem(at: Self.repositoryRoot.appendingPathComponent(fixture), to: vault)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: vault.deletingLastPathComponent()) }

    /// Runs `quire ARGS` with the vault as working directory.
    @discardableResult
    func run(_ args: [String], stdin: String? = nil, environment: [String: String] = [:],
             workingDirectory: URL? = nil) throws -> Result {
        // A data folder of the test's own: the user's installed model never changes a result.
        let base = ["NO_COLOR": "1", "XDG_DATA_HOME": vault.deletingLastPathComponent().appendingPathComponent("data").path]
        let result = try Self.execute(Self.executable, args, in: workingDirectory ?? vault,
                                      environment: base.merging(environment) { $1 }, stdin: stdin)
        let rootPath = vault.path
        func clean(_ s: String) -> String { s.replacingOccurrences(of: rootPath, with: "$VAULT") }
        return Result(stdout: clean(result.stdout), stderr: clean(result.stderr), status: result.status)
    }

    /// Runs a program to its end, with this process's environment and `environment` over it.
    static func execute(_ executable: URL, _ args: [String], in directory: URL? = nil, environment: [String: String] = [:],
                        stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        if let directory { process.currentDirectoryURL = directory }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let (outData, errData) = finish(process, out: out, err: err)
        return Result(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                      status: process.terminationStatus)
    }

    /// Reads a started process's two pipes to their end, both at once so a full pipe cannot block
    /// it, and waits for it to exit.
    static func finish(_ process: Process, out: Pipe, err: Pipe) -> (out: Data, err: Data) {
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (outData, errData)
    }

    /// Reads a file of the vault copy.
    func read(_ relative: String) throws -> Data {
        try Data(contentsOf: vault.appendingPathComponent(relative))
    }

    /// Writes a file into the vault copy.
    func write(_ relative: String, _ data: Data) throws {
        let url = vault.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
}

/// Golden-file comparison: `QUIRE_RECORD=1 swift test` rewrites the files.
enum Golden {
    static let directory = QuireRunner.repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Golden")

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["QUIRE_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try? String(contentsOf: url, encoding: .utf8)
        #expect(expected != nil, "golden file \(name).txt is missing; run with QUIRE_RECORD=1", sourceLocation: sourceLocation)
        if let expected, expected != actual {
            let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            Issue.record("""
                \(name).txt differs at line \(first + 1):
                expected: \(first < a.count ? String(a[first]) : "<end>")
                actual:   \(first < b.count ? String(b[first]) : "<end>")
                """, sourceLocation: sourceLocation)
        }
    }
}
