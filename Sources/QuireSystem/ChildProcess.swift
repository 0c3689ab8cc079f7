import Dispatch
import Foundation
import QuireSupport

/// A program run to its end with its output captured (git, for the merge driver and `quire sync`).
package struct ChildProcess: Sendable {
    /// The exit status (128 + the signal for a program a signal ended; -1 when it could not start).
    package var status: Int32
    package var output: [UInt8]
    package var errorOutput: [UInt8]

    /// The standard output as text, without a final line break.
    package var text: String {
        var s = String(decoding: output, as: UTF8.self)
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    /// The standard error as text, trimmed.
    package var errorText: String {
        String(decoding: errorOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `arguments` (the program found on `PATH`) in `directory`, with `input` on its standard
    /// input and `environment` added to this process's.
    package static func run(_ arguments: [String], in directory: String? = nil, input: [UInt8] = [],
                            environment: [String: String] = [:]) -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do { try process.run() } catch {
            return ChildProcess(status: -1, output: [], errorOutput: Array("\(arguments.first ?? ""): \(error)".utf8))
        }
        // Both outputs are drained at once, so that neither pipe fills and stops the program.
        let errors = BackgroundValue { [stderr] in [UInt8](stderr.fileHandleForReading.readDataToEndOfFile()) }
        if !input.isEmpty { try? stdin.fileHandleForWriting.write(contentsOf: Data(input)) }
        try? stdin.fileHandleForWriting.close()
        let output = [UInt8](stdout.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ChildProcess(status: status, output: output, errorOutput: errors.value)
    }
}
