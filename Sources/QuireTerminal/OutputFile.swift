import QuireSystem

/// A file a command writes on request (`report --out`, `export … OUT`): replaced atomically, and
/// never through a symbolic link or into anything but a regular file.
package enum OutputFile {
    /// Writes `bytes` to `path`; `what` names the output in the error (`no report written`).
    package static func write(_ bytes: [UInt8], to path: String, what: String) throws {
        let io = FileIO()
        do {
            let existing = io.linkStamp(path) == nil ? nil : try io.read(path).bytes
            try io.replace(path, with: bytes, expected: existing)
        } catch {
            throw CLIError("\(error.description); no \(what) written")
        }
    }
}
