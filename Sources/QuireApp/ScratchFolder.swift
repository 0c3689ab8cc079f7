import Foundation

/// A folder of the system's temporary folder for one command's scratch files (a downloaded wheel,
/// rendered pages), made with a name no other run has and removed by ``remove()``.
public struct ScratchFolder: Sendable {
    public let path: String

    /// Makes `/tmp/PREFIX-RANDOM`.
    public init(_ prefix: String) throws(AppError) {
        path = NSTemporaryDirectory() + prefix + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) } catch {
            throw .scratch("cannot make a temporary folder: \(error.localizedDescription)")
        }
    }

    /// Removes the folder and what is in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
