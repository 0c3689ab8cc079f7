import Foundation

/// Runs a Python script (`python3 -c`) with arguments, for fixtures only real tools make (SQLite
/// databases, zip archives, Anki packages from Anki's own library); returns its standard output.
package func runPython(_ script: String, _ arguments: [String] = [], in directory: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestFailure("python3 failed (\(process.terminationStatus)): " + String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
}
