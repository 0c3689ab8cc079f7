import Foundation
import QuireSystem

/// A folder of the system's temporary folder for one command's scratch files (a downloaded wheel,
/// rendered pages, ImageMagick's and tesseract's own temporary files), made with a name no other
/// run has, readable by the user alone, and removed by ``remove()``. A run killed before it could
/// remove its folder leaves it behind: the next run of the same kind removes it (the folder's name
/// holds its process's ID, which no longer runs; ``PrivateFolder``).
public struct ScratchFolder: Sendable {
    public let path: String

    /// Makes `/tmp/PREFIX-PID-RANDOM` (mode 0700).
    public init(_ prefix: String) throws(AppError) {
        switch PrivateFolder.make(prefix, in: NSTemporaryDirectory()) {
        case .success(let made): path = made
        case .failure(let error): throw .scratch("cannot make a temporary folder: \(error)")
        }
    }

    /// Removes the folder and what is in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
