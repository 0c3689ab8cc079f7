import Foundation

/// Runs a Python script (`python3 -c`) with arguments, for fixtures only real tools make (SQLite
/// databases, zip archives, Anki packages from Anki's own library); returns its standard output.
package func runPython(_ script: String, _ arguments: [String] = [], in directory: String? = nil) throws -> String {
    try runProgram(["python3", "-c", script] + arguments, in: directory)
}

/// Runs a program found on `PATH` (`arguments[0]`) with the rest as its arguments; returns its
/// standard output, or throws with its standard error when it fails. Its standard error must be
/// small (it is read after the output).
package func runProgram(_ arguments: [String], in directory: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestFailure("\(arguments.first ?? "") failed (\(process.terminationStatus)): " + String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
}
