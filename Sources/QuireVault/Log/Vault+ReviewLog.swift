#if canImport(Glibc)
import Glibc
#endif
import QuireModel

extension Vault {
    /// The log folder's path relative to the root.
    public static let logFolder = folderName + "/log"

    /// Relative paths of the review-log files, sorted.
    public func reviewLogFiles() -> [String] {
        guard let dir = opendir(fullPath(Self.logFolder)) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasSuffix(".log"), !name.hasPrefix(".") { names.append(Self.logFolder + "/" + name) }
        }
        return names.sorted()
    }

    /// Every event of every log file, with problems as diagnostics.
    public func reviewLog() -> (events: [ReviewEvent], diagnostics: [Diagnostic]) {
        var events: [ReviewEvent] = []
        var diagnostics: [Diagnostic] = []
        for rel in reviewLogFiles() {
            do {
                let (bytes, _) = try io.read(fullPath(rel))
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    diagnostics.append(Diagnostic(.error, path: rel, message: "invalid UTF-8"))
                    continue
                }
                let parsed = ReviewLog.parse(text)
                events += parsed.events
                diagnostics += parsed.errors.map { Diagnostic(.error, path: rel, line: $0.line, column: $0.column, message: $0.message) }
            } catch {
                diagnostics.append(Diagnostic(.error, path: rel, message: error.description))
            }
        }
        return (events, diagnostics)
    }

    /// Problems in the review log files.
    public func reviewLogDiagnostics() -> [Diagnostic] { reviewLog().diagnostics }
}
