import Foundation
import QuireModel

extension Timestamp {
    /// This time moved by whole days (test shorthand).
    func adding(days: Int) -> Timestamp {
        Timestamp(milliseconds: milliseconds + Int64(days) * 86_400_000)
    }
}

/// Runs the Python oracle `Oracle/<script>` (fsrs-rs-python, the reference) with `input` as JSON
/// on its standard input, and returns its standard output read as JSON.
func oracle(_ script: String, _ input: Any) throws -> Any {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracle/" + script)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", url.path]
    let inPipe = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = inPipe
    process.standardOutput = out
    process.standardError = err
    try process.run()
    inPipe.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: input))
    try inPipe.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: errors]) }
    return try JSONSerialization.jsonObject(with: data)
}
